/**
 * What an uploaded file really is, decided by its bytes and never by its name or the browser's claimed
 * type: a renamed EXE or HTML page must not be stored (and later served) as a picture.
 */

export type SniffedKind = 'jpeg' | 'png' | 'gif' | 'bmp' | 'ico' | 'svg' | 'pdf';

export interface Sniffed {
  kind: SniffedKind;
  mime: string;
}

const MIME: Record<SniffedKind, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  bmp: 'image/bmp',
  ico: 'image/x-icon',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
};

const startsWith = (buf: Buffer, bytes: readonly number[], at = 0): boolean =>
  buf.length >= at + bytes.length && bytes.every((b, i) => buf[at + i] === b);

const ascii = (s: string): number[] => [...s].map((c) => c.charCodeAt(0));

/** 'BM' alone is two letters any text may start with: the DIB header size must be a known one too. */
function isBmp(buf: Buffer): boolean {
  if (!startsWith(buf, ascii('BM')) || buf.length < 26) return false;
  return [12, 40, 52, 56, 64, 108, 124].includes(buf.readUInt32LE(14));
}

/** ICONDIR: reserved 0, type 1, at least one image, and room for every directory entry. */
function isIco(buf: Buffer): boolean {
  if (!startsWith(buf, [0, 0, 1, 0]) || buf.length < 6) return false;
  const count = buf.readUInt16LE(4);
  if (count === 0 || buf.length < 6 + 16 * count) return false;
  // Each entry's reserved byte is 0 and its data lies inside the file.
  for (let i = 0; i < count; i++) {
    const entry = 6 + 16 * i;
    if (buf[entry + 3] !== 0) return false;
    const size = buf.readUInt32LE(entry + 8);
    const offset = buf.readUInt32LE(entry + 12);
    if (size === 0 || offset + size > buf.length) return false;
  }
  return true;
}

/**
 * An SVG is text, so it is read as XML: after an optional BOM, XML declaration, comments, processing
 * instructions and doctype, the first element must be <svg>. Only the start is parsed; a file that is not
 * UTF-8 text (NUL bytes, bad sequences) is refused before that.
 */
export function isSvg(buf: Buffer): boolean {
  const head = buf.subarray(0, 8192);
  if (head.includes(0)) return false;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(head);
  } catch (err) {
    // A multi-byte character cut at the 8 KB boundary is still text; anything else is not.
    if (head.length < 8192 || !(err instanceof TypeError)) return false;
    text = new TextDecoder('utf-8').decode(head.subarray(0, 8188));
  }
  let s = text.replace(/^\uFEFF/, '');
  for (;;) {
    s = s.replace(/^\s+/, '');
    if (s.startsWith('<?')) {
      const end = s.indexOf('?>');
      if (end < 0) return false;
      s = s.slice(end + 2);
    } else if (s.startsWith('<!--')) {
      const end = s.indexOf('-->');
      if (end < 0) return false;
      s = s.slice(end + 3);
    } else if (s.startsWith('<!DOCTYPE')) {
      // An internal subset [...] may hold '>' of its own declarations.
      const bracket = s.indexOf('[');
      const close = s.indexOf('>');
      if (close < 0) return false;
      if (bracket >= 0 && bracket < close) {
        const end = s.indexOf(']>', bracket);
        if (end < 0) return false;
        s = s.slice(end + 2);
      } else s = s.slice(close + 1);
    } else break;
  }
  return /^<svg[\s>/]/.test(s);
}

/** The kind of the file by content, or null when it is none of the accepted kinds. */
export function sniffFile(buf: Buffer): Sniffed | null {
  const kind = sniffKind(buf);
  return kind ? { kind, mime: MIME[kind] } : null;
}

function sniffKind(buf: Buffer): SniffedKind | null {
  if (startsWith(buf, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(buf, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(buf, ascii('GIF87a')) || startsWith(buf, ascii('GIF89a'))) return 'gif';
  if (isBmp(buf)) return 'bmp';
  if (isIco(buf)) return 'ico';
  if (startsWith(buf, ascii('%PDF-'))) return 'pdf';
  if (isSvg(buf)) return 'svg';
  return null;
}

/** Raster images and PDF are shown in the browser; SVG may carry script, so it is only ever downloaded. */
export const servedInline = (mime: string): boolean => mime !== MIME.svg;
