import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * Stands in for the printer (add with context.addInitScript before the page loads). Counts calls of the app
 * page's own window.print() (printing the page would put the app's chrome on paper) and of print() on the
 * print frame's window (headless Chromium has no print dialog: a real print() on a PDF frame crashes its
 * renderer), and keeps the last Blob the page turned into an object URL: the document handed to the print
 * frame (the app's CSP does not let a script fetch a blob: URL back).
 */
export const WATCH_PRINTING = `(() => {
  if (window !== window.top) return;
  window.__pagePrints = 0;
  window.__framePrints = 0;
  window.print = () => { window.__pagePrints += 1; };
  const make = URL.createObjectURL.bind(URL);
  URL.createObjectURL = (b) => { window.__lastBlob = b; return make(b); };
  const own = Object.getOwnPropertyDescriptor(HTMLIFrameElement.prototype, 'contentWindow');
  Object.defineProperty(HTMLIFrameElement.prototype, 'contentWindow', {
    configurable: true,
    get() {
      const w = own.get.call(this);
      if (!w || this.id !== 'campus-print-frame') return w;
      return new Proxy(w, {
        get(t, k) {
          if (k === 'print') return () => { window.__framePrints += 1; };
          const v = Reflect.get(t, k);
          return typeof v === 'function' ? v.bind(t) : v;
        },
      });
    },
  });
})();`;

/** How often the page printed itself and how often the print frame was asked to print. */
export const printCounts = (page: Page): Promise<{ page: number; frame: number }> =>
  page.evaluate(() => {
    const w = window as unknown as { __pagePrints: number; __framePrints: number };
    return { page: w.__pagePrints, frame: w.__framePrints };
  });

/**
 * The PDF the last print handed to the hidden frame (once its viewer was asked to print), read back from the
 * Blob behind the frame's blob: URL; `previous` is the frame's earlier URL, to wait for a new print.
 */
export async function printedPdf(page: Page, previous = ''): Promise<{ pdf: Buffer; src: string }> {
  const frame = page.locator('iframe#campus-print-frame[data-printed="true"]');
  await expect.poll(async () => ((await frame.count()) > 0 ? await frame.getAttribute('src') : ''), { timeout: 20_000 }).not.toBe(previous);
  const src = (await frame.getAttribute('src')) ?? '';
  expect(src).toMatch(/^blob:/);
  const b64 = await page.evaluate(async () => {
    const blob = (window as unknown as { __lastBlob: Blob }).__lastBlob;
    const bytes = new Uint8Array(await blob.arrayBuffer());
    let bin = '';
    for (const b of bytes) bin += String.fromCharCode(b);
    return btoa(bin);
  });
  return { pdf: Buffer.from(b64, 'base64'), src };
}
