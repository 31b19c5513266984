import { pagePath, pagesOfEntity } from '@campus/entities/pages';
import type { FastifyRequest } from 'fastify';
import type { RequestContext } from '../../access/request-context';
import { eq, inArray, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { dyn, type DynTable } from '../../db/dyn-table';
import { entityTable } from '../../db/tables';
import { aggregateEntityQuery, dayFromToday, parseAggregate, parseEntityQuery, runEntityQuery, scopeForEntity, type EntityQueryDef } from '../../engine/entity-query';
import { HttpError } from '../../lib/http-error';
import type { WidgetData, WidgetPoint } from '@campus/entities/features/widget.entity';
import { widgetSpec, WidgetSpecError, type WidgetSpec } from './widget-spec';


export interface WidgetRow {
  wdgt_cd: number;
  wdgt_nm: string;
  [k: string]: unknown;
}

/** The widget as a structured query of the entity-query engine (the same validation and scope as rules). */
export function widgetQuery(s: WidgetSpec): EntityQueryDef {
  return parseEntityQuery({
    entity: s.entity.name,
    where: Object.entries(s.where).map(([field, value]) => ({ field, op: 'eq', value })),
    dateFilter: s.dateField ? { field: s.dateField, from: s.from ?? -3660, to: s.to ?? 3660 } : null,
    ...(s.kind === 'list' && s.dateField ? { order: [{ field: s.dateField, dir: 'asc' }] } : {}),
    limit: s.kind === 'list' ? s.limit : s.kind === 'line' ? 400 : 50,
  });
}

/**
 * One widget's data in the viewer's scope: the entity's own page decides (scopeForEntity: without it the
 * widget is not the viewer's, null), and that page's 'his students only' narrows the rows.
 */
/** The viewer's scope for an entity's page, or null when he holds none of its pages (asked once per entity). */
export type ScopeOf = (entity: string) => Promise<RequestContext | null>;

export function scopesFor(req: FastifyRequest, db: Db, ctx: RequestContext): ScopeOf {
  const known = new Map<string, Promise<RequestContext | null>>();
  return (entity) => {
    let p = known.get(entity);
    if (!p) {
      p = scopeForEntity(req, db, ctx, entity).catch((err: unknown) => {
        // Not allowed to open the entity's page: its widgets are not this viewer's at all.
        if (err instanceof HttpError && err.statusCode === 403) return null;
        throw err;
      });
      known.set(entity, p);
    }
    return p;
  };
}

export async function widgetData(db: Db, scopeOf: ScopeOf, w: WidgetRow, today: string): Promise<WidgetData | null> {
  let s: WidgetSpec;
  try {
    s = widgetSpec(w);
  } catch (err) {
    if (!(err instanceof WidgetSpecError)) throw err;
    return { wdgt_cd: w.wdgt_cd, wdgt_nm: w.wdgt_nm, kind: 'count', entity: String(w.wdgt_ent ?? ''), page: null, money: false, empty: true, error: err.message };
  }
  const pg = pagesOfEntity(s.entity.name)[0];
  const base: Omit<WidgetData, 'empty'> = {
    wdgt_cd: w.wdgt_cd,
    wdgt_nm: w.wdgt_nm,
    kind: s.kind,
    entity: s.entity.name,
    page: pg ? pagePath(pg) : null,
    money: s.measure !== undefined && s.entity.fields[s.measure].kind === 'money',
  };
  const scoped = await scopeOf(s.entity.name);
  if (!scoped) return null;
  const def = widgetQuery(s);
  // The page the viewer holds (the one whose scope counted), and the rows behind the number.
  if (scoped.page) base.page = pagePath(scoped.page);
  const rule = (def.where?.length ?? 0) > 0 || def.dateFilter ? { rule: { where: def.where ?? [], dateFilter: def.dateFilter ?? null } } : {};
  if (s.kind === 'list') {
    const a = await runEntityQuery(db, scoped, def, { today });
    const e = s.entity;
    const detailOf = (r: Record<string, unknown>): string | null => {
      // The row's class and section, or its type: what tells two upcoming rows apart, unless its name says it.
      const title = String(r[e.title] ?? '');
      const parts = Object.entries(e.fields)
        .filter(([, f]) => f.kind === 'link' || (f.kind === 'select' && !f.multiple))
        .slice(0, 2)
        .map(([n, f]) => (f.kind === 'link' ? r[f.as] : r[n]))
        .filter((v) => v !== null && v !== undefined && v !== '' && !title.includes(String(v)));
      return parts.length ? parts.join(' - ') : null;
    };
    const rows = a.rows.map((r) => ({
      key: Number(r[e.key]),
      title: String(r[e.title] ?? ''),
      date: s.dateField ? ((r[s.dateField] as string | null) ?? null) : null,
      detail: detailOf(r),
    }));
    return { ...base, ...rule, rows, empty: rows.length === 0 };
  }
  const spec = parseAggregate(def, {
    fn: s.measure ? 'sum' : 'count',
    ...(s.measure ? { field: s.measure } : {}),
    by: s.kind === 'line' ? { day: s.dateField } : s.group ? { field: s.group } : null,
  });
  const a = await aggregateEntityQuery(db, scoped, def, spec, { today });
  const num = (sum: string | undefined, n: number): number => (s.measure ? Number(sum ?? '0') : n);
  if (s.kind === 'count' || s.kind === 'sum') {
    // A count of no rows is a true zero (no defaulters); a sum over no rows is nothing to add up.
    const value = s.kind === 'count' ? a.total.count : base.money ? (a.total.sum ?? '0.00') : num(a.total.sum, a.total.count);
    return { ...base, ...rule, value, empty: s.kind === 'sum' && a.total.count === 0 };
  }
  let points: WidgetPoint[] = a.groups.map((g) => ({
    key: String(g.key ?? ''),
    label: g.label === '' ? '—' : g.label,
    value: num(g.sum, g.count),
    ...(base.money ? { amount: g.sum ?? '0.00' } : {}),
  }));
  if (s.kind === 'line') {
    // Every day of the window, a day without rows at 0 (nothing collected that day is a true 0); a window
    // without any row at all is 'no data', not a flat line of zeros.
    const byDay = new Map(points.map((p) => [p.key, p]));
    const days: WidgetPoint[] = [];
    for (let d = s.from ?? 0; d <= (s.to ?? 0); d++) {
      const key = dayFromToday(d, today);
      days.push(byDay.get(key) ?? { key, label: key, value: 0, ...(base.money ? { amount: '0.00' } : {}) });
    }
    return { ...base, ...rule, points: days, empty: points.length === 0 };
  }
  points = await orderGroups(db, s, points);
  return { ...base, ...rule, points, empty: points.length === 0 };
}

/**
 * Groups in the order people read them: a choice in its declared order; a link in its target's own order
 * (classes by cls_odr: LKG, UKG, I ... XII), named with the partner its link is chosen within (a section as
 * 'VI - A', not 'A'). The names and order of the groups' own keys (already in the viewer's scope) are read in
 * one statement by primary key; anything else keeps the engine's order (largest first).
 */
async function orderGroups(db: Db, s: WidgetSpec, points: WidgetPoint[]): Promise<WidgetPoint[]> {
  const f = s.group ? s.entity.fields[s.group] : undefined;
  if (f?.kind === 'select') return [...points].sort((a, b) => f.options.indexOf(a.key) - f.options.indexOf(b.key));
  if (f?.kind !== 'link') return points;
  const keys = points.map((p) => Number(p.key)).filter((k) => Number.isInteger(k) && k > 0);
  if (keys.length === 0) return points;
  const target = entityTable(f.to);
  const te = target.entity;
  const t = dyn(target.table);
  const labelParts: SQL[] = [];
  const order: SQL[] = [];
  const joins: { table: DynTable; on: SQL }[] = [];
  // The partners this link is chosen within (a section within its class): their names first, their order first.
  for (const [i, partner] of Object.keys(f.within ?? {}).entries()) {
    const pf = te.fields[partner];
    if (pf?.kind !== 'link') continue;
    const pt = entityTable(pf.to);
    const pa = alias(dyn(pt.table), `wg_${i}`);
    joins.push({ table: pa, on: eq(pa[pt.entity.key], t[partner]) });
    labelParts.push(sql`${pa[pf.display]}::text`);
    if (pt.entity.defaultSort) order.push(sql`${pa[pt.entity.defaultSort.field]}`);
    order.push(sql`${pa[pf.display]}`);
  }
  labelParts.push(sql`${t[f.display]}::text`);
  if (te.defaultSort) order.push(sql`${t[te.defaultSort.field]}`);
  order.push(sql`${t[f.display]}`, sql`${t[te.key]}`);
  let q = db
    .select({ k: sql<number>`${t[te.key]}`, label: sql<string>`concat_ws(' - ', ${sql.join(labelParts, sql`, `)})` })
    .from(t)
    .$dynamic();
  for (const j of joins) q = q.leftJoin(j.table, j.on);
  const named = await q.where(inArray(t[te.key], keys)).orderBy(...order);
  const byKey = new Map(points.map((p) => [p.key, p]));
  const out: WidgetPoint[] = [];
  for (const r of named) {
    const p = byKey.get(String(r.k));
    if (!p) continue;
    out.push({ ...p, label: r.label || p.label });
    byKey.delete(String(r.k));
  }
  // Groups without a named row (none expected: links are foreign keys) keep their place at the end.
  return [...out, ...byKey.values()];
}
