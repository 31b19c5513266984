import { fieldSchema, type AnyEntity, type Field } from '@campus/entities/define';
import { pagesOfEntity } from '@campus/entities/pages';
import { entities } from '@campus/entities/registry';
import { and, asc, count, desc, eq, gt, gte, inArray, isNotNull, isNull, lt, lte, ne, notInArray, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { enterPage, type RequestContext } from '../access/request-context';
import type { Db } from '../db/client';
import { localDateTime } from '../lib/clock';
import { badRequest } from '../lib/http-error';
import { scopeWhere, selectionFor, type Selection } from './list-query';

/**
 * A structured query over one declared entity (notification rules, dashboard widgets): which rows, by
 * declared fields and a fixed set of operators, never SQL text. Every identifier is looked up in the
 * declaration; every value is checked by the field's own schema and sent as a parameter. It runs on the
 * entity's own list selection and scope (scopeWhere: institute, academic year, data_chk), so a definition
 * can never reach rows the recipient's list page would not show.
 */

export const QUERY_OPS = ['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'in', 'not_in', 'contains', 'starts_with', 'is_null', 'not_null'] as const;
export type QueryOp = (typeof QUERY_OPS)[number];

export interface QueryCondition {
  field: string;
  op: QueryOp;
  /** A single value (eq..gte, contains, starts_with), a list (in, not_in) or nothing (is_null, not_null). */
  value?: unknown;
}

/** A window of days relative to the day it runs: { from: 0, to: 3 } is today to three days ahead. */
export interface DateWindow {
  field: string;
  from: number;
  to: number;
}

export interface EntityQueryDef {
  entity: string;
  /** Declared fields the rows carry (with the key and row_ver); empty or absent: every field. */
  columns?: string[];
  where?: QueryCondition[];
  dateFilter?: DateWindow | null;
  /** Rows become one per distinct combination of these fields, with n (their row count). */
  group?: string[];
  order?: { field: string; dir: 'asc' | 'desc' }[];
  /** 1..500, default 50. */
  limit?: number;
}

export const MAX_QUERY_LIMIT = 500;
const DEFAULT_LIMIT = 50;
const MAX_WINDOW_DAYS = 3660;

const ORDERED_KINDS = new Set<Field['kind']>(['code', 'number', 'money', 'date', 'time', 'datetime']);
const TEXT_KINDS = new Set<Field['kind']>(['text', 'select']);
const DATE_KINDS = new Set<Field['kind']>(['date', 'datetime']);

/** The operators a field of this kind takes (also what a rule editor offers). */
export function operatorsFor(f: Field): QueryOp[] {
  if (f.kind === 'password' || f.kind === 'json') return [];
  const ops: QueryOp[] = ['eq', 'ne', 'in', 'not_in', 'is_null', 'not_null'];
  if (ORDERED_KINDS.has(f.kind)) ops.push('lt', 'lte', 'gt', 'gte');
  if (TEXT_KINDS.has(f.kind)) ops.push('contains', 'starts_with');
  if (f.kind === 'bool') return ['eq', 'ne'];
  return ops;
}

const rawShape = z.strictObject({
  entity: z.string({ error: "The query needs an 'entity'." }).min(1, "The query needs an 'entity'.").max(60),
  columns: z.array(z.string().max(60), { error: "'columns' must be a list of field names." }).max(60).optional(),
  where: z
    .array(z.strictObject({ field: z.string().max(60), op: z.string().max(20), value: z.unknown().optional() }), {
      error: "'where' must be a list of { field, op, value }.",
    })
    .max(20, "'where' may hold at most 20 conditions.")
    .optional(),
  dateFilter: z
    .strictObject(
      {
        field: z.string().max(60),
        from: z.number({ error: "'dateFilter.from' must be a whole number of days." }).int("'dateFilter.from' must be a whole number of days."),
        to: z.number({ error: "'dateFilter.to' must be a whole number of days." }).int("'dateFilter.to' must be a whole number of days."),
      },
      { error: "'dateFilter' must be { field, from, to } (days from today)." },
    )
    .nullable()
    .optional(),
  group: z.array(z.string().max(60), { error: "'group' must be a list of field names." }).max(5, "'group' may hold at most 5 fields.").optional(),
  order: z
    .array(z.strictObject({ field: z.string().max(60), dir: z.enum(['asc', 'desc'], { error: "An order's 'dir' must be asc or desc." }) }), {
      error: "'order' must be a list of { field, dir }.",
    })
    .max(5, "'order' may hold at most 5 fields.")
    .optional(),
  limit: z
    .number({ error: `'limit' must be a whole number from 1 to ${MAX_QUERY_LIMIT}.` })
    .int(`'limit' must be a whole number from 1 to ${MAX_QUERY_LIMIT}.`)
    .min(1, `'limit' must be a whole number from 1 to ${MAX_QUERY_LIMIT}.`)
    .max(MAX_QUERY_LIMIT, `'limit' must be a whole number from 1 to ${MAX_QUERY_LIMIT}.`)
    .optional(),
});

export const findQueryEntity = (name: string): AnyEntity | undefined => entities.find((e) => e.name === name);

function usableField(e: AnyEntity, name: string, part: string): Field {
  const f = Object.hasOwn(e.fields, name) ? e.fields[name] : undefined;
  if (!f) throw badRequest(`${part}: '${name}' is not a field of ${e.label}.`);
  if (f.kind === 'password' || f.kind === 'json') throw badRequest(`${part}: '${name}' of ${e.label} cannot be used in a query.`);
  return f;
}

function checkValue(name: string, f: Field, v: unknown, part: string): unknown {
  const input = f.kind === 'bool' && typeof v === 'string' ? v === 'true' || v === '1' : v;
  if (input === null || input === undefined || (typeof input === 'string' && input.trim() === '')) {
    throw badRequest(`${part}: '${name}' needs a value (use is_null for an empty field).`);
  }
  const parsed = fieldSchema(f).safeParse(input);
  if (!parsed.success) throw badRequest(`${part}: ${parsed.error.issues[0]?.message ?? `not a value of '${name}'`}`);
  return parsed.data;
}

/**
 * Checks a definition against the registry and answers it with every value in the field's own form.
 * Refusals are 400s with one sentence naming the part: unknown entity, field or operator, a value the
 * field's schema refuses, a window or limit out of range.
 */
export function parseEntityQuery(input: unknown): EntityQueryDef {
  const raw = rawShape.safeParse(input);
  if (!raw.success) {
    const i = raw.error.issues[0];
    const msg = i?.code === 'unrecognized_keys' ? `The query has unknown part(s): ${i.keys.join(', ')}.` : (i?.message ?? 'The query is not valid.');
    throw badRequest(msg.startsWith('Invalid') ? `The query is not valid at '${i?.path.join('.')}'.` : msg);
  }
  const d = raw.data;
  const e = findQueryEntity(d.entity);
  if (!e) throw badRequest(`'${d.entity}' is not an entity.`);
  const columns = [...new Set(d.columns ?? [])];
  for (const c of columns) usableField(e, c, 'Columns');
  const where: QueryCondition[] = (d.where ?? []).map((w, i) => {
    const part = `Condition ${i + 1}`;
    const f = usableField(e, w.field, part);
    if (!(QUERY_OPS as readonly string[]).includes(w.op)) throw badRequest(`${part}: '${w.op}' is not an operator (one of ${QUERY_OPS.join(', ')}).`);
    const op = w.op as QueryOp;
    if (!operatorsFor(f).includes(op)) throw badRequest(`${part}: '${op}' does not apply to '${w.field}' of ${e.label}.`);
    if (op === 'is_null' || op === 'not_null') return { field: w.field, op };
    if (op === 'in' || op === 'not_in') {
      if (!Array.isArray(w.value) || w.value.length === 0 || w.value.length > 100) throw badRequest(`${part}: '${op}' takes a list of 1 to 100 values.`);
      return { field: w.field, op, value: w.value.map((v) => checkValue(w.field, f, v, part)) };
    }
    if (op === 'contains' || op === 'starts_with') {
      if (typeof w.value !== 'string' || w.value.trim() === '' || w.value.length > 100) throw badRequest(`${part}: '${op}' takes a text of 1 to 100 characters.`);
      return { field: w.field, op, value: w.value.trim() };
    }
    return { field: w.field, op, value: checkValue(w.field, f, w.value, part) };
  });
  let dateFilter: DateWindow | null = null;
  if (d.dateFilter) {
    const f = usableField(e, d.dateFilter.field, 'Date filter');
    if (!DATE_KINDS.has(f.kind)) throw badRequest(`Date filter: '${d.dateFilter.field}' of ${e.label} is not a date.`);
    const { from, to } = d.dateFilter;
    if (Math.abs(from) > MAX_WINDOW_DAYS || Math.abs(to) > MAX_WINDOW_DAYS) throw badRequest(`Date filter: days must be within ${MAX_WINDOW_DAYS} of today.`);
    if (from > to) throw badRequest("Date filter: 'from' must not be after 'to'.");
    dateFilter = { field: d.dateFilter.field, from, to };
  }
  const group = [...new Set(d.group ?? [])];
  for (const g of group) usableField(e, g, 'Group');
  const order = d.order ?? [];
  for (const o of order) {
    usableField(e, o.field, 'Order');
    if (group.length && !group.includes(o.field)) throw badRequest(`Order: '${o.field}' is not one of the grouped fields.`);
  }
  return { entity: e.name, columns, where, dateFilter, group, order, limit: d.limit ?? DEFAULT_LIMIT };
}

/** A list request's rule filter (`rule={"where":[...],"dateFilter":{...}}`): conditions over declared fields only. */
export type ListRule = Required<Pick<EntityQueryDef, 'where' | 'dateFilter'>>;

/**
 * The list route's `rule` parameter: a notification's conditions and date window, opened from the bell,
 * checked by the same validator as the rule itself (400 naming the part). Absent: undefined.
 */
export function parseListRule(e: AnyEntity, raw: unknown): ListRule | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string' || raw.length > 4000) throw badRequest("'rule' must be one JSON text of conditions.");
  let input: unknown;
  try {
    input = JSON.parse(raw);
  } catch {
    throw badRequest("'rule' is not valid JSON.");
  }
  if (!input || typeof input !== 'object' || Array.isArray(input)) throw badRequest("'rule' must be { where, dateFilter }.");
  const { where, dateFilter, ...rest } = input as { where?: unknown; dateFilter?: unknown };
  if (Object.keys(rest).length) throw badRequest(`'rule' has unknown part(s): ${Object.keys(rest).join(', ')}.`);
  const def = parseEntityQuery({ entity: e.name, where: where ?? [], dateFilter: dateFilter ?? null });
  return { where: def.where ?? [], dateFilter: def.dateFilter ?? null };
}

/** The same check for code that builds definitions (the demo): throws a plain Error with the sentence. */
export function checkEntityQuery(def: EntityQueryDef): EntityQueryDef {
  try {
    return parseEntityQuery(def);
  } catch (err) {
    throw new Error(err instanceof Error ? err.message : String(err));
  }
}

/** YYYY-MM-DD of today (the server's local date) plus n days. */
export function dayFromToday(n: number, today = localDateTime().date): string {
  const d = new Date(`${today}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

const escapeLike = (s: string): string => s.replace(/[\\%_]/g, (c) => `\\${c}`);

function conditionSql(e: AnyEntity, s: Selection, w: QueryCondition): SQL {
  const col = s.table[w.field];
  const isText = e.fields[w.field].kind === 'text';
  switch (w.op) {
    case 'eq':
      return isText ? sql`lower(${col}) = lower(${w.value as string})` : eq(col, w.value);
    case 'ne':
      return isText ? sql`lower(${col}) <> lower(${w.value as string})` : ne(col, w.value);
    case 'lt':
      return lt(col, w.value);
    case 'lte':
      return lte(col, w.value);
    case 'gt':
      return gt(col, w.value);
    case 'gte':
      return gte(col, w.value);
    case 'in':
      return inArray(col, w.value as unknown[]);
    case 'not_in':
      return notInArray(col, w.value as unknown[]);
    case 'contains':
      return sql`${col}::text ILIKE ${`%${escapeLike(w.value as string)}%`}`;
    case 'starts_with':
      return sql`${col}::text ILIKE ${`${escapeLike(w.value as string)}%`}`;
    case 'is_null':
      return isNull(col);
    case 'not_null':
      return isNotNull(col);
  }
}

/** The definition's own conditions (not the scope), on the selection's table. */
export function definitionWhere(e: AnyEntity, s: Selection, def: Pick<EntityQueryDef, 'where' | 'dateFilter'>, today?: string): SQL | undefined {
  const conds: SQL[] = (def.where ?? []).map((w) => conditionSql(e, s, w));
  if (def.dateFilter) {
    const col = s.table[def.dateFilter.field];
    const from = dayFromToday(def.dateFilter.from, today);
    const to = dayFromToday(def.dateFilter.to, today);
    conds.push(e.fields[def.dateFilter.field].kind === 'date' ? and(gte(col, from), lte(col, to))! : sql`${col}::date between ${from}::date and ${to}::date`);
  }
  return conds.length ? and(...conds) : undefined;
}

export interface QueryRunOptions {
  /** At most this many rows (below the definition's limit): a preview's 20. */
  maxRows?: number;
  /** The day 'today' stands for (tests); the server's local date otherwise. */
  today?: string;
}

export type QueryRow = Record<string, unknown>;

export interface QueryAnswer {
  /** Rows (or, with group, one row per group with n), at most the limit. */
  rows: QueryRow[];
  /** Rows matching the definition in the scope (not groups): what a notification says. */
  count: number;
}

function entityOf(def: EntityQueryDef): AnyEntity {
  const e = findQueryEntity(def.entity);
  if (!e) throw badRequest(`'${def.entity}' is not an entity.`);
  return e;
}

/** The column a group or order names: a link by its display name, anything else by itself. */
function shownColumn(e: AnyEntity, s: Selection, name: string): PgColumn {
  const f = e.fields[name];
  return f.kind === 'link' && s.linkDisplay[name] ? s.linkDisplay[name] : s.table[name];
}

/**
 * Runs a parsed definition with ctx's scope (build ctx with scopeForEntity for a request, or the job's
 * contextForUser): the rows and the count of matching rows.
 */
export async function runEntityQuery(db: Db, ctx: RequestContext, def: EntityQueryDef, opts: QueryRunOptions = {}): Promise<QueryAnswer> {
  const e = entityOf(def);
  const group = def.group ?? [];
  const cols = group.length ? group : def.columns?.length ? def.columns : undefined;
  const s = selectionFor(e, cols);
  const where = and(scopeWhere(e, s.table, ctx), definitionWhere(e, s, def, opts.today));
  const limit = Math.min(def.limit ?? DEFAULT_LIMIT, opts.maxRows ?? MAX_QUERY_LIMIT);
  const [{ n }] = await db.select({ n: count() }).from(s.table).where(where);
  let rows: QueryRow[];
  if (group.length) {
    const pick: Record<string, PgColumn | SQL.Aliased> = {};
    const by: (PgColumn | SQL)[] = [];
    for (const g of group) {
      pick[g] = s.table[g];
      by.push(s.table[g]);
      const f = e.fields[g];
      if (f.kind === 'link') {
        pick[f.as] = s.linkDisplay[g];
        by.push(s.linkDisplay[g]);
      }
    }
    pick.n = sql<number>`count(*)::int`.as('n');
    let q = db.select(pick).from(s.table).$dynamic();
    for (const j of s.joins) q = q.leftJoin(j.table, j.on);
    const order = def.order?.length ? def.order.map((o) => (o.dir === 'desc' ? desc : asc)(shownColumn(e, s, o.field))) : [desc(sql`count(*)`)];
    rows = await q.where(where).groupBy(...by).orderBy(...order).limit(limit);
  } else {
    let q = db.select(s.columns).from(s.table).$dynamic();
    for (const j of s.joins) q = q.leftJoin(j.table, j.on);
    const order = (def.order ?? []).map((o) => (o.dir === 'desc' ? desc : asc)(s.table[o.field]));
    rows = await q.where(where).orderBy(...order, asc(s.table[e.key])).limit(limit);
  }
  return { rows, count: Number(n) };
}

export interface AggregateSpec {
  /** count: rows per group; sum: also the sum of a number or money field per group (exact decimal text). */
  fn: 'count' | 'sum';
  field?: string;
  /** Group by a declared field (a link shows its display name), or by the day of a date/datetime field. */
  by?: { field: string } | { day: string } | null;
}

export interface AggregateGroup {
  /** The group's value: the field's stored value (a link's code), or 'YYYY-MM-DD' for a day; null for none. */
  key: string | number | boolean | null;
  /** What people read: a link's display name, otherwise the key as text ('' for no group). */
  label: string;
  count: number;
  /** With fn 'sum': the exact sum as decimal text ('1250.00'); '0' for a group with no values. */
  sum?: string;
}

export interface AggregateAnswer {
  groups: AggregateGroup[];
  total: { count: number; sum?: string };
}

const aggregateShape = z.strictObject({
  fn: z.enum(['count', 'sum'], { error: "An aggregate's 'fn' must be count or sum." }),
  field: z.string().max(60).optional(),
  by: z.union([z.strictObject({ field: z.string().max(60) }), z.strictObject({ day: z.string().max(60) })], { error: "'by' must be { field } or { day }." }).nullable().optional(),
});

/** Checks an aggregate against the (parsed) definition's entity: 400 with a sentence naming the part. */
export function parseAggregate(def: EntityQueryDef, input: unknown): AggregateSpec {
  const p = aggregateShape.safeParse(input);
  if (!p.success) throw badRequest(p.error.issues[0]?.message ?? 'The aggregate is not valid.');
  const e = entityOf(def);
  const a = p.data;
  if (a.fn === 'sum') {
    if (!a.field) throw badRequest("A sum needs a 'field'.");
    const f = usableField(e, a.field, 'Sum');
    if (f.kind !== 'number' && f.kind !== 'money') throw badRequest(`Sum: '${a.field}' of ${e.label} is not a number or an amount.`);
  }
  if (a.by && 'field' in a.by) usableField(e, a.by.field, 'Group');
  if (a.by && 'day' in a.by && !DATE_KINDS.has(usableField(e, a.by.day, 'Group by day').kind)) throw badRequest(`Group by day: '${a.by.day}' of ${e.label} is not a date.`);
  return a;
}

/**
 * Counts (and sums) the definition's rows in ctx's scope, in groups by a field or by day: at most the
 * definition's limit of groups, largest count first (by day: in date order).
 */
export async function aggregateEntityQuery(db: Db, ctx: RequestContext, def: EntityQueryDef, spec: AggregateSpec, opts: QueryRunOptions = {}): Promise<AggregateAnswer> {
  const e = entityOf(def);
  const byField = spec.by && 'field' in spec.by ? spec.by.field : undefined;
  const byDay = spec.by && 'day' in spec.by ? spec.by.day : undefined;
  const s = selectionFor(e, byField ? [byField] : []);
  const where = and(scopeWhere(e, s.table, ctx), definitionWhere(e, s, def, opts.today));
  const sumOf = spec.fn === 'sum' && spec.field ? sql<string>`coalesce(sum(${s.table[spec.field]}), 0)::text` : sql<null>`null`;
  const [tot] = await db.select({ n: sql<number>`count(*)::int`, sum: sumOf }).from(s.table).where(where);
  const total = { count: Number(tot.n), ...(spec.fn === 'sum' ? { sum: String(tot.sum) } : {}) };
  if (!byField && !byDay) return { groups: [], total };
  const limit = Math.min(def.limit ?? DEFAULT_LIMIT, opts.maxRows ?? MAX_QUERY_LIMIT);
  const f = byField ? e.fields[byField] : undefined;
  const keyExpr: SQL = byField ? sql`${s.table[byField]}` : sql`to_char((${s.table[byDay as string]})::date, 'YYYY-MM-DD')`;
  const labelExpr: SQL = f?.kind === 'link' ? sql`${s.linkDisplay[byField as string]}::text` : sql`(${keyExpr})::text`;
  let q = db
    .select({ key: sql<string | number | boolean | null>`${keyExpr}`.as('k'), label: sql<string | null>`${labelExpr}`.as('l'), n: sql<number>`count(*)::int`.as('n'), sum: sumOf.as('s') })
    .from(s.table)
    .$dynamic();
  if (f?.kind === 'link') q = q.leftJoin(s.linkJoins[byField as string].table, s.linkJoins[byField as string].on);
  const rs = await q
    .where(where)
    .groupBy(sql`1`, sql`2`)
    .orderBy(...(byDay ? [sql`1`] : [desc(sql`3`), sql`2`]))
    .limit(limit);
  const groups = rs.map((r) => ({
    key: r.key,
    label: r.label ?? '',
    count: Number(r.n),
    ...(spec.fn === 'sum' ? { sum: String(r.sum ?? '0') } : {}),
  }));
  return { groups, total };
}

/**
 * The request's context narrowed the way the entity's own list route would narrow it: the caller must hold
 * one of the entity's pages, and that page's data_chk applies (the request's own page may be another one,
 * the notification or dashboard page). A copy: the request's context is left as it was.
 */
export async function scopeForEntity(req: FastifyRequest, db: Db, ctx: RequestContext, entity: string): Promise<RequestContext> {
  const e = findQueryEntity(entity);
  if (!e) throw badRequest(`'${entity}' is not an entity.`);
  const copy: RequestContext = { ...ctx, page: null, perm: null, dataChk: false, selfOnly: false };
  await enterPage(req, db, copy, pagesOfEntity(e.name));
  return copy;
}
