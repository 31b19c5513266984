/** Databases of the benches on the local PostgreSQL: each bench uses its own, never one it did not create. */
import pg from 'pg';

export const PG_BASE = process.env.BENCH_PG ?? 'postgres://postgres@127.0.0.1:5432';

export const urlOf = (name: string): string => `${PG_BASE}/${name}`;

export async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

export async function databaseExists(name: string): Promise<boolean> {
  return withClient(urlOf('postgres'), async (c) => (await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1);
}

/** Bench databases are named campus_bench*: refuse any other name, so a typo cannot drop someone's data. */
export function assertBenchName(name: string): void {
  if (!/^campus_bench[a-z0-9_]*$/.test(name)) throw new Error(`refusing to (re)create '${name}': bench databases are named campus_bench...`);
}

export async function recreateDatabase(name: string): Promise<void> {
  assertBenchName(name);
  await withClient(urlOf('postgres'), async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${name}`);
  });
}

export async function machineFacts(url: string): Promise<Record<string, string>> {
  const { cpus, totalmem, loadavg } = await import('node:os');
  return withClient(url, async (c) => {
    const one = async (q: string) => String((await c.query(q)).rows[0]?.v ?? '');
    return {
      cores: String(cpus().length),
      memory: `${Math.round(totalmem() / 2 ** 30)} GiB`,
      postgres: await one(`SELECT split_part(version(), ' on ', 1) AS v`),
      shared_buffers: await one(`SELECT current_setting('shared_buffers') AS v`),
      work_mem: await one(`SELECT current_setting('work_mem') AS v`),
      node: process.version,
      load: loadavg().map((x) => x.toFixed(2)).join(' '),
    };
  });
}

export async function gitCommit(root: string): Promise<string> {
  const { execFileSync } = await import('node:child_process');
  try {
    const hash = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root }).toString().trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: root }).toString().trim();
    return dirty ? `${hash} (+ uncommitted changes)` : hash;
  } catch {
    return 'unknown';
  }
}

/**
 * The benches drive many clients as the one ADMIN login, where a school has one clerk per desk. The per-user
 * guards would then stop them (issue 11: at most SESSION_MAX_PER_USER sessions, the hourly budget of rows read),
 * so a bench raises them for its own database: the sessions through startServer's environment, the read budget
 * here (every institute's READ_BUDGET_ROWS_HOUR, and any block left by an earlier run). A database from before
 * the read budget existed is left as it is.
 */
export async function raisePerUserGuards(url: string): Promise<void> {
  await withClient(url, async (c) => {
    const has = await c.query<{ t: string | null }>(`SELECT to_regclass('read_budget')::text AS t`);
    if (!has.rows[0].t) return;
    await c.query(`INSERT INTO setting (inst_cd, setg_unq_cd, setg_nm, setg_val)
                   SELECT inst_cd, 'READ_BUDGET_ROWS_HOUR', 'Rows a User May Read per Hour', '10000000' FROM institute
                   ON CONFLICT (inst_cd, lower(setg_unq_cd)) DO UPDATE SET setg_val = EXCLUDED.setg_val`);
    await c.query('DELETE FROM read_budget');
  });
}
