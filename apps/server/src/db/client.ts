import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql, type SQL } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';

export type Db = PgDatabase<PgQueryResultHKT>;
/** A transaction is used exactly like the database handle. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

/**
 * PostgreSQL when a URL is given (production, several server processes), otherwise embedded PGlite in
 * dataDir (or in memory for tests) so that a new user needs no database server.
 */
export async function openDatabase(opts: { databaseUrl?: string; dataDir?: string }): Promise<Database> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 });
    const db = drizzlePg(pool) as unknown as Db;
    return { db, kind: 'postgres', close: () => pool.end() };
  }
  const client = await PGlite.create(opts.dataDir ?? 'memory://', { extensions: { pg_trgm } });
  const db = drizzlePglite(client) as unknown as Db;
  return { db, kind: 'pglite', close: () => client.close() };
}

/** Rows of a raw query, the same shape for both drivers. */
export async function rows<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  const r = (await db.execute(query)) as unknown as { rows: T[] };
  return r.rows;
}

export { sql };
