import { createdValue, isView, type AnyEntity } from '@campus/entities/define';
import { entities, entity } from '@campus/entities/registry';
import { asc, count, inArray, type SQL } from 'drizzle-orm';
import type { RequestContext } from '../../access/request-context';
import { rows, sql, type DbOrTx, type Tx } from '../../db/client';
import { dyn } from '../../db/dyn-table';
import { entityTable } from '../../db/tables';
import type { Row } from '../../engine/entity-hooks';
import { insertValidated } from '../../engine/crud.service';
import { scopeWhere, selectionFor } from '../../engine/list-query';
import { forbidden } from '../../lib/http-error';
import { fromPaise, toPaise } from '../../lib/paise';
import { copyableTables, dependenciesOf, type CopyableTable } from './copyable-tables';

export interface YearRow {
  acdm_cd: number;
  acdm_strt_yr: number;
  acdm_end_yr: number;
  acdm_sts: boolean;
  label: string;
}

/** '2025-26', as the year switcher shows it. */
export const yearLabel = (y: Pick<YearRow, 'acdm_strt_yr' | 'acdm_end_yr'>): string => `${y.acdm_strt_yr}-${String(y.acdm_end_yr % 100).padStart(2, '0')}`;

const FOREIGN_YEAR = 'This academic year does not belong to the institute.';

/** The institute's years this user may work in: all for an administrator, the active ones for others (as the year switcher). */
export async function yearsOf(db: DbOrTx, ctx: RequestContext): Promise<YearRow[]> {
  const list = await rows<Omit<YearRow, 'label'>>(
    db,
    sql`SELECT acdm_cd, acdm_strt_yr, acdm_end_yr, acdm_sts FROM academic WHERE inst_cd = ${ctx.instCd} ORDER BY acdm_strt_yr, acdm_cd`,
  );
  return list
    .filter((y) => y.acdm_sts || ctx.user.is_admin)
    .map((y) => ({ ...y, acdm_cd: Number(y.acdm_cd), acdm_strt_yr: Number(y.acdm_strt_yr), acdm_end_yr: Number(y.acdm_end_yr), label: yearLabel(y) }));
}

/** A year named in the body, refused (403) unless it is one of the institute's years open to this user. */
export async function yearOf(db: DbOrTx, ctx: RequestContext, acdmCd: number): Promise<YearRow> {
  const y = (await yearsOf(db, ctx)).find((r) => r.acdm_cd === acdmCd);
  if (!y) throw forbidden(FOREIGN_YEAR);
  return y;
}

// ---- amounts and dates ----

/**
 * An amount changed by `basisPoints` hundredths of a percent (1000 = +10%), rounded half up to whole rupees.
 * Exact: paise times (10000 + bp) in integers, so 1234.50 + 10% is 1357.95 -> 1358, never 1357.9499.
 */
export function changedAmount(amount: string, basisPoints: number): string {
  const scaled = BigInt(toPaise(amount)) * BigInt(10_000 + basisPoints);
  // scaled is in paise / 10000; a rupee is 100 paise, so rupees = scaled / 1_000_000 (never negative: pct >= -100).
  const rupees = (scaled + 500_000n) / 1_000_000n;
  return fromPaise(Number(rupees) * 100);
}

/** A date moved by whole years; 29 February lands on 28 February in a year without one. */
export function shiftDate(date: string, years: number): string {
  const [y, m, d] = date.split('-').map(Number);
  const ny = y + years;
  const leap = (ny % 4 === 0 && ny % 100 !== 0) || ny % 400 === 0;
  const day = m === 2 && d === 29 && !leap ? 28 : d;
  return `${String(ny).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

// ---- the plan: what a run would copy ----

export interface RolloverInput {
  from: YearRow;
  to: YearRow;
  tables: readonly string[];
  /** Hundredths of a percent; 0 copies amounts as they are. */
  basisPoints: number;
}

/** A source row's copy-to-be: the values to insert (links into copied tables still name the source rows). */
interface PlannedCopy {
  source: Row;
  values: Row;
}

export interface TablePlan {
  table: CopyableTable;
  /** Rows of the from year this user may copy. */
  sourceCount: number;
  copies: PlannedCopy[];
  skipped: Row[];
  /** Rows of tables this one needs that are neither in the target year nor being copied, by table. */
  missing: Map<string, string[]>;
}

/** Codes of a copy made in this run are not known until it is inserted: planned ones are stood in for negatively. */
const planned = (srcCd: number): number => -srcCd;

function describe(t: CopyableTable, row: Row): string {
  const e = t.def;
  if (e.fields[e.title]?.kind !== 'code' && row[e.title] !== null && row[e.title] !== undefined) return String(row[e.title]);
  // No name of its own (a subject mapping): its links' names, the class before its section.
  const parts = Object.entries(e.fields)
    .filter(([, f]) => f.kind === 'link' && f.required)
    .map(([, f]) => (f.kind === 'link' ? row[f.as] : null))
    .filter((v) => v !== null && v !== undefined && v !== '');
  return parts.length ? parts.map(String).join(' - ') : `${e.label} ${String(row[e.key])}`;
}

async function yearRows(db: DbOrTx, t: CopyableTable, ctx: RequestContext, acdmCd: number, own: boolean): Promise<Row[]> {
  const s = selectionFor(t.def);
  let q = db.select(s.columns).from(s.table).$dynamic();
  for (const j of s.joins) q = q.leftJoin(j.table, j.on);
  // 'His students only' narrows what may be copied, never what counts as already there.
  const where: SQL | undefined = scopeWhere(t.def, s.table, { ...ctx, acdmCd, dataChk: own && ctx.dataChk });
  return q.where(where).orderBy(asc(s.table[t.def.key]));
}

const keyPart = (v: unknown, text: boolean): string => (v === null || v === undefined ? '\u0000' : text ? String(v).toLowerCase() : String(v));

/**
 * Per table, in dependency order: which source rows are already in the target year by natural key (skipped),
 * which would be copied, and which cannot be for want of a row they link to. Tables the chosen ones depend on
 * are read too (not copied), to find the target year's fee group of the same name.
 */
export interface RolloverPlan {
  tables: TablePlan[];
  /** Source code -> target code per table read: an existing row of the target year, or planned(src) for a copy. */
  links: Map<string, Map<number, number>>;
}

export async function planRollover(db: DbOrTx, ctx: RequestContext, input: RolloverInput): Promise<RolloverPlan> {
  const chosen = new Set(input.tables);
  const needed = new Set(input.tables);
  for (const t of [...copyableTables].reverse()) if (needed.has(t.entity)) for (const d of dependenciesOf(t)) needed.add(d);
  const maps = new Map<string, Map<number, number>>();
  const sourceTitles = new Map<string, Map<number, string>>();
  const years = input.to.acdm_strt_yr - input.from.acdm_strt_yr;
  const plans: TablePlan[] = [];
  for (const t of copyableTables) {
    if (!needed.has(t.entity)) continue;
    const e = t.def;
    const remapped = new Map(t.remapped.map((r) => [r.field, r.to]));
    const naturalKey = (row: Row, side: 'source' | 'target'): string | null => {
      const parts: string[] = [];
      for (const n of t.naturalKey) {
        let v = row[n];
        const to = remapped.get(n);
        if (to && side === 'source') {
          v = maps.get(to)?.get(Number(v));
          if (v === undefined) return null;
        }
        parts.push(keyPart(v, e.fields[n].kind === 'text'));
      }
      return parts.join('\u0001');
    };
    const target = new Map<string, number>();
    for (const r of await yearRows(db, t, ctx, input.to.acdm_cd, false)) target.set(naturalKey(r, 'target') ?? '', Number(r[e.key]));
    const all = await yearRows(db, t, ctx, input.from.acdm_cd, false);
    sourceTitles.set(t.entity, new Map(all.map((r) => [Number(r[e.key]), describe(t, r)])));
    const map = new Map<number, number>();
    maps.set(t.entity, map);
    for (const r of all) {
      const k = naturalKey(r, 'source');
      const hit = k === null ? undefined : target.get(k);
      if (hit !== undefined) map.set(Number(r[e.key]), hit);
    }
    if (!chosen.has(t.entity)) continue;
    const visible = ctx.dataChk ? await yearRows(db, t, ctx, input.from.acdm_cd, true) : all;
    const plan: TablePlan = { table: t, sourceCount: visible.length, copies: [], skipped: [], missing: new Map() };
    for (const r of visible) {
      const srcCd = Number(r[e.key]);
      const lacking = t.remapped.filter((l) => r[l.field] !== null && r[l.field] !== undefined && !maps.get(l.to)?.has(Number(r[l.field])));
      if (lacking.length) {
        for (const l of lacking) {
          const names = plan.missing.get(l.to) ?? [];
          const name = sourceTitles.get(l.to)?.get(Number(r[l.field])) ?? String(r[l.field]);
          if (!names.includes(name)) names.push(name);
          plan.missing.set(l.to, names);
        }
        continue;
      }
      if (map.has(srcCd)) {
        plan.skipped.push(r);
        continue;
      }
      const values: Row = {};
      for (const n of t.copied) values[n] = r[n];
      for (const n of t.restarted) values[n] = createdValue(e.fields[n]);
      for (const n of t.shiftDates) if (typeof values[n] === 'string') values[n] = shiftDate(values[n] as string, years);
      if (input.basisPoints !== 0) for (const n of t.feeAmounts) if (values[n] !== null && values[n] !== undefined) values[n] = changedAmount(String(values[n]), input.basisPoints);
      plan.copies.push({ source: r, values });
      map.set(srcCd, planned(srcCd));
    }
    plans.push(plan);
  }
  return { tables: plans, links: maps };
}

// ---- the answer of preview ----

export interface TablePreview {
  table: string;
  label: string;
  rows: number;
  copy: number;
  skip: number;
  conflicts: string[];
  missing: { table: string; label: string; rows: string[] }[];
  amounts?: {
    fields: { field: string; label: string; before: string; after: string }[];
    examples: { title: string; before: string[]; after: string[] }[];
  };
}

const EXAMPLES = 5;
const AMOUNT_EXAMPLES = 10;

export function previewOf(plan: TablePlan): TablePreview {
  const t = plan.table;
  const out: TablePreview = {
    table: t.entity,
    label: t.def.label,
    rows: plan.sourceCount,
    copy: plan.copies.length,
    skip: plan.skipped.length,
    conflicts: plan.skipped.slice(0, EXAMPLES).map((r) => describe(t, r)),
    missing: [...plan.missing].map(([name, titles]) => ({ table: name, label: entity(name).label, rows: titles.slice(0, EXAMPLES) })),
  };
  if (t.feeAmounts.length) {
    const sum = (n: string, which: 'source' | 'values') => fromPaise(plan.copies.reduce((a, c) => a + toPaise(String((c[which] as Row)[n] ?? '')), 0));
    out.amounts = {
      fields: t.feeAmounts.map((n) => ({ field: n, label: t.def.fields[n].label, before: sum(n, 'source'), after: sum(n, 'values') })),
      examples: plan.copies.slice(0, AMOUNT_EXAMPLES).map((c) => ({
        title: describe(t, c.source),
        before: t.feeAmounts.map((n) => fromPaise(toPaise(String(c.source[n] ?? '')))),
        after: t.feeAmounts.map((n) => fromPaise(toPaise(String(c.values[n] ?? '')))),
      })),
    };
  }
  return out;
}

/** 'Fee Group: Term 3, Term 4' per table a copy would need but will not find: the reason a run is refused. */
export function missingSentence(plans: TablePlan[], to: YearRow): string | null {
  const parts: string[] = [];
  for (const p of plans) {
    for (const [name, titles] of p.missing) {
      const more = titles.length > EXAMPLES ? ` and ${titles.length - EXAMPLES} more` : '';
      parts.push(
        `${p.table.def.label} needs ${entity(name).label} ${titles.slice(0, EXAMPLES).map((x) => `'${x}'`).join(', ')}${more} in ${to.label}: copy the ${entity(name).label.toLowerCase()}s too, or add them there first.`,
      );
    }
  }
  return parts.length ? parts.join(' ') : null;
}

// ---- the run's writes ----

/**
 * Inserts the planned copies of one table through the engine's own create path (validation of links in the
 * target year, unique checks, hooks such as the fee mapping's name, audit), links into earlier copied tables
 * pointed at their copies. Answers source code -> copy code.
 */
export async function writeCopies(tx: Tx, ctxTo: RequestContext, plan: TablePlan, links: RolloverPlan['links'], copiesOf: Map<string, Map<number, number>>): Promise<Map<number, number>> {
  const t = plan.table;
  const made = new Map<number, number>();
  for (const c of plan.copies) {
    const values = { ...c.values };
    for (const l of t.remapped) {
      if (c.source[l.field] === null || c.source[l.field] === undefined) continue;
      const target = links.get(l.to)?.get(Number(c.source[l.field]));
      values[l.field] = target !== undefined && target < 0 ? copiesOf.get(l.to)?.get(-target) : target;
    }
    const row = await insertValidated(tx, t.def, ctxTo, values);
    made.set(Number(c.source[t.def.key]), Number(row[t.def.key]));
  }
  copiesOf.set(t.entity, made);
  return made;
}

// ---- rollback ----

/** Rows of other entities pointing at these rows of `e` (declared links of every table, never a view). */
export async function firstReference(tx: Tx, e: AnyEntity, ids: number[]): Promise<{ id: number; n: number; other: AnyEntity } | null> {
  if (ids.length === 0) return null;
  for (const other of entities) {
    if (isView(other)) continue;
    for (const [name, f] of Object.entries(other.fields)) {
      if (f.kind !== 'link' || f.to !== e.name) continue;
      const t = dyn(entityTable(other.name).table);
      const [hit] = await tx
        .select({ id: t[name], n: count() })
        .from(t)
        .where(inArray(t[name], ids))
        .groupBy(t[name])
        .limit(1);
      if (hit) return { id: Number(hit.id), n: Number(hit.n), other };
    }
  }
  return null;
}
