import { http } from './http-client';
import { getLanguage } from './i18n';

/**
 * Printing a document the server made as a PDF (apps/server/src/documents): the app's own page never goes to
 * the printer, so the header, side menu and toasts cannot end up on paper. The PDF is fetched through the HTTP
 * client (the API wants the session headers, which a plain <iframe src> cannot send), then printed from a
 * hidden iframe holding it as a blob: URL. Where the browser shows no PDFs inline (phones: no PDF viewer), it
 * opens in a new tab instead, whose own viewer has print and share.
 */

export type PageSize = 'A4' | 'A5';

export interface PrintPdfOptions {
  /** Paper size; the document's usual size when absent (the receipt is A5, a mark sheet A4). */
  size?: PageSize;
  /** Test seam and phone fallback: 'frame' prints in place, 'tab' opens the PDF beside the app. */
  target?: 'frame' | 'tab';
  /** Headers over the session's, as the screen's own requests send them (an earlier year's acdm_cd). */
  headers?: Record<string, string>;
}

const FRAME_ID = 'campus-print-frame';
// The print dialog reads the PDF from the viewer, which keeps its own copy once loaded; the URL is released
// when the next document is printed, when the page goes away, or after this long at the latest.
const RELEASE_AFTER_MS = 10 * 60_000;

let current: { url: string; timer: ReturnType<typeof setTimeout> } | null = null;

function release(): void {
  if (!current) return;
  clearTimeout(current.timer);
  URL.revokeObjectURL(current.url);
  current = null;
  document.getElementById(FRAME_ID)?.remove();
}

function hold(url: string): void {
  current = { url, timer: setTimeout(release, RELEASE_AFTER_MS) };
}

if (typeof window !== 'undefined') window.addEventListener('pagehide', release);

/** The document's URL path with the user's language (the server prints its labels in it) and the size. */
export function pdfQuery(opts: PrintPdfOptions): Record<string, string | undefined> {
  return { lang: getLanguage(), size: opts.size };
}

/** The PDF as bytes, or the HttpError the client raised (and already showed as a toast). */
export function fetchPdf(path: string, opts: PrintPdfOptions = {}): Promise<Blob> {
  return http.get<Blob>(path, { blob: true, query: pdfQuery(opts), headers: opts.headers });
}

function defaultTarget(): 'frame' | 'tab' {
  return typeof navigator !== 'undefined' && navigator.pdfViewerEnabled === false ? 'tab' : 'frame';
}

/**
 * Print the PDF at `path` (an API path such as `/api/fee_collection/bill/12/pdf`). Call it straight from the
 * click: for the new-tab fallback the tab must open before the first await, or a popup blocker stops it.
 * Resolves once the print dialog was asked for (frame) or the tab shows the PDF; rejects with the client's
 * HttpError when the server refused (already toasted).
 */
export async function printPdf(path: string, opts: PrintPdfOptions = {}): Promise<void> {
  const target = opts.target ?? defaultTarget();
  // A new print replaces the last one: its frame and URL go now, not when the new PDF arrives.
  release();
  const tab = target === 'tab' ? window.open('', '_blank') : null;
  let blob: Blob;
  try {
    blob = await fetchPdf(path, opts);
  } catch (e) {
    tab?.close();
    throw e;
  }
  const url = URL.createObjectURL(blob.type === 'application/pdf' ? blob : new Blob([blob], { type: 'application/pdf' }));
  if (target === 'tab' && !tab) {
    // The tab was blocked: show the PDF in place of the app (Back returns). Not released on leaving the
    // page, which is exactly what this navigation does.
    window.location.assign(url);
    return;
  }
  hold(url);
  if (tab) {
    tab.location.href = url;
    return;
  }
  await new Promise<void>((resolve) => {
    const frame = document.createElement('iframe');
    frame.id = FRAME_ID;
    frame.title = 'PDF';
    // Not display:none: a hidden frame's PDF viewer never loads, and print() then prints nothing.
    frame.setAttribute('style', 'position:fixed;right:0;bottom:0;width:0;height:0;border:0;visibility:hidden');
    frame.addEventListener(
      'load',
      () => {
        try {
          const win = frame.contentWindow;
          win?.focus();
          win?.print();
          frame.dataset.printed = 'true';
        } finally {
          // Whatever the viewer does, the Print button must not stay busy.
          resolve();
        }
      },
      { once: true },
    );
    frame.src = url;
    document.body.appendChild(frame);
  });
}
