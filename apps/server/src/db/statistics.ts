import type { FastifyInstance } from 'fastify';
import { sql, type Database, type Db } from './client';

/** Between two refreshes on PGlite: often enough to follow a school's day, cheap at school sizes. */
const REFRESH_EVERY_MS = 15 * 60_000;

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
 * the server refreshes them at start and every quarter of an hour while it runs.
 */
export function keepStatistics(app: FastifyInstance, database: Database): void {
  if (database.kind !== 'pglite') return;
  const refresh = (): void => {
    refreshStatistics(database.db).catch((err: unknown) => app.log.error({ err }, 'statistics refresh failed'));
  };
  const first = setTimeout(refresh, 5_000);
  const timer = setInterval(refresh, REFRESH_EVERY_MS);
  first.unref();
  timer.unref();
  app.addHook('onClose', async () => {
    clearTimeout(first);
    clearInterval(timer);
  });
}
