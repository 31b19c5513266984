import { bodySchema, writableFields, type AnyEntity } from '@campus/entities/define';
import { entity } from '@campus/entities/registry';
import ExcelJS from 'exceljs';
import { createHash } from 'node:crypto';
import type { RequestContext } from '../access/request-context';
import type { Db } from '../db/client';
import { refreshStatistics } from '../db/statistics';
import { badRequest, HttpError } from '../lib/http-error';
import { insertableInBulk, insertMany } from './bulk-insert';
import { insertValidated, options, withDbErrors } from './crud.service';
import type { Row } from './entity-hooks';

/** A whole school's roll fits in one file; past this a file is refused before anything is read into the database. */
export const MAX_IMPORT_ROWS = 50_000;
/** Errors listed in one answer; past this a clerk fixes what is listed and checks again. */
export const MAX_IMPORT_ERRORS = 500;

export interface ImportError {
  row: number;
  field: string;
  message: string;
}

export interface ImportResult {
  ok: boolean;
  total: number;
  imported: number;
  errors: ImportError[];
}

/** Minimal RFC 4180 reader: quoted fields, doubled quotes, CRLF. */
export function parseCsv(text: string): string[][] {
  const out: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const src = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < src.length; i++) {
    const ch = src[i];
    if (quoted) {
      if (ch === '"' && src[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"' && cell === '') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && src[i + 1] === '\n') i++;
      row.push(cell);
      out.push(row);
      row = [];
      cell = '';
    } else cell += ch;
  }
  if (cell !== '' || row.length) {
    row.push(cell);
    out.push(row);
  }
  return out.filter((r) => r.some((c) => c.trim() !== ''));
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

async function readSheet(fileName: string, buf: Buffer): Promise<string[][]> {
  const lower = fileName.toLowerCase();
  if (lower.endsWith('.csv')) return parseCsv(buf.toString('utf8'));
  if (!lower.endsWith('.xlsx')) throw badRequest('Only .xlsx and .csv files can be imported.');
  // .xlsx is a zip: check the signature rather than trusting the name.
  if (buf.subarray(0, 4).toString('hex') !== '504b0304') throw badRequest('The file is not a valid .xlsx workbook.');
  const wb = new ExcelJS.Workbook();
  try {
    await wb.xlsx.load(buf as unknown as ArrayBuffer);
  } catch {
    throw badRequest('The file is not a valid .xlsx workbook.');
  }
  const ws = wb.worksheets[0];
  if (!ws) return [];
  const out: string[][] = [];
  // Read once: columnCount walks every row, so asking it per row made a 12,000-row file take two minutes.
  const width = ws.columnCount;
  ws.eachRow({ includeEmpty: false }, (r) => {
    const cells: string[] = [];
    for (let c = 1; c <= width; c++) cells.push(cellText(r.getCell(c).value).trim());
    out.push(cells);
  });
  return out;
}

/**
 * Reads a sheet whose header row names fields (by name or label), validates every row as a create would,
 * then tries every row against the database. Every problem is reported in one pass; nothing is written
 * unless this is not a dry run and no row has any problem (all or nothing).
 */
export async function importRows(db: Db, e: AnyEntity, ctx: RequestContext, fileName: string, buf: Buffer, dryRun: boolean): Promise<ImportResult> {
  const sheet = await readSheet(fileName, buf);
  if (sheet.length < 2) throw badRequest('The file has no rows under its header row.');
  if (sheet.length - 1 > MAX_IMPORT_ROWS) throw badRequest(`At most ${MAX_IMPORT_ROWS} rows can be imported at once.`);
  const fields = writableFields(e);
  const header = sheet[0].map((h) => h.trim().toLowerCase());
  const colOf = new Map<string, number>();
  header.forEach((h, i) => {
    const hit = fields.find(([name, f]) => name.toLowerCase() === h || f.label.toLowerCase() === h);
    if (hit) colOf.set(hit[0], i);
  });
  if (colOf.size === 0) throw badRequest(`No column matches a ${e.label} field. Use the template's header row.`);

  const errors: ImportError[] = [];
  const valid: { line: number; row: Row }[] = [];
  const linkCache = new Map<string, number | null>();
  const schema = bodySchema(e, 'create');
  for (let i = 1; i < sheet.length; i++) {
    const line = i + 1;
    const raw: Row = {};
    // Fields already reported for this row (a link name not found), so the schema does not add a second
    // "Please select" for the same cell.
    const reported = new Set<string>();
    for (const [name, f] of fields) {
      const c = colOf.get(name);
      if (c === undefined) continue;
      const text = (sheet[i][c] ?? '').trim();
      if (text === '') continue;
      if (f.kind === 'bool') raw[name] = /^(yes|true|1|y)$/i.test(text);
      else if (f.kind === 'link') {
        // A link cell may hold the code or the name shown in the grid (e.g. the role name).
        if (/^\d+$/.test(text)) raw[name] = Number(text);
        else {
          // A section named 'A' is looked up among the sections of the row's class ('VI - A' names it
          // without one), the way the form's dependent dropdown offers it.
          const within: Record<string, unknown[]> = {};
          for (const [theirs, own] of Object.entries(f.within ?? {})) if (typeof raw[own] === 'number') within[theirs] = [raw[own]];
          const key = `${f.to}:${JSON.stringify(within)}:${text.toLowerCase()}`;
          if (!linkCache.has(key)) {
            const hits = await options(db, entity(f.to), ctx, { q: text, ids: [], within });
            const exact = hits.find((h) => h.label.toLowerCase() === text.toLowerCase());
            linkCache.set(key, exact?.value ?? null);
          }
          const v = linkCache.get(key);
          if (v === null || v === undefined) {
            errors.push({ row: line, field: name, message: `'${f.label}' '${text}' was not found.` });
            reported.add(name);
            continue;
          }
          raw[name] = v;
        }
      } else raw[name] = text;
    }
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      for (const iss of parsed.error.issues) {
        const field = String(iss.path[0] ?? '');
        if (!reported.has(field)) errors.push({ row: line, field, message: iss.message });
      }
      continue;
    }
    valid.push({ line, row: parsed.data });
  }
  // Duplicates inside the file itself, for the declared unique fields.
  for (const [name, f] of fields) {
    if (!f.unique) continue;
    const seen = new Map<string, number>();
    for (const v of valid) {
      const val = v.row[name];
      if (val === null || val === undefined || val === '') continue;
      const k = String(val).toLowerCase();
      const first = seen.get(k);
      if (first) errors.push({ row: v.line, field: name, message: `${f.label} '${String(val)}' repeats row ${first}.` });
      else seen.set(k, v.line);
    }
  }
  const total = sheet.length - 1;
  // Rows already known to be wrong are not tried: their database error would only repeat the first one
  // (a row repeating an earlier row of the file would also clash with that row's trial insert).
  const wrong = new Set(errors.map((er) => er.row));
  const keep = !dryRun && errors.length === 0;
  const candidates = valid.filter((v) => !wrong.has(v.line));
  const file = { name: fileName, sha256: createHash('sha256').update(buf).digest('hex') };
  errors.push(...(insertableInBulk(e, candidates) ? await insertAll(db, e, ctx, candidates, keep, file) : await insertEach(db, e, ctx, candidates, keep)));
  if (errors.length) return { ok: false, total, imported: 0, errors: capped(errors.sort((a, b) => a.row - b.row)) };
  // A large file can change a table's size tenfold: the next lists are planned on the new size.
  if (keep && valid.length >= 500) await refreshStatistics(db);
  return { ok: true, total, imported: keep ? valid.length : 0, errors: [] };
}

/** Lists the first MAX_IMPORT_ERRORS errors, and says how many more there are at the row where they start. */
function capped(errors: ImportError[]): ImportError[] {
  if (errors.length <= MAX_IMPORT_ERRORS) return errors;
  const rest = errors.length - MAX_IMPORT_ERRORS;
  const next = errors[MAX_IMPORT_ERRORS];
  return [
    ...errors.slice(0, MAX_IMPORT_ERRORS),
    { row: next.row, field: '', message: `${rest} more ${rest === 1 ? 'problem was' : 'problems were'} found from this row on. Fix the ones listed and check the file again.` },
  ];
}

class Rollback extends Error {}

/**
 * The fast path: every row checked as a set and written by multi-row INSERTs in one transaction, rolled back
 * unless keep is set and nothing was refused. Should the database itself refuse the INSERT (another clerk
 * saved the same admission number a moment ago), the row-by-row path runs instead to name the row.
 */
async function insertAll(
  db: Db,
  e: AnyEntity,
  ctx: RequestContext,
  rows: { line: number; row: Row }[],
  keep: boolean,
  file: { name: string; sha256: string },
): Promise<ImportError[]> {
  let problems: ImportError[] = [];
  try {
    await db.transaction(async (tx) => {
      problems = (await insertMany(tx, e, ctx, rows, file, keep)).problems;
      if (!keep || problems.length) throw new Rollback();
    });
  } catch (err) {
    if (err instanceof Rollback) return problems;
    if (!(err instanceof HttpError)) throw err;
    return insertEach(db, e, ctx, rows, keep);
  }
  return problems;
}

/**
 * Inserts the rows in one transaction, each inside its own savepoint, so that a row refused by the database
 * (duplicate of a stored row, unknown link, a hook's rule) is rolled back alone and the remaining rows are
 * still checked: one pass reports every such row. The whole transaction is rolled back unless keep is set
 * and every row went in, so a dry run or a file with any bad row writes nothing.
 */
async function insertEach(db: Db, e: AnyEntity, ctx: RequestContext, rows: { line: number; row: Row }[], keep: boolean): Promise<ImportError[]> {
  const errors: ImportError[] = [];
  try {
    await withDbErrors(() =>
      db.transaction(async (tx) => {
        for (const v of rows) {
          try {
            // A nested drizzle transaction is a SAVEPOINT: a failure rolls back to it and leaves tx usable,
            // even after a constraint violation that would otherwise abort the whole transaction.
            await withDbErrors(() => tx.transaction((sp) => insertValidated(sp, e, ctx, v.row)));
          } catch (err) {
            if (!(err instanceof HttpError)) throw err;
            errors.push({ row: v.line, field: err.details?.[0]?.field ?? '', message: err.message });
          }
        }
        if (!keep || errors.length) throw new Rollback();
      }),
    );
  } catch (err) {
    if (!(err instanceof Rollback)) throw err;
  }
  return errors;
}
