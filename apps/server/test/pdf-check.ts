import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';

/**
 * Reading a PDF back the way a person would: its text (poppler's pdftotext), its page size (pdfinfo) and
 * whether page 1 has anything on it (pdftoppm at low resolution, dark pixels counted). CI installs
 * poppler-utils for these.
 */

/** The body of a response that must be a PDF: a 200 with the PDF content type (the error text otherwise). */
export function pdfOf(res: { statusCode: number; body: string; rawPayload: Buffer; headers: Record<string, unknown> }): Buffer {
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  expect(res.headers['content-type']).toBe('application/pdf');
  return res.rawPayload;
}

function withFile<T>(pdf: Buffer, run: (file: string, dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'campus-pdf-'));
  try {
    const file = join(dir, 'doc.pdf');
    writeFileSync(file, pdf);
    return run(file, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * pdftotext writes Tamil in glyph order, so a vowel sign drawn left of its consonant (ெ ே ை) comes out before
 * it: 'பெயர்' reads back as 'ெபயர்'. Put such signs back after their consonant (and recompose ொ ோ ௌ) so a test
 * can look for the words as they were written.
 */
export function tamilLogicalOrder(text: string): string {
  return text.replace(/([\u0BC6\u0BC7\u0BC8])((?:[\u0B95-\u0BB9]\u0BCD)*[\u0B95-\u0BB9])/g, '$2$1').normalize('NFC');
}

/** The text of every page, layout kept (columns stay on one line), Tamil in logical order. */
export function pdfText(pdf: Buffer): string {
  return withFile(pdf, (file) => tamilLogicalOrder(execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' })));
}

/**
 * The text with every space and line break taken out, in content-stream order. pdftotext cuts diagonal
 * text (a watermark) into letters and scatters them in its layout; in raw order they stay together.
 */
export function pdfLetters(pdf: Buffer): string {
  return withFile(pdf, (file) => execFileSync('pdftotext', ['-raw', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' })).replace(/\s+/g, '');
}

export interface PdfInfo {
  pages: number;
  /** Page size in points, rounded: A4 is 595 x 842, A5 420 x 595. */
  width: number;
  height: number;
  title: string;
}

export function pdfInfo(pdf: Buffer): PdfInfo {
  const out = withFile(pdf, (file) => execFileSync('pdfinfo', [file], { encoding: 'utf8' }));
  const field = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'm').exec(out)?.[1]?.trim() ?? '';
  const size = /([\d.]+) x ([\d.]+) pts/.exec(field('Page size'));
  return { pages: Number(field('Pages')), width: Math.round(Number(size?.[1])), height: Math.round(Number(size?.[2])), title: field('Title') };
}

export const A4 = { width: 595, height: 842 } as const;
export const A5 = { width: 420, height: 595 } as const;

/**
 * Page 1 at 20 dpi in grey; the share of pixels darker than mid-grey. A blank page gives 0; a receipt with a
 * letterhead and a table well over 1%. With `png`, the page is also written there at 60 dpi to be looked at.
 */
export function firstPageInk(pdf: Buffer, png?: string): number {
  return withFile(pdf, (file, dir) => {
    execFileSync('pdftoppm', ['-f', '1', '-l', '1', '-r', '20', '-gray', file, join(dir, 'p')]);
    const pgm = readFileSync(join(dir, readdirOne(dir, '.pgm')));
    if (png) execFileSync('pdftoppm', ['-f', '1', '-l', '1', '-r', '60', '-png', '-singlefile', file, png.replace(/\.png$/, '')]);
    return darkShare(pgm);
  });
}

function readdirOne(dir: string, ext: string): string {
  const hit = readdirSync(dir).find((f) => f.endsWith(ext));
  if (!hit) throw new Error(`pdftoppm wrote no ${ext} file`);
  return hit;
}

/** Binary PGM (P5, 8 bit): header 'P5 w h 255' then w*h bytes. */
function darkShare(pgm: Buffer): number {
  const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(pgm.subarray(0, 64).toString('latin1'));
  if (!header) throw new Error('not a binary PGM');
  const [w, h] = [Number(header[1]), Number(header[2])];
  const pixels = pgm.subarray(header[0].length, header[0].length + w * h);
  let dark = 0;
  for (const p of pixels) if (p < 128) dark += 1;
  return dark / pixels.length;
}
