import { bodySchema, writableFields, type AnyEntity } from '@campus/entities/define';
import { entity } from '@campus/entities/registry';
import type { RequestContext } from '../access/request-context';
import type { Db } from '../db/client';
import { refreshStatistics } from '../db/statistics';
import { badRequest, HttpError } from '../lib/http-error';
import { insertableInBulk, insertMany } from './bulk-insert';
import { insertValidated, options, withDbErrors } from './crud.service';
import type { Row } from './entity-hooks';
import { readSheetStream } from './sheet-reader';

/** A whole school's roll fits in one file; past this a file is refused as soon as the row past it is read. */
export const MAX_IMPORT_ROWS = 50_000;
/**
 * Bytes of one upload at most, in keeping with the row limit: at some 300 bytes a row, 50,000 students with
 * every column of the template filled make about 15 MB of CSV (bench:import's 50,000-row .xlsx is 1.9 MB).
 */
export const MAX_IMPORT_BYTES = 25 * 1024 * 1024;
export const TOO_MANY_ROWS = `At most ${MAX_IMPORT_ROWS} rows can be imported at once.`;
export const TOO_LARGE = `The file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB. At most ${MAX_IMPORT_ROWS} rows can be imported at once.`;
/** Errors listed in one answer; past this a clerk fixes what is listed and checks again. */
export const MAX_IMPORT_ERRORS = 500;

export interface ImportError {
  row: number;
  field: string;
  message: string;
}

/**
 * Where an import is: reading rows (their number so far, the total unknown until the end), checking them,
 * writing them. Heard every thousand rows or so, and at each phase's end.
 */
export interface ImportProgress {
  phase: 'read' | 'check' | 'write';
  done: number;
  total?: number;
}

export type OnImportProgress = (p: ImportProgress) => void;

/** The uploaded file: its name and its bytes as they arrive (a Buffer is one piece). */
export interface ImportFile {
  name: string;
  data: Buffer | AsyncIterable<Buffer>;
}

export interface ImportResult {
  ok: boolean;
  total: number;
  imported: number;
  errors: ImportError[];
}

/**
 * Reads a sheet whose header row names fields (by name or label), validates every row as a create would,
 * then tries every row against the database. Every problem is reported in one pass; nothing is written
 * unless this is not a dry run and no row has any problem (all or nothing).
 */
export async function importRows(db: Db, e: AnyEntity, ctx: RequestContext, upload: ImportFile, dryRun: boolean, onProgress?: OnImportProgress): Promise<ImportResult> {
  const fileName = upload.name;
  const source = Buffer.isBuffer(upload.data) ? [upload.data] : upload.data;
  const fields = writableFields(e);
  const colOf = new Map<string, number>();
  // The header row is looked at as soon as it is read: a file of another table is refused before its rows.
  const header = (row: string[]): void => {
    row.forEach((cell, i) => {
      const h = cell.trim().toLowerCase();
      const hit = fields.find(([name, f]) => name.toLowerCase() === h || f.label.toLowerCase() === h);
      if (hit) colOf.set(hit[0], i);
    });
    if (colOf.size === 0) throw badRequest(`No column matches a ${e.label} field. Use the template's header row.`);
  };
  const read = await readSheetStream(fileName, source, { maxRows: MAX_IMPORT_ROWS, tooManyRows: TOO_MANY_ROWS, header }, (n) => onProgress?.({ phase: 'read', done: n }));
  const sheet = read.rows;
  if (sheet.length < 2) throw badRequest('The file has no rows under its header row.');

  const errors: ImportError[] = [];
  const valid: { line: number; row: Row }[] = [];
  const linkCache = new Map<string, number | null>();
  const schema = bodySchema(e, 'create');
  const total = sheet.length - 1;
  for (let i = 1; i < sheet.length; i++) {
    if (onProgress && i > 1 && (i - 1) % 1000 === 0) {
      onProgress({ phase: 'check', done: i - 1, total });
      // Lets the line go out now: with every lookup cached this loop would not give the event loop a turn.
      await new Promise((resolve) => setImmediate(resolve));
    }
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
  onProgress?.({ phase: 'check', done: total, total });
  // Rows already known to be wrong are not tried: their database error would only repeat the first one
  // (a row repeating an earlier row of the file would also clash with that row's trial insert).
  const wrong = new Set(errors.map((er) => er.row));
  const keep = !dryRun && errors.length === 0;
  const candidates = valid.filter((v) => !wrong.has(v.line));
  const file = { name: fileName, sha256: read.sha256 };
  // Saving is reported only when the rows are really being written (not on a check, nor on a file with errors).
  const written = keep ? (n: number) => onProgress?.({ phase: 'write', done: n, total }) : undefined;
  errors.push(...(insertableInBulk(e, candidates) ? await insertAll(db, e, ctx, candidates, keep, file, written) : await insertEach(db, e, ctx, candidates, keep, written)));
  if (errors.length) return { ok: false, total, imported: 0, errors: capped(errors.sort((a, b) => a.row - b.row)) };
  // A large file can change a table's size tenfold: the next lists are planned on the new size (the tables
  // that the database's own triggers fill analyze themselves when a statement doubles them).
  if (keep && valid.length >= 500) await refreshStatistics(db, [e.table]);
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
  written?: (n: number) => void,
): Promise<ImportError[]> {
  let problems: ImportError[] = [];
  try {
    await db.transaction(async (tx) => {
      problems = (await insertMany(tx, e, ctx, rows, file, keep, written)).problems;
      if (!keep || problems.length) throw new Rollback();
    });
  } catch (err) {
    if (err instanceof Rollback) return problems;
    if (!(err instanceof HttpError)) throw err;
    return insertEach(db, e, ctx, rows, keep, written);
  }
  return problems;
}

/**
 * Inserts the rows in one transaction, each inside its own savepoint, so that a row refused by the database
 * (duplicate of a stored row, unknown link, a hook's rule) is rolled back alone and the remaining rows are
 * still checked: one pass reports every such row. The whole transaction is rolled back unless keep is set
 * and every row went in, so a dry run or a file with any bad row writes nothing.
 */
async function insertEach(db: Db, e: AnyEntity, ctx: RequestContext, rows: { line: number; row: Row }[], keep: boolean, written?: (n: number) => void): Promise<ImportError[]> {
  const errors: ImportError[] = [];
  try {
    await withDbErrors(() =>
      db.transaction(async (tx) => {
        for (const [i, v] of rows.entries()) {
          if (written && i > 0 && i % 200 === 0) written(i);
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
