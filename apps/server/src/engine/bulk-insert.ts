import { uniqueTogetherFoldsCase, type AnyEntity } from '@campus/entities/define';
import { and, inArray, sql, type SQL } from 'drizzle-orm';
import type { RequestContext } from '../access/request-context';
import type { Tx } from '../db/client';
import { dyn, type DynTable } from '../db/dyn-table';
import { insertJsonRows } from '../db/json-insert';
import { entityTable } from '../db/tables';
import { HttpError } from '../lib/http-error';
import { writeAudit } from './audit';
import { checkFieldButtons, checkRanges, fillAuto, notOwnedMessage, scopeOf, scopeValues, targetScope, withDbErrors } from './crud.service';
import { hooksOf, type Row } from './entity-hooks';
import { isUploadField } from './file-claims';
import { scopeWhere } from './list-query';

/**
 * Many validated rows of one entity written at once: the same checks as insertValidated (field buttons,
 * ranges, links in scope, declared uniques, links within their partner, ownership under data_chk), each run
 * once over all rows as a set instead of once per row, then multi-row INSERTs. A 10,000-student file is a
 * few dozen statements instead of ninety thousand.
 */

export interface BulkRow {
  /** The row's line in the file, named in its problem. */
  line: number;
  row: Row;
}

export interface RowProblem {
  row: number;
  field: string;
  message: string;
}

export interface BulkOutcome {
  problems: RowProblem[];
  keys: number[];
}

/** PostgreSQL takes at most 65,535 parameters per statement; a chunk stays well below. */
const PARAMS_PER_STATEMENT = 30_000;
/** Rows sent as one JSON parameter per INSERT: large enough to be few statements, small enough to stream. */
const ROWS_PER_STATEMENT = 5_000;

/**
 * Whether rows of `e` can go in as a set: only the engine's own checks apply. Hooks (a fee's, an employee's)
 * and passwords or uploads are per row by nature, so those entities keep the row-by-row path.
 */
export function insertableInBulk(e: AnyEntity, rows: readonly BulkRow[]): boolean {
  if (hooksOf(e.name).length > 0) return false;
  const fields = Object.entries(e.fields);
  if (fields.some(([, f]) => f.kind === 'password')) return false;
  return !rows.some((r) => fields.some(([n, f]) => isUploadField(f) && r.row[n] !== undefined));
}

const present = (v: unknown): boolean => v !== null && v !== undefined && v !== '';

function chunks<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/**
 * Checks every row, then inserts those that passed when none failed. Each row reports its first problem, as
 * the row-by-row path does. A database refusal of the INSERT itself (a concurrent writer took a unique name
 * meanwhile) is thrown as that path's HttpError; the caller then finds the row through the slow path.
 */
export async function insertMany(
  tx: Tx,
  e: AnyEntity,
  ctx: RequestContext,
  input: readonly BulkRow[],
  file: { name: string; sha256: string },
  write: boolean,
  /** Hears the number of rows written so far, after each INSERT (for the import's progress). */
  written?: (n: number) => void,
): Promise<BulkOutcome> {
  const scope = scopeValues(e, ctx);
  const problems = new Map<number, RowProblem>();
  const fail = (line: number, field: string, message: string): void => {
    if (!problems.has(line)) problems.set(line, { row: line, field, message });
  };
  const prepared: { line: number; values: Row }[] = [];
  for (const { line, row } of input) {
    const values: Row = { ...row };
    for (const [name, f] of Object.entries(e.fields)) {
      if (f.readOnly && (f.kind === 'select' || f.kind === 'bool') && f.defaultValue !== undefined && values[name] === undefined) values[name] = f.defaultValue;
    }
    try {
      checkFieldButtons(e, ctx, values, null);
      checkRanges(e, values);
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      fail(line, err.details?.[0]?.field ?? '', err.message);
      continue;
    }
    await fillAuto(e, ctx, values);
    prepared.push({ line, values });
  }
  const live = (): { line: number; values: Row }[] => prepared.filter((p) => !problems.has(p.line));

  // Links: each distinct target once, in the scope its dropdown offers.
  for (const [name, f] of Object.entries(e.fields)) {
    if (f.kind !== 'link') continue;
    const ids = [...new Set(live().map((p) => p.values[name]).filter(present).map(Number))];
    if (ids.length === 0) continue;
    const te = entityTable(f.to);
    const t = dyn(te.table);
    const found = new Set<number>();
    for (const part of chunks(ids, PARAMS_PER_STATEMENT)) {
      const hits = await tx.select({ k: t[te.entity.key] }).from(t).where(and(inArray(t[te.entity.key], part), targetScope(f, e, te.entity, t, ctx)));
      for (const h of hits) found.add(Number(h.k));
    }
    for (const p of live()) if (present(p.values[name]) && !found.has(Number(p.values[name]))) fail(p.line, name, `'${f.label}' is not a valid choice.`);
  }

  await checkUniqueAll(tx, e, ctx, live(), fail);
  await checkWithinAll(tx, e, live(), fail);

  // A dry run stops here: every check a write makes has been made, and trial rows rolled back would only
  // leave dead entries in the indexes for the real run to step over (PGlite has no autovacuum to clear them).
  if (problems.size > 0 || !write) return { problems: [...problems.values()], keys: [] };

  const t = dyn(entityTable(e.name).table);
  const keyed: { line: number; key: number }[] = [];
  // Rows that name the same columns go in together, so a column a row leaves out keeps its database default.
  const groups = new Map<string, { line: number; values: Row }[]>();
  for (const p of prepared) {
    const values: Row = { ...p.values, ...scope, crt_by: ctx.user.usr_cd };
    const names = Object.keys(values).filter((n) => values[n] !== undefined).sort().join(',');
    // Appended in place: copying the group for every row made 50,000 rows ~1.25 billion copies (70 s).
    const group = groups.get(names);
    if (group) group.push({ line: p.line, values });
    else groups.set(names, [{ line: p.line, values }]);
  }
  for (const [names, group] of groups) {
    for (const part of chunks(group, ROWS_PER_STATEMENT)) {
      const back = await withDbErrors(() => insertJsonRows<Row>(tx, e.table, names.split(','), part.map((p) => p.values), [e.key]));
      back.forEach((r, i) => keyed.push({ line: part[i].line, key: Number(r[e.key]) }));
      written?.(keyed.length);
    }
  }

  // Under 'his students only', every row as written must still be the user's (a student in his own section).
  if (ctx.dataChk && typeof e.ownership === 'object') {
    const seen = new Set<number>();
    for (const part of chunks(keyed.map((k) => k.key), PARAMS_PER_STATEMENT)) {
      const hits = await tx.select({ k: t[e.key] }).from(t).where(and(inArray(t[e.key], part), scopeWhere(e, t, ctx)));
      for (const h of hits) seen.add(Number(h.k));
    }
    const message = notOwnedMessage(e);
    const refused = keyed.filter((k) => !seen.has(k.key)).map((k) => ({ row: k.line, field: '', message }));
    if (refused.length) return { problems: refused, keys: [] };
  }

  const keys = keyed.map((k) => k.key);
  // One history row for the file, naming it and every key it wrote, instead of one per row.
  await writeAudit(tx, ctx, e, 'IMPORT', null, null, { file: file.name, sha256: file.sha256, rows: keys.length, keys: keyRanges(keys) });
  return { problems: [], keys };
}

/** [[first, last], ...] runs of consecutive keys: a serial key makes one run per file. */
export function keyRanges(keys: readonly number[]): [number, number][] {
  const sorted = [...keys].sort((a, b) => a - b);
  const out: [number, number][] = [];
  for (const k of sorted) {
    const last = out[out.length - 1];
    if (last && k === last[1] + 1) last[1] = k;
    else out.push([k, k]);
  }
  return out;
}

type Fail = (line: number, field: string, message: string) => void;

/** The declared unique fields and unique-together sets against the stored rows, as checkUnique words it. */
async function checkUniqueAll(tx: Tx, e: AnyEntity, ctx: RequestContext, rows: { line: number; values: Row }[], fail: Fail): Promise<void> {
  const t = dyn(entityTable(e.name).table);
  for (const [name, f] of Object.entries(e.fields)) {
    if (!f.unique) continue;
    const folds = f.kind === 'text';
    const norm = (v: unknown): string => (folds ? String(v).toLowerCase() : String(v));
    const withValue = rows.filter((p) => present(p.values[name]));
    const values = [...new Set(withValue.map((p) => (folds ? norm(p.values[name]) : p.values[name])))];
    if (values.length === 0) continue;
    const col: SQL = folds ? sql`lower(${t[name]})` : sql`${t[name]}`;
    const taken = new Set<string>();
    for (const part of chunks(values, PARAMS_PER_STATEMENT)) {
      const hits = await tx
        .select({ v: col.mapWith(String) })
        .from(t)
        .where(and(inArray(col, part), scopeOf(e, t, ctx, f.unique === 'global')));
      for (const h of hits) taken.add(norm(h.v));
    }
    for (const p of withValue) if (taken.has(norm(p.values[name]))) fail(p.line, name, `${f.label} '${String(p.values[name])}' already exists.`);
  }
  for (const u of e.uniqueTogether ?? []) {
    const complete = rows.filter((p) => u.fields.every((n) => p.values[n] !== null && p.values[n] !== undefined));
    if (complete.length === 0) continue;
    const tuple = (r: Row): string => JSON.stringify(u.fields.map((n) => (uniqueTogetherFoldsCase(e, n) ? String(r[n]).toLowerCase() : String(r[n]))));
    const [first] = u.fields;
    const firsts = [...new Set(complete.map((p) => p.values[first]))];
    const stored = new Set<string>();
    const cols = Object.fromEntries(u.fields.map((n) => [n, t[n]]));
    for (const part of chunks(firsts, PARAMS_PER_STATEMENT)) {
      const firstCond = uniqueTogetherFoldsCase(e, first)
        ? inArray(sql`lower(${t[first]})`, part.map((v) => String(v).toLowerCase()))
        : inArray(t[first], part);
      for (const r of await tx.select(cols).from(t).where(and(firstCond, scopeOf(e, t, ctx, false)))) stored.add(tuple(r));
    }
    for (const p of complete) if (stored.has(tuple(p.values))) fail(p.line, '', u.message);
  }
}

/** A link's target must agree with the row on its `within` partner (a section of the chosen class). */
async function checkWithinAll(tx: Tx, e: AnyEntity, rows: { line: number; values: Row }[], fail: Fail): Promise<void> {
  for (const [name, f] of Object.entries(e.fields)) {
    if (f.kind !== 'link' || !f.within) continue;
    const pairs = Object.entries(f.within);
    const checked = rows.filter((p) => present(p.values[name]) && pairs.every(([, own]) => p.values[own] !== null && p.values[own] !== undefined));
    const ids = [...new Set(checked.map((p) => Number(p.values[name])))];
    if (ids.length === 0) continue;
    const te = entityTable(f.to);
    const t: DynTable = dyn(te.table);
    const targets = new Map<number, Row>();
    for (const part of chunks(ids, PARAMS_PER_STATEMENT)) {
      for (const r of await tx.select().from(t).where(inArray(t[te.entity.key], part))) targets.set(Number(r[te.entity.key]), r);
    }
    const ownLabelOf = (own: string): string => (e.fields[own]?.label ?? own).toLowerCase();
    for (const p of checked) {
      const target = targets.get(Number(p.values[name]));
      const off = target && pairs.find(([theirs, own]) => Number(target[theirs]) !== Number(p.values[own]));
      if (!target || !off) continue;
      fail(p.line, name, `${f.label} '${String(target[f.display])}' is not a ${f.label.toLowerCase()} of the chosen ${ownLabelOf(off[1])}.`);
    }
  }
}
