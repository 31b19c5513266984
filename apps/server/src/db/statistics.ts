import type { JobDefinition } from '../jobs/job-definition';
import { sql, type Db } from './client';

/**
 * Refreshes the planner's statistics of every table. Without them PostgreSQL takes every table for a
 * one-row table and joins the fee summaries' grouped sums in nested loops: a report of 600 students went
 * from 15 ms to minutes. Called after bulk writes (demo data, an import) so the next list is planned on
 * the real sizes.
 */
export async function refreshStatistics(db: Db): Promise<void> {
  await db.execute(sql`ANALYZE`);
}

/**
 * PostgreSQL's autovacuum keeps statistics fresh by itself; embedded PGlite runs no background workers, so
 * on PGlite the job queue refreshes them a few seconds after start and every quarter of an hour (jobs/).
 */
export const statisticsJob: JobDefinition = {
  name: 'statistics-refresh',
  label: 'Refresh the planner statistics (PGlite)',
  cron: '*/15 * * * *',
  retryLimit: 1,
  async run(_data, ctx) {
    const started = Date.now();
    await refreshStatistics(ctx.db);
    return { ms: Date.now() - started };
  },
};
