import ExcelJS from 'exceljs';
import { createHash } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { badRequest, HttpError } from '../lib/http-error';

/**
 * Reads an uploaded sheet (.xlsx or .csv) as it arrives: the file is never held whole in memory, its sha-256
 * is computed on the way, and a file past the row limit is refused as soon as the row past it is read.
 */

/** Rows of one sheet, header row first; rows whose cells are all blank are left out. */
export interface SheetRead {
  rows: string[][];
  sha256: string;
  bytes: number;
}

export interface SheetLimits {
  /** Data rows (under the header row) at most. */
  maxRows: number;
  /** Refusal when the row past maxRows is read. */
  tooManyRows: string;
  /** Looks at the header row as soon as it is read, and may refuse the file before the rest is read. */
  header?: (row: string[]) => void;
}

const blank = (r: readonly string[]): boolean => r.every((c) => c.trim() === '');

/**
 * RFC 4180 reader fed in pieces: quoted fields, doubled quotes, CRLF, a byte-order mark at the start. A piece
 * may end anywhere (inside a quoted field, between the two quotes of a doubled quote, between CR and LF): the
 * state carries over, so the rows are the same however the text is cut.
 */
export class CsvReader {
  private row: string[] = [];
  private cell = '';
  private quoted = false;
  /** Inside a quoted field, a quote was just read: it closes the field unless another quote follows. */
  private quoteSeen = false;
  /** A CR ended the last row: an LF right after it belongs to the same line end. */
  private afterCr = false;
  private started = false;

  /** The complete rows the text completes (blank rows left out). */
  push(text: string): string[][] {
    const out: string[][] = [];
    let src = text;
    if (!this.started && src.length > 0) {
      this.started = true;
      src = src.replace(/^\uFEFF/, '');
    }
    for (let i = 0; i < src.length; i++) {
      const ch = src[i];
      if (this.afterCr) {
        this.afterCr = false;
        if (ch === '\n') continue;
      }
      if (this.quoted) {
        if (this.quoteSeen) {
          this.quoteSeen = false;
          if (ch === '"') {
            this.cell += '"';
            continue;
          }
          this.quoted = false;
          // The closing quote is behind us: this character is read as outside quotes.
        } else {
          if (ch === '"') this.quoteSeen = true;
          else this.cell += ch;
          continue;
        }
      }
      if (ch === '"' && this.cell === '') this.quoted = true;
      else if (ch === ',') {
        this.row.push(this.cell);
        this.cell = '';
      } else if (ch === '\n' || ch === '\r') {
        this.afterCr = ch === '\r';
        this.endRow(out);
      } else this.cell += ch;
    }
    return out;
  }

  /** The last row, when the text does not end with a line end. */
  end(): string[][] {
    const out: string[][] = [];
    if (this.cell !== '' || this.row.length) this.endRow(out);
    this.quoted = false;
    this.quoteSeen = false;
    return out;
  }

  private endRow(out: string[][]): void {
    this.row.push(this.cell);
    if (!blank(this.row)) out.push(this.row);
    this.row = [];
    this.cell = '';
  }
}

/** A whole CSV text at once, with the same reader the upload streams through. */
export function parseCsv(text: string): string[][] {
  const r = new CsvReader();
  return [...r.push(text), ...r.end()];
}

function cellText(v: ExcelJS.CellValue): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  if (typeof v === 'object') {
    if ('text' in v && typeof v.text === 'string') return v.text;
    if ('result' in v) return cellText(v.result as ExcelJS.CellValue);
    if ('richText' in v) return v.richText.map((r) => r.text).join('');
    return '';
  }
  return String(v);
}

const XLSX_SIGNATURE = '504b0304';
const NOT_XLSX = 'The file is not a valid .xlsx workbook.';

/**
 * The bytes of the upload as they arrive, hashed and counted on the way. The first four are looked at before
 * anything else (an .xlsx is a zip: its signature is checked rather than its name trusted).
 */
async function* hashed(source: AsyncIterable<Buffer> | Iterable<Buffer>, state: { hash: ReturnType<typeof createHash>; bytes: number }, signature?: string): AsyncGenerator<Buffer> {
  let head: Buffer | null = signature ? Buffer.alloc(0) : null;
  for await (const chunk of source) {
    state.hash.update(chunk);
    state.bytes += chunk.length;
    if (head) {
      head = Buffer.concat([head, chunk]);
      if (head.length < 4) continue;
      if (head.subarray(0, 4).toString('hex') !== signature) throw badRequest(NOT_XLSX);
      yield head;
      head = null;
      continue;
    }
    yield chunk;
  }
  if (head) throw badRequest(NOT_XLSX);
}

/**
 * Reads the first sheet of the upload row by row. onRows hears how many data rows have been read so far (for
 * progress). Refuses a name that is neither .xlsx nor .csv before reading a byte.
 */
export async function readSheetStream(
  fileName: string,
  source: AsyncIterable<Buffer> | Iterable<Buffer>,
  limits: SheetLimits,
  onRows?: (read: number) => void,
): Promise<SheetRead> {
  const lower = fileName.toLowerCase();
  const isCsv = lower.endsWith('.csv');
  if (!isCsv && !lower.endsWith('.xlsx')) throw badRequest('Only .xlsx and .csv files can be imported.');
  const state = { hash: createHash('sha256'), bytes: 0 };
  const rows: string[][] = [];
  const take = (r: string[]): void => {
    rows.push(r);
    if (rows.length === 1) limits.header?.(r);
    // The header row is not counted: the limit is on the rows under it.
    if (rows.length - 1 > limits.maxRows) throw badRequest(limits.tooManyRows);
    if (onRows && rows.length > 1 && (rows.length - 1) % 1000 === 0) onRows(rows.length - 1);
  };
  if (isCsv) {
    const csv = new CsvReader();
    // A UTF-8 character cut between two pieces is joined again before it is read.
    const text = new TextDecoder('utf-8');
    for await (const chunk of hashed(source, state)) for (const r of csv.push(text.decode(chunk, { stream: true }))) take(r);
    for (const r of [...csv.push(text.decode()), ...csv.end()]) take(r);
  } else {
    await readXlsx(hashed(source, state, XLSX_SIGNATURE), take, () => (rows.length = 0));
  }
  onRows?.(Math.max(0, rows.length - 1));
  return { rows, sha256: state.hash.digest('hex'), bytes: state.bytes };
}

/**
 * ExcelJS's streaming reader: shared strings kept (cells refer to them by number), styles kept (a date cell
 * is a number whose format says it is a date), hyperlinks ignored. Only the first sheet is read (the
 * template's help sheet comes second); the others are passed over so the whole file is still hashed.
 *
 * The reader pipes its input into an unzipper, and a pipe does not pass errors on: the bytes are pumped into
 * a PassThrough here, which is ended when the upload fails (a refused signature, a file past the size
 * limit, a dropped connection) so the reader stops, and that failure is what is reported.
 *
 * The streaming reader walks the zip's entries in stored order and now and then loses the last one (a race in
 * its unzip pass, exceljs issues 962 and 3064: 1 read in ~600 of our own template on Node 20, which stores
 * xl/workbook.xml last; it failed a CI run). A good workbook must not be refused by chance, so the bytes are
 * kept as they pass (the upload limit bounds them), and when the streaming pass fails or ends without the
 * workbook part, the same bytes are read again with ExcelJS's whole-file loader, which reads the zip through
 * its central directory. Only when that fails too is the file not a workbook.
 */
async function readXlsx(source: AsyncIterable<Buffer>, take: (r: string[]) => void, restart: () => void): Promise<void> {
  const input = new PassThrough();
  const kept: Buffer[] = [];
  let failure: unknown = null;
  const roomOrClosed = (): Promise<void> =>
    new Promise((resolve) => {
      const done = (): void => {
        input.off('drain', done);
        input.off('close', done);
        resolve();
      };
      input.on('drain', done);
      input.on('close', done);
    });
  // Set when the streaming pass failed by chance: the rest of the upload is then read for the second pass.
  let wantAll = false;
  const pump = (async () => {
    try {
      for await (const chunk of source) {
        kept.push(chunk);
        if (input.destroyed) {
          // The streaming pass stopped: the rest is read only when the whole-file loader needs it.
          if (wantAll) continue;
          return;
        }
        if (!input.write(chunk)) await roomOrClosed();
      }
    } catch (err) {
      failure = err;
    }
    if (!input.destroyed) input.end();
  })();
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, { sharedStrings: 'cache', styles: 'cache', hyperlinks: 'ignore', worksheets: 'emit', entries: 'ignore' });
  let first = true;
  let streamed = false;
  try {
    for await (const sheet of reader) {
      const wanted = first;
      first = false;
      for await (const row of sheet) {
        if (!wanted) continue;
        takeRow(row, take);
      }
    }
    // The workbook part read means no entry was lost on the way.
    streamed = (reader as unknown as { model?: unknown }).model !== undefined;
    wantAll = !streamed;
  } catch (err) {
    if (failure) throw failure;
    // Our own refusal (too many rows) passes through.
    if (err instanceof HttpError) throw err;
    wantAll = true;
  } finally {
    // When the reading stopped early for good, the rest of the upload is not wanted: the pump stops at its
    // next piece (not awaited then: a stalled client must not hold the answer).
    input.destroy();
  }
  await pump;
  if (failure) throw failure;
  if (streamed) return;
  restart();
  const wb = new ExcelJS.Workbook();
  try {
    await wb.xlsx.load(Buffer.concat(kept) as unknown as ArrayBuffer);
  } catch {
    throw badRequest(NOT_XLSX);
  }
  const sheet = wb.worksheets[0];
  if (!sheet) throw badRequest(NOT_XLSX);
  sheet.eachRow((row) => takeRow(row, take));
}

function takeRow(row: ExcelJS.Row, take: (r: string[]) => void): void {
  // values is 1-based and sparse: a cell left empty is a hole, read as ''.
  const values = row.values as ExcelJS.CellValue[];
  const cells = Array.from({ length: Math.max(0, values.length - 1) }, (_, k) => cellText(values[k + 1]).trim());
  if (!blank(cells)) take(cells);
}
