/**
 * List API benchmark: N employees (joins to role and designation) in one institute, then timed HTTP requests
 * for the first page, a partial-name search, a sort by a linked name and a deep page.
 *   npm run bench                      # PGlite, 10,000 rows
 *   ROWS=50000 DATABASE_URL=... npm run bench
 */
import type { AddressInfo } from 'node:net';
import { buildApp } from '../apps/server/src/app';
import { configFromEnv } from '../apps/server/src/config';
import { openDatabase } from '../apps/server/src/db/client';
import { migrate } from '../apps/server/src/db/migrate';
import { seedIfEmpty } from '../apps/server/src/db/seed';
import { sql } from 'drizzle-orm';

const ROWS = Number(process.env.ROWS ?? 10_000);
const REPEAT = Number(process.env.REPEAT ?? 60);
const PASSWORD = 'Bench-Admin-Pass-1';

const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: 'memory://' });
if (process.env.DATABASE_URL) await database.db.execute(sql`DROP SCHEMA public CASCADE; CREATE SCHEMA public`);
await migrate(database.db);
await seedIfEmpty(database.db, PASSWORD);

const first = ['Arun', 'Priya', 'Karthik', 'Divya', 'Suresh', 'Lakshmi', 'John', 'Mary', 'David', 'Sarah', 'Ravi', 'Meena', 'Vijay', 'Anitha', 'George', 'Emily'];
const last = ['Kumar', 'Raman', 'Subramanian', 'Iyer', 'Smith', 'Williams', 'Natarajan', 'Pillai', 'Brown', 'Thomas', 'Krishnan', 'Joseph'];
const t0 = performance.now();
await database.db.execute(sql`
  INSERT INTO employee (inst_cd, usr_nm, usr_full_nm, usr_id, usr_typ, usr_desg, usr_gnd, usr_ph, usr_eml, usr_is_lgn)
  SELECT 1, 'BENCH' || g, (${sql.raw(`ARRAY[${first.map((f) => `'${f}'`).join(',')}]`)})[1 + g % ${first.length}] || ' ' ||
         (${sql.raw(`ARRAY[${last.map((l) => `'${l}'`).join(',')}]`)})[1 + (g / 7) % ${last.length}] || ' ' || g,
         'EMP' || lpad(g::text, 6, '0'), 1 + g % 6, 1 + g % 9, (ARRAY['Male','Female'])[1 + g % 2],
         '+91 98' || lpad(g::text, 8, '0'), 'staff' || g || '@school.example', false
  FROM generate_series(1, ${ROWS}) AS g`);
await database.db.execute(sql`ANALYZE`);
const seedMs = performance.now() - t0;

const cfg = { ...configFromEnv({}), webDist: undefined, logLevel: 'warn' };
const app = await buildApp(cfg, database, { logger: false });
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
const login = (await (await fetch(`${base}/api/employee/login/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ usr_nm: 'ADMIN', usr_pwd: PASSWORD }) })).json()) as { usr_token: string; usr_cd: number };
const headers = { auth_token: login.usr_token, username: 'ADMIN', usercode: String(login.usr_cd), inst_cd: '1', pagename: 'profile', platform: 'bench' };

async function time(label: string, path: string): Promise<void> {
  const ms: number[] = [];
  let total = 0;
  for (let i = 0; i < REPEAT; i++) {
    const s = performance.now();
    const res = await fetch(`${base}${path}`, { headers });
    const body = (await res.json()) as { total: number };
    ms.push(performance.now() - s);
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    total = body.total;
  }
  ms.sort((a, b) => a - b);
  const p = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))].toFixed(1);
  console.log(`${label.padEnd(34)} median ${p(0.5).padStart(6)} ms   p95 ${p(0.95).padStart(6)} ms   (${total} matching rows)`);
}

console.log(`\n${database.kind}: ${ROWS} employees seeded in ${(seedMs / 1000).toFixed(1)} s; ${REPEAT} requests each over HTTP\n`);
await time('first page (50, default sort)', '/api/employee/?page=1&size=50');
await time("search 'krish' (name, id, phone...)", '/api/employee/?q=krish&size=50');
await time('rare search (one row)', `/api/employee/?q=EMP${String(Math.floor(ROWS / 2)).padStart(6, '0')}&size=50`);
await time('sort by role name (join)', '/api/employee/?sort=rl_nm&dir=desc&size=50');
await time('page 100', '/api/employee/?page=100&size=50');
await app.close();
await database.close();
