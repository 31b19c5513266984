import { PGlite } from '@electric-sql/pglite';
import { createHash } from 'node:crypto';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
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

export interface OpenOptions {
  databaseUrl?: string;
  dataDir?: string;
  /**
   * PostgreSQL: send parameterized statements as named (prepared) ones, so that each connection parses a
   * statement once and PostgreSQL may reuse its plan (default on; off behind a pooler that cannot keep
   * them, e.g. PgBouncer in transaction mode before 1.21).
   */
  preparedStatements?: boolean;
  /** Called with the text of every statement sent (counting round trips in tests and benches). */
  onQuery?: (text: string) => void;
  /** Connections per pool (PostgreSQL; two pools, see genericPlanDb). */
  poolSize?: number;
  /**
   * An idle pooled connection that died (PostgreSQL restarted, an administrator ended it, the network
   * dropped): the pool already replaces it; without a listener node-postgres would throw it and end the process.
   */
  onConnectionLost?: (err: Error) => void;
}

/** The extensions every PGlite database of the product loads (its migrations create them): one list for the
 * server, the build's prebuilt database and the tests that open PGlite themselves. */
export const pgliteExtensions = { pg_trgm, btree_gin };

/** Named statements per connection; past it, new texts go unnamed (parsed each time, as before). */
export const MAX_NAMED_STATEMENTS = 500;

/**
 * Statement text -> name; the texts come from the code (values are parameters), so they are few. Statements
 * the code prepares itself (drizzle's .prepare) take the name their text would get here.
 */
const names = new Map<string, string>();
export const statementName = (text: string): string => {
  let name = names.get(text);
  if (!name) {
    name = `c_${createHash('sha256').update(text).digest('base64url').slice(0, 32)}`;
    if (names.size < 10 * MAX_NAMED_STATEMENTS) names.set(text, name);
  }
  return name;
};

interface QueryConfigLike {
  text: string;
  name?: string;
  values?: unknown[];
}

/**
 * A connection that names its parameterized statements by a hash of their text: node-postgres then sends
 * Parse once per connection and only Bind/Execute afterwards, and the server keeps the parsed statement (and,
 * when cheaper, a generic plan). Drizzle hands every statement to pool.query or, inside a transaction, to a
 * client checked out of the pool; both are this class, so transactions are covered too. Statements without
 * parameters (BEGIN, COMMIT, migrations that are several statements in one text) stay on the simple protocol.
 */
export class NamedStatementClient extends pg.Client {
  /** Names this connection has prepared (or is preparing). */
  readonly prepared = new Set<string>();
}

// Assigned on the prototype so that the class keeps pg.Client's typed overloads of query().
const baseQuery = pg.Client.prototype.query as (...args: unknown[]) => unknown;
NamedStatementClient.prototype.query = function namedQuery(this: NamedStatementClient, ...args: unknown[]): unknown {
  const [first, second] = args;
  const config = typeof first === 'string' && Array.isArray(second) && second.length > 0 ? { text: first } : first;
  if (config && typeof config === 'object' && typeof (config as QueryConfigLike).text === 'string' && !(config as QueryConfigLike).name) {
    const c = config as QueryConfigLike;
    const values = Array.isArray(second) ? second : c.values;
    if (Array.isArray(values) && values.length > 0) {
      const name = statementName(c.text);
      if (this.prepared.has(name) || this.prepared.size < MAX_NAMED_STATEMENTS) {
        this.prepared.add(name);
        // A copy: drizzle reuses its config object for every run of a query.
        args[0] = { ...c, name };
      }
    }
  }
  return baseQuery.apply(this, args);
} as pg.Client['query'];

/** Handles whose connections name their statements (PostgreSQL unless PG_PREPARED_STATEMENTS=0). */
const namingHandles = new WeakSet<Db>();

/**
 * Whether a statement run on this handle may carry a name. Not with PG_PREPARED_STATEMENTS=0 (a pooler in
 * transaction mode, where the connection that parsed a name is not the next one's), nor on PGlite.
 */
export function namesStatements(db: Db): boolean {
  return namingHandles.has(db);
}

/** The handle of each PostgreSQL database whose connections keep generic plans (see genericPlanDb). */
const genericPlanHandles = new WeakMap<Db, Db>();

/**
 * The handle to run a statement on whose plan must not depend on its parameter values: on PostgreSQL, a
 * second pool whose connections run with plan_cache_mode=force_generic_plan, so a named statement is planned
 * once per connection and that plan reused at every call. Under the default ('auto') PostgreSQL compares the
 * generic plan's cost with the custom plans' and, for a list page, always keeps re-planning: a generic plan
 * cannot see the LIMIT's value and costs it as 10% of the rows, so it always looks dearer than a custom plan
 * of 50 rows (planning the student list costs ~3 ms, running it ~0.2 ms). Only for statements whose best plan
 * is the same whatever the values (the caller decides: list-query's plannedOnce); PGlite, a transaction or
 * statements sent unnamed get the handle itself.
 */
export function genericPlanDb(db: Db): Db {
  return genericPlanHandles.get(db) ?? db;
}

/**
 * PostgreSQL when a URL is given (production, several server processes), otherwise embedded PGlite in
 * dataDir (or in memory for tests) so that a new user needs no database server.
 */
export async function openDatabase(opts: OpenOptions): Promise<Database> {
  const logger = opts.onQuery ? { logQuery: (text: string) => opts.onQuery?.(text) } : undefined;
  if (opts.databaseUrl) {
    const max = opts.poolSize ?? 10;
    const named = opts.preparedStatements !== false;
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max, ...(named ? { Client: NamedStatementClient } : {}) });
    const db = drizzlePg(pool, { logger }) as unknown as Db;
    // Unnamed statements are planned at every call whatever the setting: no second pool then.
    const generic = named
      ? new pg.Pool({ connectionString: opts.databaseUrl, max, Client: NamedStatementClient, options: '-c plan_cache_mode=force_generic_plan' })
      : undefined;
    const lost = opts.onConnectionLost ?? ((err: Error) => console.warn(`database connection lost, the pool opens another: ${err.message}`));
    pool.on('error', lost);
    generic?.on('error', lost);
    if (generic) {
      const genericDb = drizzlePg(generic, { logger }) as unknown as Db;
      genericPlanHandles.set(db, genericDb);
      namingHandles.add(db);
      namingHandles.add(genericDb);
    }
    return { db, kind: 'postgres', close: async () => void (await Promise.all([pool.end(), generic?.end()])) };
  }
  const client = await PGlite.create(opts.dataDir ?? 'memory://', { extensions: pgliteExtensions });
  const db = drizzlePglite(client, { logger }) as unknown as Db;
  return { db, kind: 'pglite', close: () => client.close() };
}

/** Rows of a raw query, the same shape for both drivers. */
export async function rows<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  const r = (await db.execute(query)) as unknown as { rows: T[] };
  return r.rows;
}

export { sql };
