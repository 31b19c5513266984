import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { adminUser } from '../test-support/fixtures';
import { jsonResponse, resetTestState, stubBrowser, stubFetch } from '../test-support/render-app';
import { HttpError } from './http-client';
import { printPdf } from './print-pdf';
import { signIn } from './session-store';

const pdfResponse = () => new Response('%PDF-1.7 test', { status: 200, headers: { 'content-type': 'application/pdf' } });

let urls: string[];

beforeEach(() => {
  stubBrowser();
  signIn(adminUser);
  urls = [];
  let n = 0;
  URL.createObjectURL = vi.fn(() => `blob:doc-${++n}`);
  URL.revokeObjectURL = vi.fn();
});
afterEach(() => {
  document.getElementById('campus-print-frame')?.remove();
  resetTestState();
});

/**
 * jsdom does not load a blob: PDF: the frame's load is fired by hand, as the browser's viewer would, with the
 * frame window's print() watched.
 */
async function loadFrame(): Promise<{ frame: HTMLIFrameElement; framePrint: ReturnType<typeof vi.fn> }> {
  await vi.waitFor(() => expect(document.getElementById('campus-print-frame')).not.toBeNull());
  const frame = document.getElementById('campus-print-frame') as HTMLIFrameElement;
  const framePrint = vi.fn();
  (frame.contentWindow as Window).print = framePrint;
  frame.dispatchEvent(new Event('load'));
  return { frame, framePrint };
}

describe('printPdf', () => {
  it('fetches the PDF with the session headers, the language and the size, and prints it from a hidden frame, not the page', async () => {
    const fetch = stubFetch(async (url) => {
      urls.push(url);
      return pdfResponse();
    });
    const pagePrint = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    const done = printPdf('/api/fee_collection/bill/7/pdf', { size: 'A4', target: 'frame' });
    const { frame, framePrint } = await loadFrame();
    await done;
    expect(urls[0]).toMatch(/^\/api\/fee_collection\/bill\/7\/pdf\?/);
    expect(urls[0]).toContain('lang=english');
    expect(urls[0]).toContain('size=A4');
    expect((fetch.mock.calls[0][1].headers as Record<string, string>).auth_token).toBe(adminUser.usr_token);
    expect(frame.getAttribute('src')).toBe('blob:doc-1');
    expect(frame.style.visibility).toBe('hidden');
    expect(frame.style.display).not.toBe('none');
    expect(frame.dataset.printed).toBe('true');
    expect(framePrint).toHaveBeenCalledTimes(1);
    expect(pagePrint).not.toHaveBeenCalled();
  });

  it('releases the previous document when the next one is printed', async () => {
    stubFetch(async () => pdfResponse());
    const first = printPdf('/api/x/1/pdf', { target: 'frame' });
    await loadFrame();
    await first;
    const second = printPdf('/api/x/2/pdf', { target: 'frame' });
    expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:doc-1');
    await loadFrame();
    await second;
    expect(document.querySelectorAll('#campus-print-frame')).toHaveLength(1);
    expect(document.getElementById('campus-print-frame')?.getAttribute('src')).toBe('blob:doc-2');
  });

  it('opens the PDF in a tab opened at the click where there is no inline viewer, and closes it when the server refuses', async () => {
    const tab = { location: { href: '' }, close: vi.fn() };
    const open = vi.spyOn(window, 'open').mockImplementation(() => tab as unknown as Window);
    let answer: (r: Response) => void = () => undefined;
    stubFetch(() => new Promise<Response>((r) => (answer = r)));
    const done = printPdf('/api/x/3/pdf', { target: 'tab' });
    // Before the PDF arrives: a popup blocker only lets a tab through during the click.
    expect(open).toHaveBeenCalledTimes(1);
    answer(pdfResponse());
    await done;
    expect(tab.location.href).toBe('blob:doc-1');

    stubFetch(async () => jsonResponse({ message: 'You are not allowed.' }, 403));
    await expect(printPdf('/api/x/4/pdf', { target: 'tab' })).rejects.toBeInstanceOf(HttpError);
    expect(tab.close).toHaveBeenCalled();
  });
});
