import { fieldSchema, isView, normalisePhone, type AnyEntity, type OwnershipOfRecord, type OwnershipThrough } from '@campus/entities/define';
import { and, asc, desc, eq, inArray, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { alias, type PgColumn } from 'drizzle-orm/pg-core';
import type { RequestContext } from '../access/request-context';
import type { ListRule } from './entity-query';
import { dyn, type DynTable } from '../db/dyn-table';
import { codeExpression, entityTable, entityTables, exactCodeFields, searchExpression, textSearchFields } from '../db/tables';
import { badRequest } from '../lib/http-error';
import { MAX_INT, wholeNumberMessage } from '../lib/malformed-input';

/**
 * Builds list/get queries from a declaration. Column names only ever come from the declaration: a sort,
 * filter or search key from the request is looked up there, never spliced into SQL.
 */

export interface ListParams {
  q?: string;
  sort?: string;
  dir?: 'asc' | 'desc';
  page: number;
  size: number;
  filters: Record<string, string>;
  /**
   * Declared fields the grid shows (`cols=stud_fs_nm,cls_cd`): rows then carry only those, the key and
   * row_ver, and only their links are joined. Absent: every field, as the API always answered.
   */
  cols?: string[];
  /** A notification's conditions and date window (`rule`, checked by entity-query.ts): opened from the bell. */
  rule?: ListRule;
  /** Rows created by this user code (a spec filter naming the creator, such as ntf_crt_cd). */
  creator?: number;
}

export const MAX_PAGE_SIZE = 500;

/**
 * Below this many rows a list's total is exact; past it the count stops reading and says 'at least'
 * (total_exact false), so a page of a big unfiltered list never counts every row again.
 */
export const EXACT_COUNT_LIMIT = 10_000;

/** The declared field a `cols` or `sort` name stands for: the field itself, or a link by its display name. */
function fieldNamed(e: AnyEntity, name: string): string | undefined {
  if (Object.hasOwn(e.fields, name)) return name;
  return Object.entries(e.fields).find(([, f]) => f.kind === 'link' && f.as === name)?.[0];
}

function parseCols(e: AnyEntity, raw: string | undefined): string[] | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const out = new Set<string>();
  for (const part of raw.split(',')) {
    const name = part.trim();
    if (name === '') continue;
    const field = fieldNamed(e, name);
    if (!field || e.fields[field].kind === 'password') {
      throw badRequest(`'${name}' is not a column of ${e.label}: 'cols' takes its field names, separated by commas.`);
    }
    out.add(field);
  }
  return [...out];
}

/**
 * A paging number as typed digits only (no '1e3', '0x10' or '1.0'), from 1 to its maximum: 'page' up to the
 * integer range, so the row offset stays an exact number PostgreSQL takes.
 */
function wholeQueryNumber(query: Record<string, unknown>, name: string, absent: number, max: number): number {
  const raw = query[name];
  if (raw === undefined) return absent;
  const digits = typeof raw === 'string' ? raw.trim() : '';
  const n = /^\d{1,10}$/.test(digits) ? Number(digits) : 0;
  if (n < 1 || n > max) throw badRequest(wholeNumberMessage(name, max));
  return n;
}

export function parseListParams(e: AnyEntity, query: Record<string, unknown>): ListParams {
  const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
  const page = wholeQueryNumber(query, 'page', 1, MAX_INT);
  const size = wholeQueryNumber(query, 'size', 50, MAX_PAGE_SIZE);
  const dir = str(query.dir);
  if (dir !== undefined && dir !== 'asc' && dir !== 'desc') throw badRequest("'dir' must be asc or desc.");
  const filters: Record<string, string> = {};
  let creator: number | undefined;
  const spec = e.specFilters ?? {};
  for (const [k, v] of Object.entries(query)) {
    const target = Object.hasOwn(spec, k) ? spec[k] : undefined;
    if (target === 'creator') {
      const code = typeof v === 'string' ? v.trim() : '';
      if (!/^\d{1,10}$/.test(code) || Number(code) > MAX_INT) throw badRequest(`'${k}' must be a user code.`);
      creator = Number(code);
      continue;
    }
    if (!k.startsWith('f_') && !target) continue;
    const name = target ?? k.slice(2);
    // Own keys only: 'f___proto__' or 'f_constructor' must not reach Object.prototype.
    const f = Object.hasOwn(e.fields, name) ? e.fields[name] : undefined;
    if (!f || f.kind === 'password' || f.kind === 'json') throw badRequest(`Cannot filter by '${name}'.`);
    if (typeof v !== 'string') throw badRequest(`Filter '${name}' must be a single value.`);
    // A code or a choice is an integer column: past its range is the request's mistake, not the database's.
    if ((f.kind === 'code' || f.kind === 'link') && /^\s*\d+\s*$/.test(v) && Number(v) > MAX_INT) throw badRequest(wholeNumberMessage(k));
    filters[name] = v;
  }
  const q = str(query.q)?.trim().slice(0, 100);
  if (query.cols !== undefined && typeof query.cols !== 'string') throw badRequest("'cols' must be one list of field names, separated by commas.");
  const cols = parseCols(e, str(query.cols));
  return { q: q || undefined, sort: str(query.sort) || undefined, dir: dir as ListParams['dir'], page, size, filters, ...(cols ? { cols } : {}), ...(creator !== undefined ? { creator } : {}) };
}

/**
 * Whether a list's page and count may run on one generic plan per statement (genericPlanDb): their best plan
 * must not depend on the values. A page of the scope (institute, year) in any sort order qualifies: the scope
 * statistics make every institute's estimate alike and the plan is the sort index or a top-N sort whatever
 * the institute. Quick search does not (a trigram LIKE on a 4-letter name, a rare last name and an admission
 * number want different plans; a generic plan cannot see the pattern), nor do filters (a value may be rare or
 * nearly everyone's), nor data_chk (one teacher owns 40 of 10,000 rows, the next none).
 */
export function plannedOnce(p: Pick<ListParams, 'q' | 'filters' | 'rule' | 'creator'>, ctx: Pick<RequestContext, 'dataChk'>): boolean {
  return !p.q && Object.keys(p.filters).length === 0 && !ctx.dataChk && !p.rule && p.creator === undefined;
}

export interface Selection {
  table: DynTable;
  /** Output column name -> SQL column (fields, link display columns, row_ver). */
  columns: Record<string, PgColumn>;
  joins: { table: DynTable; on: SQL }[];
  /** Link display column per joined link field, for sort. */
  linkDisplay: Record<string, PgColumn>;
  /** The join of each joined link field (a page sorted by a link picks its keys with that join alone). */
  linkJoins: Record<string, { table: DynTable; on: SQL }>;
}

/** Selections already built, by entity, columns and sort link: they depend on nothing else. */
const selections = new Map<string, Selection>();
/** `cols` comes from the request: past this many shapes, new ones are built each time rather than kept. */
const MAX_SELECTIONS = 1_000;

/**
 * The columns and joins of a list or get. With `cols`, only those fields (and the key and row_ver) and only
 * their links' joins; `joinAlso` joins a link whose name is not shown but sorted by. Built once per shape:
 * the link aliases are proxies, and building them at every request was a measurable part of a list's CPU.
 */
export function selectionFor(e: AnyEntity, cols?: readonly string[], joinAlso?: string): Selection {
  const key = `${e.name}|${cols ? cols.join(',') : '*'}|${joinAlso ?? ''}`;
  const known = selections.get(key);
  if (known) return known;
  const built = buildSelection(e, cols, joinAlso);
  if (selections.size < MAX_SELECTIONS) selections.set(key, built);
  return built;
}

function buildSelection(e: AnyEntity, cols?: readonly string[], joinAlso?: string): Selection {
  const t = dyn(entityTable(e.name).table);
  const columns: Record<string, PgColumn> = {};
  const joins: Selection['joins'] = [];
  const linkDisplay: Record<string, PgColumn> = {};
  const linkJoins: Selection['linkJoins'] = {};
  const wanted = cols ? new Set([e.key, ...cols]) : undefined;
  for (const [name, f] of Object.entries(e.fields)) {
    if (f.kind === 'password') continue;
    const shown = !wanted || wanted.has(name);
    if (shown) columns[name] = t[name];
    if (f.kind === 'link' && (shown || name === joinAlso)) {
      const target = entityTable(f.to);
      const a = alias(dyn(target.table), `l_${name}`);
      linkJoins[name] = { table: a, on: eq(t[name], a[target.entity.key]) };
      joins.push(linkJoins[name]);
      if (shown) columns[f.as] = a[f.display];
      linkDisplay[name] = a[f.display];
    }
  }
  columns.row_ver = t.row_ver;
  return { table: t, columns, joins, linkDisplay, linkJoins };
}

/** The link field a sort name orders by (its display column), if it names one. */
export function sortLink(e: AnyEntity, sort: string | undefined): string | undefined {
  if (!sort) return undefined;
  const name = fieldNamed(e, sort);
  return name !== undefined && e.fields[name].kind === 'link' ? name : undefined;
}

/**
 * The institute and year of a statement prepared once for every request of its shape (crud.service's
 * prepared lists): placeholders, filled from each request's own context when it runs.
 */
export interface ScopeBinding {
  inst: SQLWrapper;
  acdm: SQLWrapper;
}

/** Rows the request may see at all: its institute/year, and its own rows under data_chk. */
export function scopeWhere(e: AnyEntity, t: DynTable, ctx: RequestContext, bound?: ScopeBinding): SQL | undefined {
  const conds: SQL[] = [];
  if (e.scope === 'institute' || e.scope === 'academic-year') conds.push(eq(t.inst_cd, bound?.inst ?? ctx.instCd));
  if (e.scope === 'academic-year') conds.push(bound ? eq(t.acdm_cd, bound.acdm) : ctx.acdmCd === null ? sql`false` : eq(t.acdm_cd, ctx.acdmCd));
  if (e.scope === 'institute-root') conds.push(inArray(t[e.key], ctx.myInstCds.length ? ctx.myInstCds : [-1]));
  const own = ctx.dataChk ? ownershipWhere(e, t, ctx, 0) : undefined;
  if (own) conds.push(own);
  return conds.length ? and(...conds) : undefined;
}

/** The data_chk condition alone, on `t` (the entity's table or an alias of it); depth keeps aliases apart. */
function ownershipWhere(e: AnyEntity, t: DynTable, ctx: RequestContext, depth: number): SQL | undefined {
  const o = e.ownership;
  if (o === undefined) return undefined;
  if (o === 'creator') return eq(t.crt_by, ctx.user.usr_cd);
  if (o === 'self') return eq(t[e.key], ctx.user.usr_cd);
  if ('via' in o) return ownedVia(e, o.via, t, ctx, depth);
  if ('entity' in o) return ownedRecord(e, o, t, ctx, depth);
  return ownedThrough(e, o, t, ctx, depth);
}

/**
 * One arm per entity the row may be about: the row names it and EXISTS that record, owned by its own rule.
 * A row about anything else matches no arm (fail closed). A text key (history's) is compared only when it is
 * a whole number, cast so the record's key index answers; a number key is compared as it is.
 */
function ownedRecord(e: AnyEntity, o: OwnershipOfRecord, t: DynTable, ctx: RequestContext, depth: number): SQL {
  const named: [string, string][] = o.entities
    ? Object.entries(o.entities)
    : entityTables()
        .map((x) => x.entity)
        .filter((x) => !isView(x) && x.ownership !== undefined && !(typeof x.ownership === 'object' && 'entity' in x.ownership))
        .map((x) => [x.name, x.name]);
  const keyCol = t[o.key];
  const key = e.fields[o.key]?.kind === 'number' ? sql`${keyCol}` : sql`(case when ${keyCol} ~ '^[0-9]{1,9}$' then (${keyCol})::int end)`;
  const arms = named.map(([stored, name], i) => {
    const target = entityTable(name);
    const base = dyn(target.table);
    const l = alias(base, `own_rec${depth}_${i}`);
    const conds: (SQL | undefined)[] = [sql`${l[target.entity.key]} = ${key}`, ownershipWhere(target.entity, l, ctx, depth + 1)];
    return sql`(${t[o.entity]} = ${stored} and exists (select 1 from ${base} ${l} where ${and(...conds)}))`;
  });
  return arms.length ? sql`(${sql.join(arms, sql` or `)})` : sql`false`;
}

/**
 * EXISTS the linked row (a wallet's student) in the row's institute, owned by the linked entity's own rule.
 * The registry checked at load that the link leads to an entity with an ownership and that the chain ends.
 */
function ownedVia(e: AnyEntity, field: string, t: DynTable, ctx: RequestContext, depth: number): SQL {
  const f = e.fields[field];
  if (f?.kind !== 'link') throw new Error(`${e.name}: ownership via ${field} is not a link`);
  const target = entityTable(f.to);
  const base = dyn(target.table);
  const l = alias(base, `own_link${depth}`);
  const conds: (SQL | undefined)[] = [eq(l[target.entity.key], t[field]), ownershipWhere(target.entity, l, ctx, depth + 1)];
  return sql`exists (select 1 from ${base} ${l} where ${and(...conds)})`;
}

/**
 * EXISTS a row of the assigning entity (a teacher's subject mapping) in the row's own institute and year that
 * equals it on the declared fields and names the user. Built from declared names only, so every path that
 * reads or locks through scopeWhere (list, get, options, update, delete, import lookups) follows it.
 */
function ownedThrough(e: AnyEntity, o: OwnershipThrough, t: DynTable, ctx: RequestContext, depth: number): SQL {
  const via = entityTable(o.through);
  const base = dyn(via.table);
  // An alias of its own, so the correlated columns never resolve to the outer table by accident.
  const m = alias(base, `own_via${depth}`);
  const conds: SQL[] = [eq(m[o.user], ctx.user.usr_cd)];
  for (const [mine, theirs] of Object.entries(o.match)) if (theirs !== undefined) conds.push(eq(m[theirs], t[mine]));
  if (e.scope === 'institute' || e.scope === 'academic-year') conds.push(eq(m.inst_cd, t.inst_cd));
  if (e.scope === 'academic-year') conds.push(eq(m.acdm_cd, t.acdm_cd));
  // A raw FROM renders an alias by its alias name alone, hence the real table spelled out before it.
  return sql`exists (select 1 from ${base} ${m} where ${and(...conds)})`;
}

const escapeLike = (s: string): string => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The least text above every text starting with `prefix` in byte order (UTF-8 order is code point order):
 * the prefix with its last character raised by one. Undefined when that character cannot be raised.
 */
export function prefixUpperBound(prefix: string): string | undefined {
  const chars = [...prefix];
  const last = chars.pop()?.codePointAt(0);
  if (last === undefined || last >= 0x10ffff || (last >= 0xd7ff && last <= 0xdfff)) return undefined;
  return chars.join('') + String.fromCodePoint(last + 1);
}

/** An exact code equal to `q` or starting with it, as a range on its text_pattern_ops index. */
function codeMatch(col: PgColumn, q: string): SQL {
  const lo = q.toLowerCase();
  const hi = prefixUpperBound(lo);
  const expr = codeExpression(col);
  return hi === undefined ? sql`${expr} = ${lo}` : sql`(${expr} ~>=~ ${lo} and ${expr} ~<~ ${hi})`;
}

/**
 * Quick search. Every arm is answerable from an index of the row's own table, so PostgreSQL can OR their
 * bitmaps instead of filtering the whole institute: the one trigram expression of the row's names
 * (searchExpression, the same SQL as its index), exact codes by prefix on their btree, the key by equality.
 * A declared link search (a bill found by its student's name) reads the matching target keys once, in the
 * request's institute, and compares the link column with that array through the link's own index.
 */
export function searchWhere(e: AnyEntity, s: Pick<Selection, 'table'>, q: string | undefined, ctx: RequestContext): SQL | undefined {
  if (!q) return undefined;
  const pattern = `%${escapeLike(q.toLowerCase())}%`;
  const conds: SQL[] = [];
  const own = textSearchFields(e);
  if (own.length) conds.push(sql`${searchExpression(own.map((n) => s.table[n]))} LIKE ${pattern}`);
  // Mobiles are stored as '+91 98765 43210' but typed as '9876543210' at the counter: a query that is a
  // mobile number in another form also looks for its stored form, through the same trigram index.
  const asStored = normalisePhone(q);
  const holdsPhones = own.some((n) => {
    const f = e.fields[n];
    return f.kind === 'text' && f.format === 'phone';
  });
  if (holdsPhones && asStored !== q.trim().replace(/\s+/g, ' ')) {
    conds.push(sql`${searchExpression(own.map((n) => s.table[n]))} LIKE ${`%${escapeLike(asStored.toLowerCase())}%`}`);
  }
  for (const name of exactCodeFields(e)) conds.push(codeMatch(s.table[name], q));
  for (const [name, f] of Object.entries(e.fields)) {
    if (!f.search) continue;
    if (f.kind === 'link') conds.push(linkMatch(e, f.to, f.display, !!f.anyOfMyInstitutes, s.table[name], pattern, ctx));
    else if ((f.kind === 'number' || f.kind === 'code') && /^\d{1,9}$/.test(q)) conds.push(eq(s.table[name], Number(q)));
    else if (f.kind === 'date' || f.kind === 'time') conds.push(sql`${s.table[name]}::text LIKE ${pattern}`);
  }
  if (/^\d{1,9}$/.test(q)) conds.push(eq(s.table[e.key], Number(q)));
  return conds.length ? or(...conds) : sql`false`;
}

function linkMatch(e: AnyEntity, to: string, display: string, anyInst: boolean, col: PgColumn, pattern: string, ctx: RequestContext): SQL {
  const target = entityTable(to);
  const tt = dyn(target.table);
  const conds: SQL[] = [];
  // The target's own trigram expression when it holds the display name (a student's name), else the name.
  const expr = textSearchFields(target.entity);
  conds.push(expr.includes(display) ? sql`${searchExpression(expr.map((n) => tt[n]))} LIKE ${pattern}` : sql`${tt[display]}::text ILIKE ${pattern}`);
  // A row of this institute links to targets of this institute (checkLinks): the others need no reading.
  const scoped = e.scope === 'institute' || e.scope === 'academic-year';
  const te = target.entity.scope;
  if (scoped && (te === 'institute' || te === 'academic-year')) conds.push(anyInst ? inArray(tt.inst_cd, ctx.myInstCds.length ? ctx.myInstCds : [-1]) : eq(tt.inst_cd, ctx.instCd));
  return sql`${col} = any(array(select ${tt[target.entity.key]} from ${tt} where ${and(...conds)}))`;
}

export function filterWhere(e: AnyEntity, s: Selection, filters: Record<string, string>): SQL | undefined {
  const conds: SQL[] = [];
  for (const [name, raw] of Object.entries(filters)) {
    const f = e.fields[name];
    // A key's schema takes a number (it is never typed in a form); a query string always holds text.
    const input = f.kind === 'bool' ? raw === 'true' || raw === '1' : f.kind === 'code' && /^\s*\d{1,10}\s*$/.test(raw) ? Number(raw) : raw;
    const parsed = fieldSchema(f).safeParse(input);
    if (!parsed.success) throw badRequest(`Filter '${name}': ${parsed.error.issues[0]?.message ?? 'invalid value'}`);
    conds.push(f.kind === 'text' ? sql`lower(${s.table[name]}) = lower(${parsed.data as string})` : eq(s.table[name], parsed.data));
  }
  return conds.length ? and(...conds) : undefined;
}

export function orderBy(e: AnyEntity, s: Selection, p: Pick<ListParams, 'sort' | 'dir'>): SQL[] {
  const key = s.table[e.key];
  let col: PgColumn | undefined;
  let dir = p.dir ?? 'asc';
  if (p.sort) {
    const f = Object.hasOwn(e.fields, p.sort) ? e.fields[p.sort] : undefined;
    const linkField = Object.entries(e.fields).find(([, lf]) => lf.kind === 'link' && lf.as === p.sort);
    if (f && f.kind !== 'password' && f.kind !== 'json') col = f.kind === 'link' ? s.linkDisplay[p.sort] : s.table[p.sort];
    else if (linkField) col = s.linkDisplay[linkField[0]];
    else throw badRequest(`Cannot sort by '${p.sort}'.`);
    if (!col) throw new Error(`${e.name}: sorted by ${p.sort} without its join`);
  } else if (e.defaultSort) {
    col = s.table[e.defaultSort.field];
    dir = p.dir ?? e.defaultSort.dir;
  }
  const by = (c: PgColumn) => (dir === 'desc' ? desc(c) : asc(c));
  // The key breaks ties so that paging never shows a row twice or skips one.
  return col ? [by(col), by(key)] : [desc(key)];
}
