import type { FastifyInstance, FastifyRequest } from 'fastify';
import { effectivePermissions, type EffectivePermission } from '../../access/permission';
import { mustCtx, type RequestContext } from '../../access/request-context';
import { rows, sql, type Db } from '../../db/client';
import { registerHooks } from '../../engine/entity-hooks';
import { aggregateEntityQuery, parseEntityQuery, scopeForEntity } from '../../engine/entity-query';
import { localDateTime } from '../../lib/clock';
import { badRequest, HttpError } from '../../lib/http-error';
import { registerQuickMenuRoutes } from './quick-menu.handler';
import { registerSecurityEventRoutes, securityEvents } from './security-events';
import type { WidgetData } from '@campus/entities/features/widget.entity';
import { scopesFor, widgetData, type WidgetRow } from './widget-data';
import { widgetSpec, WidgetSpecError } from './widget-spec';

/** Pages whose holders may see the day's fee total: the fee office's own pages. */
const feePages = ['fee/quick_fee_collection', 'fee/fee_collected', 'fee/fee_management'];
/** The school's takings (bills): a widget over them follows the same rule as the day's fee total. */
const feeTakings = new Set(['collected_fee', 'fee_collection']);

/** The school's takings are every student's bills: not for a fee page held with 'his students only'. */
const seesFeeTotals = (perms: Map<string, EffectivePermission>): boolean =>
  feePages.some((k) => perms.get(k)?.usr_prms_is_alw && !perms.get(k)?.usr_need_data_chk);

let widgetHooks = false;
/** Every save of a widget is checked against the registry (400 naming the field), never stored unreadable. */
function registerWidgetHooks(): void {
  if (widgetHooks) return;
  widgetHooks = true;
  const check = (row: Record<string, unknown>): void => {
    try {
      widgetSpec(row);
    } catch (err) {
      if (err instanceof WidgetSpecError) throw badRequest(err.message, [{ field: err.field, message: err.message }]);
      throw err;
    }
  };
  registerHooks('widget', {
    beforeCreate: async (_tx, _ctx, values) => check(values),
    beforeUpdate: async (_tx, _ctx, before, changes) => check({ ...before, ...changes }),
  });
}

/**
 * Counts for the dashboard cards, for the request's institute and academic year. Counts are totals, never
 * names: they are shown to every signed-in user, except the day's fee total, which only the fee office sees
 * (the key is left out for others, and the card with it). null = nothing to count yet: no academic year, or
 * no attendance marked today (not the same as nobody present).
 */
/** The viewer's own students when his Student page is held with 'his students only'; null otherwise. */
async function ownStudentCount(req: FastifyRequest, db: Db, ctx: RequestContext): Promise<number | null> {
  let scoped: RequestContext;
  try {
    scoped = await scopeForEntity(req, db, ctx, 'student');
  } catch (err) {
    if (err instanceof HttpError && err.statusCode === 403) return null;
    throw err;
  }
  if (!scoped.dataChk) return null;
  return (await aggregateEntityQuery(db, scoped, parseEntityQuery({ entity: 'student' }), { fn: 'count' })).total.count;
}

export function registerDashboardRoutes(app: FastifyInstance, db: Db): void {
  const signedIn = { access: { kind: 'signed-in' as const } };
  registerSecurityEventRoutes(app, db);
  registerQuickMenuRoutes(app, db);
  registerWidgetHooks();

  /**
   * The viewer's widgets with their data, in wdgt_ord order: each one runs its entity's list query with the
   * viewer's scope for that entity's page (a teacher under 'his students only' counts his students). A widget
   * over an entity whose page the viewer does not hold, an 'Admins Only' one for others, and one over the
   * school's takings for those who may not see fee totals, are left out; a widget that fails carries its own
   * error and the others still answer.
   */
  app.get('/api/widget/data/', { config: signedIn, schema: { tags: ['Widget'], summary: "The viewer's dashboard widgets with their data" } }, async (req) => {
    const ctx = mustCtx(req);
    const today = localDateTime().date;
    const list = await rows<WidgetRow>(
      db,
      sql`SELECT wdgt_cd, wdgt_nm, wdgt_typ, wdgt_sub_typ, wdgt_mode, wdgt_ent, wdgt_msr, wdgt_grp, wdgt_dt_fld, wdgt_dt_frm, wdgt_dt_to, wdgt_whr, wdgt_lmt
          FROM widget WHERE inst_cd = ${ctx.instCd} ORDER BY wdgt_ord NULLS LAST, wdgt_nm, wdgt_cd LIMIT 24`,
    );
    const mine = list.filter((w) => w.wdgt_mode !== 'Admins Only' || ctx.user.is_admin);
    const fees = mine.some((w) => feeTakings.has(String(w.wdgt_ent)))
      ? seesFeeTotals(await effectivePermissions(db, ctx.user.usr_cd, ctx.instCd, ctx.user.is_admin))
      : false;
    // Side by side: each widget is its own few small statements (PostgreSQL answers them on separate pool
    // connections; PGlite runs them one after another anyway). Order is kept.
    const scopeOf = scopesFor(req, db, ctx);
    const answers = await Promise.all(
      mine
        .filter((w) => !feeTakings.has(String(w.wdgt_ent)) || fees)
        .map(async (w): Promise<WidgetData | null> => {
          try {
            return await widgetData(db, scopeOf, w, today);
          } catch (err) {
            req.log.error({ err, wdgt_cd: w.wdgt_cd }, 'widget failed');
            return { wdgt_cd: w.wdgt_cd, wdgt_nm: w.wdgt_nm, kind: 'count', entity: String(w.wdgt_ent), page: null, money: false, empty: true, error: 'This widget could not be loaded.' };
          }
        }),
    );
    const out = answers.filter((d): d is WidgetData => d !== null);
    return { widgets: out };
  });

  app.get('/api/dashboard/', { config: signedIn, schema: { tags: ['Dashboard'], summary: 'Dashboard counts' } }, async (req) => {
    const ctx = mustCtx(req);
    const today = localDateTime().date;
    const [e] = await rows<{ n: string }>(db, sql`SELECT count(*)::text AS n FROM employee WHERE inst_cd = ${ctx.instCd}`);
    const seesFees = seesFeeTotals(await effectivePermissions(db, ctx.user.usr_cd, ctx.instCd, ctx.user.is_admin));
    // Administrators also get the bulk-read alarms (security-events.ts); the key is absent for everyone else.
    const security = ctx.user.is_admin ? { securityEvents: await securityEvents(db, ctx) } : {};
    if (ctx.acdmCd === null) {
      return { students: null, employees: Number(e.n), attendanceToday: null, ...(seesFees ? { feesCollected: null } : {}), ...security };
    }
    const [s] = await rows<{ n: string }>(db, sql`SELECT count(*)::text AS n FROM student WHERE inst_cd = ${ctx.instCd} AND acdm_cd = ${ctx.acdmCd}`);
    // Under 'his students only' on the Student page the card counts the viewer's own students, as his
    // widgets do (a teacher's 60 next to a 'Students by Class' of 60, not the school's 600).
    const ownStudents = await ownStudentCount(req, db, ctx);
    const [a] = await rows<{ present: number | null }>(
      db,
      sql`SELECT sum(stud_attn_sum_psnt_cnt + coalesce(stud_attn_sum_od_cnt, 0))::int AS present
          FROM student_daywise_attendance_summary
          WHERE inst_cd = ${ctx.instCd} AND acdm_cd = ${ctx.acdmCd} AND stud_attn_sum_day = ${today}`,
    );
    const out = { students: ownStudents ?? Number(s.n), employees: Number(e.n), attendanceToday: a.present, ...security };
    if (!seesFees) return out;
    const [f] = await rows<{ amt: string }>(
      db,
      sql`SELECT coalesce(sum(fee_coll_amt), 0)::numeric(14, 2)::text AS amt FROM fee_collection_bill
          WHERE inst_cd = ${ctx.instCd} AND acdm_cd = ${ctx.acdmCd} AND fee_coll_crt_dt = ${today} AND fee_coll_sts = 'Active'`,
    );
    return { ...out, feesCollected: f.amt };
  });

  app.get('/api/academic/active', { config: signedIn, schema: { tags: ['Academic Year'], summary: 'Active academic years of the institute' } }, async (req) => {
    const ctx = mustCtx(req);
    return rows<Record<string, unknown>>(
      db,
      sql`SELECT acdm_cd, acdm_strt_yr, acdm_strt_mn, acdm_end_yr, acdm_end_mn, acdm_sts,
                 acdm_strt_yr::text || '-' || lpad((acdm_end_yr % 100)::text, 2, '0') AS label
          FROM academic WHERE inst_cd = ${ctx.instCd} AND acdm_sts
          ORDER BY acdm_sts DESC, acdm_strt_yr DESC`,
    );
  });
}
