/**
 * What the bulk-read budget (apps/server/src/access/read-budget.ts) costs a list request: the same first
 * page (50 religions) through app.inject, alternating three apps on one database: counting off (a budget whose
 * write never comes due), the shipped batching (5 s / 1,000 rows / past half the budget), and one UPSERT
 * per request. Rounds alternate so the shared machine's load falls on all three alike; prints the load.
 *
 *   npx tsx bench/read-budget.bench.ts [--pg postgres://postgres@127.0.0.1:5432/test] [--n 400]
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { readBudgetFor } from '../apps/server/src/access/read-budget';
import { buildApp } from '../apps/server/src/app';
import { configFromEnv } from '../apps/server/src/config';
import { openDatabase, sql, type Database } from '../apps/server/src/db/client';
import { migrate } from '../apps/server/src/db/migrate';
import { ADMIN_LOGIN, seedIfEmpty } from '../apps/server/src/db/seed';

const { values: args } = parseArgs({ options: { pg: { type: 'string' }, n: { type: 'string', default: '400' } } });
const N = Number(args.n);
const PASSWORD = 'Bench-Admin-Pass-1';

let dbUrl: string | undefined;
let dropDb: (() => Promise<void>) | undefined;
if (args.pg) {
  const name = `campus_rb_${randomBytes(4).toString('hex')}`;
  const c = new pg.Client({ connectionString: args.pg });
  await c.connect();
  await c.query(`CREATE DATABASE ${name}`);
  await c.end();
  const u = new URL(args.pg);
  u.pathname = `/${name}`;
  dbUrl = u.toString();
  dropDb = async () => {
    const d = new pg.Client({ connectionString: args.pg });
    await d.connect();
    await d.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await d.end();
  };
}
const cfg = { ...configFromEnv({}), dataDir: 'memory://', databaseUrl: dbUrl, webDist: undefined, failureDelayMs: 0 };
const open = (): Promise<Database> => openDatabase({ databaseUrl: dbUrl, dataDir: cfg.dataDir });
const first = await open();
await migrate(first.db);
await seedIfEmpty(first.db, PASSWORD);
await first.db.execute(sql`INSERT INTO religion (inst_cd, rgn_nm) SELECT 1, 'Religion ' || g FROM generate_series(1, 60) g`);
// A budget so high the counting never blocks (the admin reads thousands of rows here).
await first.db.execute(sql`INSERT INTO setting (inst_cd, setg_unq_cd, setg_nm, setg_val) VALUES (1, 'READ_BUDGET_ROWS_HOUR', 'x', '1000000000')`);

// PGlite is one in-process database: the three apps share its handle but need their own counters, so each
// gets a handle of its own on PostgreSQL and, on PGlite, a thin copy of the one handle.
const extra: Database[] = [];
async function appWith(flushRows: number, flushMs: number) {
  const database = dbUrl ? await open() : { ...first, db: Object.create(first.db) as Database['db'] };
  if (dbUrl) extra.push(database);
  readBudgetFor(database.db, { flushRows, flushMs });
  const app = await buildApp(cfg, database, { logger: false });
  await app.ready();
  return app;
}
const variants = {
  off: await appWith(Number.MAX_SAFE_INTEGER, 3_600_000),
  batched: await appWith(1000, 5000),
  'upsert each': await appWith(1, 0),
};
const login = await variants.off.inject({ method: 'POST', url: '/api/employee/login/', payload: { usr_nm: ADMIN_LOGIN, usr_pwd: PASSWORD }, headers: { auth_token: 'login' } });
const body = login.json<{ usr_cd: number; usr_nm: string; usr_token: string; usr_inst_cd: number }>();
const headers = { username: body.usr_nm, usercode: String(body.usr_cd), auth_token: body.usr_token, platform: 'bench', inst_cd: String(body.usr_inst_cd), data_chk: '0', pagename: 'religion' };

const times: Record<string, number[]> = { off: [], batched: [], 'upsert each': [] };
for (let i = 0; i < N + 20; i++) {
  for (const [k, app] of Object.entries(variants)) {
    const t0 = process.hrtime.bigint();
    const res = await app.inject({ method: 'GET', url: '/api/religion/?page=1&size=50', headers });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (res.statusCode !== 200) throw new Error(`${k}: ${res.statusCode} ${res.body}`);
    if (i >= 20) times[k].push(ms);
  }
}
const q = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor(p * (xs.length - 1))];
console.log(`${dbUrl ? 'PostgreSQL' : 'PGlite'}, ${N} rounds, load ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
for (const [k, xs] of Object.entries(times)) {
  console.log(`${k.padEnd(12)} median ${q(xs, 0.5).toFixed(3)} ms  p90 ${q(xs, 0.9).toFixed(3)} ms  mean ${(xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(3)} ms`);
}
for (const app of Object.values(variants)) await app.close();
for (const d of extra) await d.close();
await first.close();
await dropDb?.();
