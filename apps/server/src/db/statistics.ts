import type { JobDefinition } from '../jobs/job-definition';
import { sql, type Db } from './client';

/**
 * Refreshes the planner's statistics of every table, or of the tables named. Without them PostgreSQL takes
 * every table for a one-row table and joins the fee summaries' grouped sums in nested loops: a report of 600
 * students went from 15 ms to minutes. Called after bulk writes (an import names its table: the whole
 * database, with the job queue's tables, took 0.8 s on PostgreSQL after each large import) so that the next
 * list is planned on the real sizes.
 */
export async function refreshStatistics(db: Db, tables?: readonly string[]): Promise<void> {
  if (tables?.length) await db.execute(sql`ANALYZE ${sql.join(tables.map((t) => sql.identifier(t)), sql`, `)}`);
  else await db.execute(sql`ANALYZE`);
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
