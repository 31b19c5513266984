import { bodySchema, createdValue, fieldButtons, isView, rangeIssues, readBackColumns, uniqueTogetherFoldsCase, type AnyEntity, type Field } from '@campus/entities/define';
import { entities } from '@campus/entities/registry';
import { hash } from '@node-rs/argon2';
import { and, count, eq, inArray, ne, or, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { requireButton, type RequestContext } from '../access/request-context';
import { genericPlanDb, namesStatements, statementName, type Db, type DbOrTx, type Tx } from '../db/client';
import { dyn, type DynTable } from '../db/dyn-table';
import { entityTable } from '../db/tables';
import { localDateTime } from '../lib/clock';
import { badRequest, conflict, forbidden, HttpError, notFound } from '../lib/http-error';
import { writeAudit } from './audit';
import { definitionWhere } from './entity-query';
import { hooksOf, type Row } from './entity-hooks';
import { claimUploads, takeUploads } from './file-claims';
import { EXACT_COUNT_LIMIT, filterWhere, orderBy, plannedOnce, scopeWhere, searchWhere, selectionFor, sortLink, type ListParams, type ScopeBinding, type Selection } from './list-query';

export const STALE_MESSAGE = 'This record was changed by someone else meanwhile. Reload it and try again.';

function selectRows(db: DbOrTx, e: AnyEntity, s: Selection = selectionFor(e)) {
  let q = db.select(s.columns).from(s.table).$dynamic();
  for (const j of s.joins) q = q.leftJoin(j.table, j.on);
  return { q, s };
}

export interface ListAnswer {
  rows: Row[];
  /** Matching rows; a lower bound when total_exact is false (the grid shows '10,000+'). */
  total: number;
  total_exact: boolean;
}

/** Placeholders of a list statement prepared once per shape: filled from each request when it runs. */
export interface ListBinding extends ScopeBinding {
  size: Placeholder;
  offset: Placeholder;
  countLimit: Placeholder;
}

/** Rows before the page, and the count past which the total says 'at least'. */
function listWindow(p: Pick<ListParams, 'page' | 'size'>): { offset: number; countCap: number } {
  const offset = (p.page - 1) * p.size;
  return { offset, countCap: offset + EXACT_COUNT_LIMIT };
}

/**
 * The statements of one list request, built but not run (a test EXPLAINs them): the page, and a count that
 * stops after `countCap` rows. The page joins only the links it shows or sorts by. Past the first page, or
 * sorted by a link (every row of the institute is sorted then), it first picks the page's keys from the
 * row's own table (through the sort index), joined to the sorted link alone, and joins the other links to
 * those rows only, instead of to every row before the offset or every row sorted (sorted by section, 10,123
 * students: 34 ms with all five links joined before the sort, 4.4 ms keys first). With `bound`, the scope,
 * page size, offset and count limit are placeholders (a statement prepared for every request of its shape).
 */
export function listQueries(db: Db, e: AnyEntity, ctx: RequestContext, p: ListParams, bound?: ListBinding) {
  const link = sortLink(e, p.sort);
  const s = selectionFor(e, p.cols, link);
  const t = s.table;
  const where = and(
    scopeWhere(e, t, ctx, bound),
    searchWhere(e, s, p.q, ctx),
    filterWhere(e, s, p.filters),
    p.rule ? definitionWhere(e, s, p.rule) : undefined,
    p.creator !== undefined ? eq(t.crt_by, p.creator) : undefined,
  );
  const order = orderBy(e, s, p);
  const { offset, countCap } = listWindow(p);
  const { q } = selectRows(db, e, s);
  const keysFirst = s.joins.length > (link ? 1 : 0) && (offset > 0 || link !== undefined);
  let keys = db.select({ k: t[e.key] }).from(t).$dynamic();
  // The inner select reuses the link's alias: inside the sub-select it names the inner join, outside the outer one.
  if (link) keys = keys.leftJoin(s.linkJoins[link].table, s.linkJoins[link].on);
  const size = bound?.size ?? p.size;
  const skip = bound?.offset ?? offset;
  const page = keysFirst
    ? q
        // '= any(array(...))', not 'in (...)': the planner then expects a handful of keys and looks each one up
        // by the primary key, even in a generic plan that cannot see the LIMIT (with 'in' such a plan may hash
        // the whole table against the keys: 75 ms for page 100 at 200,000 students).
        .where(sql`${t[e.key]} = any(array(${keys.where(where).orderBy(...order).limit(size).offset(skip)}))`)
        .orderBy(...order)
    : q
        .where(where)
        .orderBy(...order)
        .limit(size)
        .offset(skip);
  // The count never needs a join: search and filters read the row's own columns (links through sub-selects).
  const capped = db.select({ one: sql<number>`1`.as('one') }).from(t).where(where).limit(bound?.countLimit ?? countCap + 1).as('capped');
  const counted = db.select({ n: count() }).from(capped);
  return { page, count: counted, countCap, offset };
}

type BuiltList = ReturnType<typeof listQueries>;
interface PreparedList {
  page: ReturnType<BuiltList['page']['prepare']>;
  count: ReturnType<BuiltList['count']['prepare']>;
}

/** Prepared list statements, by database handle and shape. */
const preparedLists = new WeakMap<Db, Map<string, PreparedList>>();
/**
 * Shapes come from the request (cols, sort): past this many per handle, new ones are built each time. Each
 * shape is two statements that every connection of the handle keeps once it has run them.
 */
const MAX_PREPARED_LISTS = 100;

/**
 * A list of the scope alone (no search, filter, rule or data_chk: plannedOnce), prepared once per shape:
 * building and compiling the page and its count through the query builder cost 0.4-0.7 ms of CPU per request
 * (bench/scale's profile), more than PostgreSQL spends running the page. The shape is everything the SQL
 * text depends on (entity, shown columns, sort and direction, first page or not); the institute, year, page
 * size and offset are placeholders, bound from each request's own context. Undefined for other lists, and
 * for scopes whose text depends on the request (the user's institutes, no year at all).
 */
function preparedList(db: Db, e: AnyEntity, ctx: RequestContext, p: ListParams): PreparedList | undefined {
  if (!plannedOnce(p, ctx) || e.scope === 'institute-root' || (e.scope === 'academic-year' && ctx.acdmCd === null)) return undefined;
  const key = [e.name, p.cols?.join(',') ?? '*', p.sort ?? '', p.dir ?? '', p.page > 1 ? 'next' : 'first'].join('|');
  let byShape = preparedLists.get(db);
  const known = byShape?.get(key);
  if (known) return known;
  if (!byShape) preparedLists.set(db, (byShape = new Map()));
  if (byShape.size >= MAX_PREPARED_LISTS) return undefined;
  const bound: ListBinding = {
    inst: sql.placeholder('inst'),
    acdm: sql.placeholder('acdm'),
    size: sql.placeholder('size'),
    offset: sql.placeholder('offset'),
    countLimit: sql.placeholder('countLimit'),
  };
  const built = listQueries(db, e, ctx, p, bound);
  // Named where the connections keep named statements; otherwise unnamed (parsed at each run, compiled once here).
  const named = namesStatements(db);
  const prepared: PreparedList = {
    page: built.page.prepare(named ? statementName(built.page.toSQL().sql) : ''),
    count: built.count.prepare(named ? statementName(built.count.toSQL().sql) : ''),
  };
  byShape.set(key, prepared);
  return prepared;
}

export async function listRows(db: Db, e: AnyEntity, ctx: RequestContext, p: ListParams): Promise<ListAnswer> {
  const planned = plannedOnce(p, ctx) ? genericPlanDb(db) : db;
  const { offset, countCap } = listWindow(p);
  const prepared = preparedList(planned, e, ctx, p);
  const values = { inst: ctx.instCd, acdm: ctx.acdmCd, size: p.size, offset, countLimit: countCap + 1 };
  const built = prepared ? undefined : listQueries(planned, e, ctx, p);
  const rows: Row[] = await (built ? built.page : prepared!.page.execute(values));
  // A page that is not full ends the list: its total needs no count (most searches end on their first page).
  if (rows.length < p.size && (rows.length > 0 || p.page === 1)) return { rows, total: offset + rows.length, total_exact: true };
  const [{ n }] = await (built ? built.count : prepared!.count.execute(values));
  const total = Number(n);
  return total > countCap ? { rows, total: countCap, total_exact: false } : { rows, total, total_exact: true };
}

export async function getRow(db: DbOrTx, e: AnyEntity, ctx: RequestContext, id: number, forUpdate = false): Promise<Row> {
  const { q, s } = selectRows(db, e);
  const base = q.where(and(eq(s.table[e.key], id), scopeWhere(e, s.table, ctx)));
  const [row] = forUpdate ? await base.for('update', { of: s.table }) : await base;
  if (!row) throw notFound(`${e.label} ${id} was not found.`);
  return row;
}

/**
 * Fields of `e` that some link names as its `within` partner (a section's cls_cd): the only names the
 * options route filters by, so no other request key ever reaches the SQL.
 */
export function withinPartners(e: AnyEntity): string[] {
  const out = new Set<string>();
  for (const o of entities) {
    for (const f of Object.values(o.fields)) {
      if (f.kind === 'link' && f.to === e.name && f.within) for (const theirs of Object.keys(f.within)) if (Object.hasOwn(e.fields, theirs)) out.add(theirs);
    }
  }
  return [...out];
}

export interface OptionsQuery {
  q?: string;
  ids: number[];
  /** Chosen partner values per within partner (already allowlisted): only rows matching one of them. */
  within: Record<string, unknown[]>;
}

export async function options(db: Db, e: AnyEntity, ctx: RequestContext, p: OptionsQuery): Promise<{ value: number; label: string }[]> {
  const s = selectionFor(e);
  const t = s.table;
  // 'His students only' narrows the dropdowns too: a name list is still the data it protects.
  const conds: (SQL | undefined)[] = [scopeWhere(e, t, ctx)];
  for (const [name, values] of Object.entries(p.within)) conds.push(values.length ? inArray(t[name], values) : sql`false`);
  // Partners not chosen: the row's own name is not enough ('A' of ten classes), so each option carries its
  // parents' names too ('VI - A'), in the parents' own order (class order, not 'IX' before 'V').
  const parents = withinPartners(e).filter((n) => !(n in p.within));
  const parentCols: SQL[] = [];
  const parentOrder: SQL[] = [];
  const joins: { table: DynTable; on: SQL }[] = [];
  for (const n of parents) {
    const f = e.fields[n];
    if (f.kind !== 'link') {
      parentCols.push(sql`${t[n]}::text`);
      parentOrder.push(sql`${t[n]}`);
      continue;
    }
    const target = entityTable(f.to);
    const a = alias(dyn(target.table), `opt_${n}`);
    joins.push({ table: a, on: eq(t[n], a[target.entity.key]) });
    parentCols.push(sql`${a[f.display]}::text`);
    const sortBy = target.entity.defaultSort?.field;
    if (sortBy) parentOrder.push(sql`${a[sortBy]}`);
    parentOrder.push(sql`${a[f.display]}`);
  }
  // Two rows may share a name (two children called Amit Bafna): such options also show the row's own
  // unique text (the admission number), the one thing that tells them apart.
  const tell = Object.entries(e.fields).find(([n, f]) => n !== e.title && f.kind === 'text' && f.unique)?.[0];
  let query = db
    .select({
      value: t[e.key],
      label: t[e.title],
      parents: parentCols.length ? sql<string>`concat_ws(' - ', ${sql.join(parentCols, sql`, `)})` : sql<string>`''`,
      tell: tell ? sql<string | null>`${t[tell]}::text` : sql<string | null>`null`,
    })
    .from(t)
    .$dynamic();
  for (const j of joins) query = query.leftJoin(j.table, j.on);
  const escape = (v: string): string => v.replace(/[\\%_]/g, (c) => `\\${c}`);
  if (p.ids.length) conds.push(inArray(t[e.key], p.ids));
  else if (p.q) {
    const own = sql`${t[e.title]}::text ILIKE ${`%${escape(p.q)}%`}`;
    // 'VI - A', 'VI A' or 'VI' find VI's sections as well as 'A' finds every A.
    const whole = parentCols.length
      ? sql`concat_ws(' ', ${sql.join(parentCols, sql`, `)}, ${t[e.title]}) ILIKE ${`%${escape(p.q).replace(/[\s-]+/g, '%')}%`}`
      : undefined;
    conds.push(whole ? or(own, whole) : own);
  }
  const rs = await query
    .where(and(...conds))
    .orderBy(...parentOrder, t[e.title])
    .limit(50);
  const labels = rs.map((r) => [r.parents, String(r.label ?? '')].filter((x) => x).join(' - '));
  const seen = new Map<string, number>();
  for (const l of labels) seen.set(l, (seen.get(l) ?? 0) + 1);
  return rs.map((r, i) => ({ value: Number(r.value), label: (seen.get(labels[i]) ?? 0) > 1 && r.tell ? `${labels[i]} (${r.tell})` : labels[i] }));
}

// ---- writes ----

function validate(e: AnyEntity, body: unknown, mode: 'create' | 'update'): Row {
  const parsed = bodySchema(e, mode).safeParse(body ?? {});
  if (!parsed.success) {
    const details = parsed.error.issues.map((i) => ({
      field: String(i.path[0] ?? ''),
      message: i.code === 'unrecognized_keys' ? `Unknown field(s): ${i.keys.join(', ')}.` : i.message,
    }));
    throw badRequest(details[0]?.message ?? 'Invalid input.', details);
  }
  return parsed.data;
}

export async function fillAuto(e: AnyEntity, ctx: RequestContext, values: Row, mode: 'create' | 'update' = 'create'): Promise<void> {
  const now = localDateTime();
  for (const [name, f] of Object.entries(e.fields)) {
    const stamp = f.kind === 'date' ? now.date : f.kind === 'time' ? now.time : new Date().toISOString();
    if (mode === 'create' && f.auto === 'created-at') values[name] = stamp;
    if (mode === 'create' && f.auto === 'created-by') values[name] = ctx.user.usr_nm;
    if (f.auto === 'updated-at') values[name] = stamp;
    if (f.auto === 'updated-by-name') values[name] = ctx.user.usr_full_nm;
  }
}

async function hashPasswords(e: AnyEntity, values: Row): Promise<void> {
  for (const [name, f] of Object.entries(e.fields)) {
    if (f.kind !== 'password') continue;
    if (typeof values[name] === 'string' && values[name] !== '') values[name] = await hash(values[name] as string);
    else delete values[name];
  }
}

/**
 * Scope condition of a link target, so a row can only point at rows its user could pick. A row of one academic
 * year points at that year's rows of a year-scoped entity (a certificate at this year's student row, not at
 * last year's of the same child), as its dropdown offers them.
 */
export function targetScope(f: Field & { kind: 'link' }, e: AnyEntity, te: AnyEntity, t: DynTable, ctx: RequestContext): SQL | undefined {
  const insts = ctx.myInstCds.length ? ctx.myInstCds : [-1];
  if (te.scope === 'academic-year' && e.scope === 'academic-year' && !f.anyOfMyInstitutes && ctx.acdmCd !== null) {
    return and(eq(t.inst_cd, ctx.instCd), eq(t.acdm_cd, ctx.acdmCd));
  }
  if (te.scope === 'institute' || te.scope === 'academic-year') {
    return f.anyOfMyInstitutes ? inArray(t.inst_cd, insts) : eq(t.inst_cd, ctx.instCd);
  }
  if (te.scope === 'institute-root') return inArray(t[te.key], insts);
  return undefined;
}

async function checkLinks(tx: Tx, e: AnyEntity, ctx: RequestContext, values: Row): Promise<void> {
  for (const [name, f] of Object.entries(e.fields)) {
    if (f.kind !== 'link' || values[name] === null || values[name] === undefined) continue;
    const te = entityTable(f.to);
    const t = dyn(te.table);
    const [hit] = await tx
      .select({ k: t[te.entity.key] })
      .from(t)
      .where(and(eq(t[te.entity.key], values[name]), targetScope(f, e, te.entity, t, ctx)));
    if (!hit) throw badRequest(`'${f.label}' is not a valid choice.`, [{ field: name, message: `'${f.label}' is not a valid choice.` }]);
  }
}

/**
 * Declared agreement between a link's target and the row (`within`): a section of the chosen class. `row` is
 * the whole row as it will be; only links whose own value or matched fields are being written are checked.
 */
async function checkLinksWithin(tx: Tx, e: AnyEntity, written: Row, row: Row): Promise<void> {
  for (const [name, f] of Object.entries(e.fields)) {
    if (f.kind !== 'link' || !f.within) continue;
    const pairs = Object.entries(f.within);
    if (!(name in written) && !pairs.some(([, own]) => own in written)) continue;
    if (row[name] === null || row[name] === undefined || pairs.some(([, own]) => row[own] === null || row[own] === undefined)) continue;
    const te = entityTable(f.to);
    const t = dyn(te.table);
    const [target] = await tx.select().from(t).where(eq(t[te.entity.key], row[name]));
    const off = pairs.find(([theirs, own]) => target && Number(target[theirs]) !== Number(row[own]));
    if (!target || !off) continue;
    const ownLabel = e.fields[off[1]]?.label ?? off[1];
    const message = `${f.label} '${String(target[f.display])}' is not a ${f.label.toLowerCase()} of the chosen ${ownLabel.toLowerCase()}.`;
    throw badRequest(message, [{ field: name, message }]);
  }
}

export function scopeOf(e: AnyEntity, t: DynTable, ctx: RequestContext, global: boolean): SQL | undefined {
  if (global) return undefined;
  if (e.scope === 'institute') return eq(t.inst_cd, ctx.instCd);
  if (e.scope === 'academic-year') return and(eq(t.inst_cd, ctx.instCd), eq(t.acdm_cd, ctx.acdmCd ?? -1));
  return undefined;
}

/** Friendly duplicate checks; the unique indexes stay the real guarantee under concurrency. */
async function checkUnique(tx: Tx, e: AnyEntity, ctx: RequestContext, values: Row, selfId: number | null): Promise<void> {
  const t = dyn(entityTable(e.name).table);
  const notSelf = selfId === null ? undefined : ne(t[e.key], selfId);
  for (const [name, f] of Object.entries(e.fields)) {
    const v = values[name];
    if (!f.unique || v === null || v === undefined || v === '') continue;
    const same = f.kind === 'text' ? sql`lower(${t[name]}) = lower(${v})` : eq(t[name], v);
    const [hit] = await tx.select({ k: t[e.key] }).from(t).where(and(same, scopeOf(e, t, ctx, f.unique === 'global'), notSelf)).limit(1);
    if (hit) {
      const message = `${f.label} '${String(v)}' already exists.`;
      throw new HttpError(409, message, [{ field: name, message }]);
    }
  }
  for (const u of e.uniqueTogether ?? []) {
    if (u.fields.some((n) => values[n] === null || values[n] === undefined)) continue;
    // Text compares case-insensitively, like the unique index (tables.ts): section 'A' and 'a' clash.
    const conds = u.fields.map((n) => (uniqueTogetherFoldsCase(e, n) ? sql`lower(${t[n]}) = lower(${values[n]})` : eq(t[n], values[n])));
    const [hit] = await tx.select({ k: t[e.key] }).from(t).where(and(...conds, scopeOf(e, t, ctx, false), notSelf)).limit(1);
    if (hit) throw conflict(u.message);
  }
}

/**
 * A toggle or action field may only be changed by someone holding its button ('allow login' is admin-only);
 * on create, 'changed' means away from the value the row would get without it.
 */
export function checkFieldButtons(e: AnyEntity, ctx: RequestContext, changed: Row, before: Row | null): void {
  for (const b of fieldButtons(e)) {
    if (!(b.field in changed)) continue;
    const old = before ? before[b.field] : createdValue(e.fields[b.field]);
    if (changed[b.field] !== old) requireButton(ctx, b.button);
  }
}

/** 400 with the field's message when a date falls before its partner or a number exceeds its partner. */
export function checkRanges(e: AnyEntity, row: Row, only?: ReadonlySet<string>): void {
  const details = rangeIssues(e, row, only);
  if (details.length) throw badRequest(details[0].message, details);
}

export function scopeValues(e: AnyEntity, ctx: RequestContext): Row {
  if (e.scope === 'academic-year' && ctx.acdmCd === null) throw badRequest('Choose an academic year first.');
  if (e.scope === 'institute') return { inst_cd: ctx.instCd };
  if (e.scope === 'academic-year') return { inst_cd: ctx.instCd, acdm_cd: ctx.acdmCd };
  return {};
}

const plural = (label: string): string => {
  const w = label.toLowerCase();
  if (/(s|x|ch|sh)$/.test(w)) return `${w}es`;
  return /[^aeiou]y$/.test(w) ? `${w.slice(0, -1)}ies` : `${w}s`;
};

/**
 * Under data_chk, ownership through another entity must still hold for the row as written: otherwise a
 * teacher could add a student to, or move one into, a section that is not theirs (and lose sight of it).
 * Read back inside the write's transaction, through the same scopeWhere the reads use.
 */
async function checkStillOwned(tx: Tx, e: AnyEntity, ctx: RequestContext, id: number): Promise<void> {
  const o = e.ownership;
  if (!ctx.dataChk || typeof o !== 'object') return;
  const t = dyn(entityTable(e.name).table);
  const [hit] = await tx.select({ k: t[e.key] }).from(t).where(and(eq(t[e.key], id), scopeWhere(e, t, ctx)));
  if (hit) return;
  throw forbidden(notOwnedMessage(e));
}

/** 'of your own students' for a row owned through its student, 'of your own sections' through the mapping. */
export function notOwnedMessage(e: AnyEntity): string {
  const o = e.ownership;
  const own =
    typeof o !== 'object'
      ? ''
      : 'via' in o
        ? plural(e.fields[o.via]?.label ?? o.via)
        : 'entity' in o
          ? 'students'
          : Object.keys(o.match).map((n) => plural(ownLabel(e, n))).join(' and ');
  return `You can only add or change ${plural(e.label)} of your own ${own}.`;
}

/** A matched link by the entity it names ('classes' for an application's 'Class Applied For'). */
function ownLabel(e: AnyEntity, name: string): string {
  const f = e.fields[name];
  return f?.kind === 'link' ? entityTable(f.to).entity.label : (f?.label ?? name);
}

/** Inserts one validated row inside tx; shared by create, clone and import. */
export async function insertValidated(tx: Tx, e: AnyEntity, ctx: RequestContext, input: Row): Promise<Row> {
  const values: Row = { ...input };
  // A status only a workflow moves (an online payment's, a promotion's) starts at its declared default.
  for (const [name, f] of Object.entries(e.fields)) {
    if (f.readOnly && (f.kind === 'select' || f.kind === 'bool') && f.defaultValue !== undefined && values[name] === undefined) values[name] = f.defaultValue;
  }
  checkFieldButtons(e, ctx, values, null);
  // Create, clone and import all pass here; the body schema's own check is only early feedback.
  checkRanges(e, values);
  await fillAuto(e, ctx, values);
  await checkLinks(tx, e, ctx, values);
  const uploads = await takeUploads(tx, e, ctx, values);
  await checkUnique(tx, e, ctx, values, null);
  await checkLinksWithin(tx, e, values, values);
  for (const h of hooksOf(e.name)) await h.beforeCreate?.(tx, ctx, values);
  await hashPasswords(e, values);
  const t = dyn(entityTable(e.name).table);
  const [{ id }] = await tx
    .insert(t)
    .values({ ...values, ...scopeValues(e, ctx), crt_by: ctx.user.usr_cd })
    .returning({ id: t[e.key] });
  await claimUploads(tx, e, Number(id), uploads);
  await checkStillOwned(tx, e, ctx, Number(id));
  const row = await getRow(tx, e, { ...ctx, dataChk: false, myInstCds: [...ctx.myInstCds, Number(id)] }, Number(id));
  for (const h of hooksOf(e.name)) await h.afterCreate?.(tx, ctx, row);
  await writeAudit(tx, ctx, e, 'POST', Number(id), null, row);
  return row;
}

export async function createRow(db: Db, e: AnyEntity, ctx: RequestContext, body: unknown): Promise<Row> {
  const input = validate(e, body, 'create');
  return withDbErrors(() => db.transaction((tx) => insertValidated(tx, e, ctx, input)));
}

/**
 * A PUT may send the row back as it was read: the key, read-only and server-stamped fields and the links'
 * display columns are set aside here (and compared with the stored row by checkReadBack); everything else
 * goes to the body schema, which still refuses names it does not know.
 */
function splitReadBack(e: AnyEntity, body: Row): { writable: Row; echoed: Row } {
  const readBack = readBackColumns(e);
  const writable: Row = {};
  const echoed: Row = {};
  for (const [k, v] of Object.entries(body)) (readBack.has(k) ? echoed : writable)[k] = v;
  return { writable, echoed };
}

/** Stored and sent values compare as text: a date or amount may come back as the same string or number. */
const sameValue = (sent: unknown, stored: unknown): boolean => {
  const norm = (v: unknown): string => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v).trim());
  return norm(sent) === norm(stored);
};

function checkReadBack(e: AnyEntity, id: number, echoed: Row, before: Row): void {
  const readBack = readBackColumns(e);
  const details: { field: string; message: string }[] = [];
  for (const [k, v] of Object.entries(echoed)) {
    const col = readBack.get(k);
    if (!col) continue;
    if (col.kind === 'key') {
      if (!sameValue(v, id)) details.push({ field: k, message: `'${col.label}' ${String(v)} does not match the record being updated (${id}).` });
    } else if (!sameValue(v, before[k])) {
      details.push({
        field: k,
        message: col.kind === 'display' ? `'${col.label}' is changed by choosing another ${col.label.toLowerCase()}, not by its name.` : `'${col.label}' cannot be changed.`,
      });
    }
  }
  if (details.length) throw badRequest(details[0].message, details);
}

const rowVerSchema = z.coerce.number({ error: "'row_ver' is required." }).int().positive();

export async function updateRow(db: Db, e: AnyEntity, ctx: RequestContext, id: number, body: unknown): Promise<Row> {
  const { row_ver, ...rest } = (body && typeof body === 'object' ? body : {}) as Row;
  const ver = rowVerSchema.safeParse(row_ver);
  if (!ver.success) throw badRequest("'row_ver' is required: reload the record and try again.");
  const { writable, echoed } = splitReadBack(e, rest);
  const input = validate(e, writable, 'update');
  return withDbErrors(() =>
    db.transaction(async (tx) => {
      const before = await getRow(tx, e, ctx, id, true);
      if (before.row_ver !== ver.data) throw conflict(STALE_MESSAGE);
      checkReadBack(e, id, echoed, before);
      const changed: Row = {};
      for (const [k, v] of Object.entries(input)) {
        const f = e.fields[k];
        if (f.kind === 'password') {
          if (typeof v === 'string' && v !== '') changed[k] = v;
        } else if (v !== undefined && JSON.stringify(v) !== JSON.stringify(before[k])) changed[k] = v;
      }
      for (const k of Object.keys(changed)) {
        if (e.fields[k].immutable) throw badRequest(`'${e.fields[k].label}' cannot be changed once saved.`);
      }
      // A PUT changing only toggle/action fields needs only their buttons (checked below), not 'edit'.
      const buttonFields = new Set(fieldButtons(e).map((b) => b.field));
      const onlyButtonFields = Object.keys(changed).length > 0 && Object.keys(changed).every((k) => buttonFields.has(k));
      // My Profile: the user's own row, and only its self-service fields, needs no 'edit' button.
      const own = e.ownership === 'self' && id === ctx.user.usr_cd;
      const selfEdit = own && Object.keys(changed).every((k) => (e.selfService ?? []).includes(k));
      if (ctx.selfOnly && !selfEdit) {
        const off = Object.keys(changed).filter((k) => !(e.selfService ?? []).includes(k)).map((k) => e.fields[k].label);
        throw forbidden(`On your own profile you can change only your personal details, not ${off.join(', ')}.`);
      }
      if (!onlyButtonFields && !selfEdit) requireButton(ctx, 'edit');
      checkFieldButtons(e, ctx, changed, before);
      if (Object.keys(changed).length === 0) return before;
      // Against the stored row merged with the change: a patch may move either end of a range. Ranges the
      // change does not touch are left alone, so an old row never blocks an unrelated edit.
      checkRanges(e, { ...before, ...changed }, new Set(Object.keys(changed)));
      await checkLinks(tx, e, ctx, changed);
      const uploads = await takeUploads(tx, e, ctx, changed);
      await checkUnique(tx, e, ctx, { ...before, ...changed }, id);
      await checkLinksWithin(tx, e, changed, { ...before, ...changed });
      for (const h of hooksOf(e.name)) await h.beforeUpdate?.(tx, ctx, before, changed);
      await hashPasswords(e, changed);
      await fillAuto(e, ctx, changed, 'update');
      const t = dyn(entityTable(e.name).table);
      const done = await tx
        .update(t)
        .set({ ...changed, row_ver: sql`${t.row_ver} + 1`, updt_by: ctx.user.usr_cd, updt_dt: new Date().toISOString() })
        .where(and(eq(t[e.key], id), eq(t.row_ver, ver.data)))
        .returning({ id: t[e.key] });
      if (done.length === 0) throw conflict(STALE_MESSAGE);
      await claimUploads(tx, e, id, uploads);
      await checkStillOwned(tx, e, ctx, id);
      const after = await getRow(tx, e, { ...ctx, dataChk: false }, id);
      for (const h of hooksOf(e.name)) await h.afterUpdate?.(tx, ctx, before, after);
      await writeAudit(tx, ctx, e, 'PUT', id, before, after);
      return after;
    }),
  );
}

const primidsSchema = z.object({
  primids: z
    .array(z.coerce.number().int().positive(), { error: 'primids must be a list of record codes.' })
    .min(1, 'Please select the records to delete.')
    .max(1000, 'At most 1000 records can be deleted at once.'),
});

/** The body of a delete: { primids }, or (spec: 'DELETE /api/notification/ with a body of ntf_id') the key's own name. */
function deleteBody(e: AnyEntity, body: unknown): unknown {
  if (!body || typeof body !== 'object' || 'primids' in body || !Object.hasOwn(body, e.key)) return body;
  const ids = (body as Record<string, unknown>)[e.key];
  return { primids: Array.isArray(ids) ? ids : [ids] };
}

export async function deleteRows(db: Db, e: AnyEntity, ctx: RequestContext, body: unknown): Promise<number> {
  const parsed = primidsSchema.safeParse(deleteBody(e, body));
  if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'Invalid primids.');
  const ids = [...new Set(parsed.data.primids)];
  return withDbErrors(() =>
    db.transaction(async (tx) => {
      const { q, s } = selectRows(tx, e);
      const found = await q.where(and(inArray(s.table[e.key], ids), scopeWhere(e, s.table, ctx))).for('update', { of: s.table });
      if (found.length !== ids.length) throw notFound('Some of the selected records no longer exist. Refresh and try again.');
      // Hooks first: they may remove rows that belong to these (an institute's own set-up rows).
      for (const h of hooksOf(e.name)) await h.beforeDelete?.(tx, ctx, found);
      await checkReferences(tx, e, ids, found);
      await tx.delete(s.table).where(inArray(s.table[e.key], ids));
      for (const r of found) await writeAudit(tx, ctx, e, 'DELETE', Number(r[e.key]), r, null);
      return found.length;
    }),
  );
}

/** Columns of other entities that point at this one: declared links, and scope columns for institute/year. */
function referencesTo(e: AnyEntity): { other: AnyEntity; column: string }[] {
  const out: { other: AnyEntity; column: string }[] = [];
  // A view holds no rows of its own: a student it sums must stay deletable.
  for (const other of entities.filter((o) => !isView(o))) {
    for (const [name, f] of Object.entries(other.fields)) if (f.kind === 'link' && f.to === e.name) out.push({ other, column: name });
    if (e.scope === 'institute-root' && (other.scope === 'institute' || other.scope === 'academic-year')) out.push({ other, column: 'inst_cd' });
    if (e.name === 'academic' && other.scope === 'academic-year') out.push({ other, column: 'acdm_cd' });
  }
  return out;
}

/** Refuses to delete a row that another row still points at, naming what points at it. */
async function checkReferences(tx: Tx, e: AnyEntity, ids: number[], rowsToDelete: Row[]): Promise<void> {
  for (const { other, column: name } of referencesTo(e)) {
    {
      const t = dyn(entityTable(other.name).table);
      const refs = await tx
        .select({ id: t[name], n: count() })
        .from(t)
        .where(inArray(t[name], ids))
        .groupBy(t[name]);
      const first = refs[0];
      if (!first) continue;
      const row = rowsToDelete.find((r) => Number(r[e.key]) === Number(first.id));
      const what = row ? `'${String(row[e.title])}'` : `${e.label} ${String(first.id)}`;
      throw conflict(`${what} cannot be deleted: it is used by ${first.n} ${other.label} record(s).`);
    }
  }
}

interface PgError {
  code?: string;
  cause?: PgError;
}

/** Turns constraint violations that slipped past the friendly checks (races) into clear 409/400s. */
export async function withDbErrors<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const pg = err as PgError;
    const code = pg.code ?? pg.cause?.code;
    if (code === '23505') throw conflict('A record with the same values already exists.');
    if (code === '23503') throw conflict('This record is linked to other records and cannot be changed that way.');
    if (code === '40001' || code === '40P01') throw conflict('Another change happened at the same time. Please try again.');
    if (code?.startsWith('22')) throw badRequest('A value is out of range or badly formatted.');
    throw err;
  }
}
