import type { FastifyInstance } from 'fastify';
import { effectivePermissions } from '../../access/permission';
import { mustCtx } from '../../access/request-context';
import { rows, sql, type Db } from '../../db/client';
import { localDateTime } from '../../lib/clock';
import { registerSecurityEventRoutes, securityEvents } from './security-events';

/** Pages whose holders may see the day's fee total: the fee office's own pages. */
const feePages = ['fee/quick_fee_collection', 'fee/fee_collected', 'fee/fee_management'];

/**
 * Counts for the dashboard cards, for the request's institute and academic year. Counts are totals, never
 * names: they are shown to every signed-in user, except the day's fee total, which only the fee office sees
 * (the key is left out for others, and the card with it). null = nothing to count yet: no academic year, or
 * no attendance marked today (not the same as nobody present).
 */
export function registerDashboardRoutes(app: FastifyInstance, db: Db): void {
  const signedIn = { access: { kind: 'signed-in' as const } };
  registerSecurityEventRoutes(app, db);
  app.get('/api/dashboard/', { config: signedIn, schema: { tags: ['Dashboard'], summary: 'Dashboard counts' } }, async (req) => {
    const ctx = mustCtx(req);
    const today = localDateTime().date;
    const [e] = await rows<{ n: string }>(db, sql`SELECT count(*)::text AS n FROM employee WHERE inst_cd = ${ctx.instCd}`);
    const perms = await effectivePermissions(db, ctx.user.usr_cd, ctx.instCd, ctx.user.is_admin);
    // The school's takings are every student's bills: not for a fee page held with 'his students only'.
    const seesFees = feePages.some((k) => perms.get(k)?.usr_prms_is_alw && !perms.get(k)?.usr_need_data_chk);
    // Administrators also get the bulk-read alarms (security-events.ts); the key is absent for everyone else.
    const security = ctx.user.is_admin ? { securityEvents: await securityEvents(db, ctx) } : {};
    if (ctx.acdmCd === null) {
      return { students: null, employees: Number(e.n), attendanceToday: null, ...(seesFees ? { feesCollected: null } : {}), ...security };
    }
    const [s] = await rows<{ n: string }>(db, sql`SELECT count(*)::text AS n FROM student WHERE inst_cd = ${ctx.instCd} AND acdm_cd = ${ctx.acdmCd}`);
    const [a] = await rows<{ present: number | null }>(
      db,
      sql`SELECT sum(stud_attn_sum_psnt_cnt + coalesce(stud_attn_sum_od_cnt, 0))::int AS present
          FROM student_daywise_attendance_summary
          WHERE inst_cd = ${ctx.instCd} AND acdm_cd = ${ctx.acdmCd} AND stud_attn_sum_day = ${today}`,
    );
    const out = { students: Number(s.n), employees: Number(e.n), attendanceToday: a.present, ...security };
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
