import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { FastifyReply } from 'fastify';
import type { Content, TDocumentDefinitions, TFontDictionary } from 'pdfmake/interfaces';
import { rows, sql, type DbOrTx } from '../db/client';
import { badRequest, notFound } from '../lib/http-error';
import { fromPaise, toPaise } from '../lib/paise';

/**
 * Printed documents are PDFs made here, on the server, with pdfmake (which drives pdfkit/fontkit): the same
 * bytes whatever the clerk's browser, fonts embedded, A4 or A5. Each document module builds a pdfmake content
 * tree and calls renderPdf; this module owns fonts, page sizes, the letterhead, the CANCELLED watermark and the
 * printed labels of the user's language.
 */

// pdfmake's server entry is `module.exports = new pdfmake()`: Node's ESM loader sees no named exports in it,
// so load it through require and name the few members used (its typings omit the virtual file system).
interface PdfMake {
  virtualfs: { writeFileSync(name: string, content: Buffer): void };
  setFonts(fonts: TFontDictionary): void;
  setUrlAccessPolicy(allow: (url: string) => boolean): void;
  setLocalAccessPolicy(allow: (path: string) => boolean): void;
  createPdf(doc: TDocumentDefinitions): { getBuffer(): Promise<Buffer> };
}
const require = createRequire(import.meta.url);

let engine: PdfMake | null = null;

/**
 * Fonts go into pdfmake's in-memory file system once, and every URL and local path is refused: a document
 * built from user data (an image path in a name field, say) can never make the server read a file or fetch.
 */
function pdfEngine(): PdfMake {
  if (engine) return engine;
  const pm = require('pdfmake') as PdfMake;
  const file = (id: string, name: string) => pm.virtualfs.writeFileSync(name, readFileSync(require.resolve(id)));
  file('pdfmake/fonts/Roboto/Roboto-Regular.ttf', 'roboto-regular.ttf');
  file('pdfmake/fonts/Roboto/Roboto-Medium.ttf', 'roboto-medium.ttf');
  file('pdfmake/fonts/Roboto/Roboto-Italic.ttf', 'roboto-italic.ttf');
  file('pdfmake/fonts/Roboto/Roboto-MediumItalic.ttf', 'roboto-medium-italic.ttf');
  // fontsource splits Noto Sans Tamil by Unicode subset; the 'tamil' subset holds the Tamil block only (no
  // space, no digits), so Tamil runs use it and everything else stays in Roboto (see tamilRuns).
  file('@fontsource/noto-sans-tamil/files/noto-sans-tamil-tamil-400-normal.woff', 'noto-tamil-400.woff');
  file('@fontsource/noto-sans-tamil/files/noto-sans-tamil-tamil-700-normal.woff', 'noto-tamil-700.woff');
  pm.setFonts({
    Roboto: { normal: 'roboto-regular.ttf', bold: 'roboto-medium.ttf', italics: 'roboto-italic.ttf', bolditalics: 'roboto-medium-italic.ttf' },
    NotoSansTamil: { normal: 'noto-tamil-400.woff', bold: 'noto-tamil-700.woff', italics: 'noto-tamil-400.woff', bolditalics: 'noto-tamil-700.woff' },
  });
  pm.setUrlAccessPolicy(() => false);
  pm.setLocalAccessPolicy(() => false);
  engine = pm;
  return pm;
}

const TAMIL_CHAR = /[\u0B80-\u0BFF\u200C\u200D]/;
const TAMIL_RUN = /[\u0B80-\u0BFF\u200C\u200D]+/g;

/**
 * A string cut into runs, each in a font that has its glyphs: Tamil letters in Noto Sans Tamil, the rest
 * (Latin, digits, spaces, punctuation) in Roboto. Each Tamil run is shaped whole by fontkit, so vowel signs
 * and conjuncts inside a word come out right.
 */
export function tamilRuns(text: string): Content[] {
  const out: Content[] = [];
  let at = 0;
  for (const m of text.matchAll(TAMIL_RUN)) {
    if (m.index > at) out.push({ text: text.slice(at, m.index) });
    out.push({ text: m[0], font: 'NotoSansTamil' });
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push({ text: text.slice(at) });
  return out;
}

const CONTAINER_KEYS = ['stack', 'columns', 'ul', 'ol'] as const;

/** Every text of the tree with Tamil in it, split into font runs; callers write plain strings. */
function withFontRuns(node: unknown): unknown {
  if (typeof node === 'string') return TAMIL_CHAR.test(node) ? { text: tamilRuns(node) } : node;
  if (Array.isArray(node)) return node.map(withFontRuns);
  if (!node || typeof node !== 'object') return node;
  const o = { ...(node as Record<string, unknown>) };
  if (typeof o.text === 'string') {
    if (TAMIL_CHAR.test(o.text)) o.text = tamilRuns(o.text);
  } else if (o.text !== undefined) o.text = withFontRuns(o.text);
  for (const k of CONTAINER_KEYS) if (o[k] !== undefined) o[k] = withFontRuns(o[k]);
  if (o.table && typeof o.table === 'object') {
    const t = o.table as Record<string, unknown>;
    o.table = { ...t, body: withFontRuns(t.body) };
  }
  return o;
}

// ---------------------------------------------------------------------------------------------------------
// Request options: page size and language

export const pageSizes = ['A4', 'A5'] as const;
export type PageSize = (typeof pageSizes)[number];

/** `?size=A4|A5`; absent means the document's usual size. */
export function pageSizeOf(v: unknown, usual: PageSize): PageSize {
  if (v === undefined || v === null || v === '') return usual;
  const s = String(v).toUpperCase();
  const hit = pageSizes.find((p) => p === s);
  if (!hit) throw badRequest("The page size must be 'A4' or 'A5'.");
  return hit;
}

/** The languages a user can pick (apps/web/src/lib/i18n.ts); the web sends its current one as `?lang=`. */
export const printLanguages = ['english', 'tamil'] as const;
export type PrintLanguage = (typeof printLanguages)[number];

export function printLanguageOf(v: unknown): PrintLanguage {
  if (v === undefined || v === null || v === '') return 'english';
  const hit = printLanguages.find((l) => l === v);
  if (!hit) throw badRequest(`The language must be one of ${printLanguages.join(', ')}.`);
  return hit;
}

type Dict = { [k: string]: string | Dict };
const languageDir = new URL('../../../web/public/assets/language/', import.meta.url);
const printSections = new Map<string, Dict>();

/** The `print` section of a language file, read once: screen and paper share one set of translations. */
function printSection(fileName: string): Dict {
  const cached = printSections.get(fileName);
  if (cached) return cached;
  let section: Dict = {};
  try {
    const all = JSON.parse(readFileSync(new URL(`${fileName}.json`, languageDir), 'utf8')) as Dict;
    if (all.print && typeof all.print === 'object') section = all.print;
  } catch {
    // A missing file falls back to English label by label below.
  }
  printSections.set(fileName, section);
  return section;
}

function lookup(d: Dict, key: string): string | undefined {
  let at: string | Dict | undefined = d;
  for (const part of key.split('.')) at = at && typeof at === 'object' ? at[part] : undefined;
  return typeof at === 'string' ? at : undefined;
}

export type PrintLabel = (key: string, vars?: Record<string, string | number>) => string;

/**
 * Labels of `print.<key>` in the user's language, the college variant for a college (tamil_clg.json says
 * 'Student' where a school says 'pupil'), falling back to English. A key missing in English too is a
 * programming error and throws, so a test of each document catches it.
 */
export function printLabels(lang: PrintLanguage, instTyp: string | null | undefined): PrintLabel {
  const college = instTyp === 'college';
  const chain = [...(college ? [`${lang}_clg`] : []), lang, ...(college ? ['english_clg'] : []), 'english'];
  return (key, vars) => {
    for (const f of chain) {
      const hit = lookup(printSection(f), key);
      if (hit !== undefined) return hit.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, v: string) => String(vars?.[v] ?? ''));
    }
    throw new Error(`print label '${key}' is missing from english.json`);
  };
}

const LOCALES: Record<PrintLanguage, string> = { english: 'en-IN', tamil: 'ta-IN' };

/** '2026-03-05' -> '2026/Mar/05', the screen's date format (apps/web/src/lib/format.ts) with the language's month name. */
export function printDate(iso: string | null | undefined, lang: PrintLanguage): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso ?? '');
  if (!m) return '';
  const month = new Intl.DateTimeFormat(LOCALES[lang], { month: 'short', timeZone: 'UTC' }).format(new Date(Date.UTC(2000, Number(m[2]) - 1, 1)));
  return `${m[1]}/${month}/${m[3]}`;
}

/** '14:05:09' -> '02:05:09 PM', as the screen shows times. */
export function printTime(hms: string | null | undefined): string {
  const m = /^(\d{1,2}):(\d{2})(?::(\d{2}))?/.exec(hms ?? '');
  if (!m) return '';
  const h = Number(m[1]);
  return `${String(h % 12 === 0 ? 12 : h % 12).padStart(2, '0')}:${m[2]}:${m[3] ?? '00'} ${h < 12 ? 'AM' : 'PM'}`;
}

/**
 * An amount as the screen shows it (apps/web/src/lib/format.ts formatMoney): 2 decimals, Indian grouping,
 * '100000.5' -> '1,00,000.50'. From the decimal string, never a float.
 */
export function printMoney(amount: string | null | undefined): string {
  const fixed = fromPaise(toPaise(amount ?? '0'));
  const negative = fixed.startsWith('-');
  const [whole, frac] = (negative ? fixed.slice(1) : fixed).split('.');
  const grouped = whole.length <= 3 ? whole : `${whole.slice(0, -3).replace(/\B(?=(\d{2})+$)/g, ',')},${whole.slice(-3)}`;
  return `${negative ? '-' : ''}${grouped}.${frac}`;
}

// ---------------------------------------------------------------------------------------------------------
// The institute's letterhead

export interface Institute {
  inst_cd: number;
  inst_nm: string;
  inst_typ: string | null;
  inst_adr1: string | null;
  inst_adr2: string | null;
  inst_ph: string | null;
  inst_eml: string | null;
}

export async function instituteOf(db: DbOrTx, instCd: number): Promise<Institute> {
  const [i] = await rows<Institute>(
    db,
    sql`SELECT inst_cd, inst_nm, inst_typ, inst_adr1, inst_adr2, inst_ph, inst_eml FROM institute WHERE inst_cd = ${instCd}`,
  );
  if (!i) throw notFound('The institute was not found.');
  return { ...i, inst_cd: Number(i.inst_cd) };
}

/** Name large, address and contacts under it, then the document's title, with a rule below. */
export function letterhead(inst: Institute, title: string, t: PrintLabel, size: PageSize, orientation: Orientation = 'portrait'): Content {
  const small = size === 'A5';
  const contacts = [
    inst.inst_ph ? `${t('phone')}: ${inst.inst_ph}` : '',
    inst.inst_eml ? `${t('email')}: ${inst.inst_eml}` : '',
  ].filter(Boolean);
  const address = [inst.inst_adr1, inst.inst_adr2].filter((v): v is string => !!v && v.trim() !== '').join(', ');
  return {
    stack: [
      { text: inst.inst_nm, style: 'instName', alignment: 'center' },
      ...(address ? [{ text: address, alignment: 'center' as const, fontSize: small ? 8 : 9 }] : []),
      ...(contacts.length ? [{ text: contacts.join('   '), alignment: 'center' as const, fontSize: small ? 8 : 9 }] : []),
      { canvas: [{ type: 'line', x1: 0, y1: 4, x2: contentWidth(size, orientation), y2: 4, lineWidth: 0.8 }], margin: [0, 2, 0, 4] },
      { text: title, style: 'docTitle', alignment: 'center' },
    ],
    margin: [0, 0, 0, small ? 6 : 10],
  };
}

// A4 595.28 x 841.89 pt, A5 419.53 x 595.28 pt (pdfmake's sizes), portrait.
const PAGE_WIDTH: Record<PageSize, number> = { A4: 595.28, A5: 419.53 };
const PAGE_HEIGHT: Record<PageSize, number> = { A4: 841.89, A5: 595.28 };
const MARGIN: Record<PageSize, number> = { A4: 40, A5: 24 };

/** Landscape: a class's mark sheet with a column per subject. */
export type Orientation = 'portrait' | 'landscape';

/** Width between the margins, for rules and full-width tables. */
export function contentWidth(size: PageSize, orientation: Orientation = 'portrait'): number {
  return (orientation === 'landscape' ? PAGE_HEIGHT[size] : PAGE_WIDTH[size]) - 2 * MARGIN[size];
}

// ---------------------------------------------------------------------------------------------------------
// Rendering

export interface PdfDocument {
  size: PageSize;
  /** Portrait unless said otherwise. */
  orientation?: Orientation;
  /** The PDF's title (viewer tab, file name of a save). */
  title: string;
  author: string;
  content: Content[];
  /** A cancelled bill or revoked certificate: 'CANCELLED' across every page. */
  cancelled?: boolean;
  /** Bottom line of every page, left; the page number goes right. */
  footer?: string;
  t: PrintLabel;
}

export async function renderPdf(doc: PdfDocument): Promise<Buffer> {
  const small = doc.size === 'A5';
  const margin = MARGIN[doc.size];
  const footerText = doc.footer;
  const definition: TDocumentDefinitions = {
    pageSize: doc.size,
    pageOrientation: doc.orientation ?? 'portrait',
    pageMargins: [margin, margin, margin, margin + 10],
    info: { title: doc.title, author: doc.author, creator: 'Campus', producer: 'Campus' },
    // The spec's word, in English whatever the language: it is what auditors look for on a cancelled paper.
    watermark: doc.cancelled ? { text: 'CANCELLED', color: '#c62828', opacity: 0.25, bold: true } : undefined,
    content: withFontRuns(doc.content) as Content,
    footer: (page: number, pages: number) => ({
      columns: [
        { text: (withFontRuns(footerText ?? '') as Content) ?? '', fontSize: 7, color: '#555555' },
        { text: withFontRuns(doc.t('page_of', { page, pages })) as Content, fontSize: 7, color: '#555555', alignment: 'right' },
      ],
      margin: [margin, 6, margin, 0],
    }),
    defaultStyle: { font: 'Roboto', fontSize: small ? 8.5 : 10, lineHeight: 1.15 },
    styles: {
      instName: { fontSize: small ? 13 : 17, bold: true },
      docTitle: { fontSize: small ? 10 : 12, bold: true, margin: [0, 2, 0, 0] },
      label: { color: '#444444' },
      th: { bold: true, fillColor: '#eeeeee' },
      total: { bold: true },
    },
  };
  return pdfEngine().createPdf(definition).getBuffer();
}

/** The PDF inline (the browser prints it from an iframe), never cached: a reprint must show a later cancellation. */
export function sendPdf(reply: FastifyReply, pdf: Buffer, fileName: string): FastifyReply {
  return reply
    .header('content-type', 'application/pdf')
    .header('content-disposition', `inline; filename="${fileName.replace(/[^\w.-]+/g, '_')}"`)
    .header('cache-control', 'no-store')
    .send(pdf);
}

// ---------------------------------------------------------------------------------------------------------
// What every document route starts with

export interface PrintSetup {
  size: PageSize;
  lang: PrintLanguage;
  inst: Institute;
  t: PrintLabel;
}

/**
 * `?size=` and `?lang=` of a document request, the institute of the request (its letterhead, and school or
 * college labels). Bad values are refused with a 400 before any work is done.
 */
export async function printSetup(db: DbOrTx, instCd: number, query: unknown, usualSize: PageSize): Promise<PrintSetup> {
  const q = (query ?? {}) as { size?: unknown; lang?: unknown };
  const size = pageSizeOf(q.size, usualSize);
  const lang = printLanguageOf(q.lang);
  const inst = await instituteOf(db, instCd);
  return { size, lang, inst, t: printLabels(lang, inst.inst_typ) };
}
