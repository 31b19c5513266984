import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rows, sql, type Db } from './client';

export const migrationsDir = join(dirname(fileURLToPath(import.meta.url)), '../../migrations');

/**
 * Applies committed migrations in order, each in its own transaction. A PostgreSQL advisory lock keeps
 * two server processes starting together from applying the same file twice.
 */
export async function migrate(db: Db): Promise<string[]> {
  await db.execute(sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
  await db.execute(
    sql`CREATE TABLE IF NOT EXISTS campus_migration (name varchar(200) PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
  );
  const files = readdirSync(migrationsDir)
    .filter((f) => f.endsWith('.sql'))
    .sort();
  const applied: string[] = [];
  await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(727274)`);
    const done = new Set((await rows<{ name: string }>(tx, sql`SELECT name FROM campus_migration`)).map((r) => r.name));
    for (const f of files) {
      if (done.has(f)) continue;
      const text = readFileSync(join(migrationsDir, f), 'utf8');
      for (const stmt of text.split('--> statement-breakpoint')) {
        if (stmt.trim()) await tx.execute(sql.raw(stmt));
      }
      await tx.execute(sql`INSERT INTO campus_migration (name) VALUES (${f})`);
      applied.push(f);
    }
  });
  return applied;
}
