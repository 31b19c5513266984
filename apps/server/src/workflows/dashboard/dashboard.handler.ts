import type { FastifyInstance } from 'fastify';
import { mustCtx } from '../../access/request-context';
import { rows, sql, type Db } from '../../db/client';

/**
 * Counts for the dashboard cards, for the request's institute and academic year. Modules whose workflows
 * are not built yet (attendance marking, fee collection) answer null, and the page says so, rather than
 * showing a made-up zero. Counts are totals, never names: they are shown to every signed-in user.
 */
export function registerDashboardRoutes(app: FastifyInstance, db: Db): void {
  const signedIn = { access: { kind: 'signed-in' as const } };
  app.get('/api/dashboard/', { config: signedIn, schema: { tags: ['Dashboard'], summary: 'Dashboard counts' } }, async (req) => {
    const ctx = mustCtx(req);
    const [e] = await rows<{ n: string }>(db, sql`SELECT count(*)::text AS n FROM employee WHERE inst_cd = ${ctx.instCd}`);
    const [s] =
      ctx.acdmCd === null
        ? [{ n: null }]
        : await rows<{ n: string }>(db, sql`SELECT count(*)::text AS n FROM student WHERE inst_cd = ${ctx.instCd} AND acdm_cd = ${ctx.acdmCd}`);
    return { students: s.n === null ? null : Number(s.n), employees: Number(e.n), attendanceToday: null, feesCollected: null };
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
