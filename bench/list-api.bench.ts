/**
 * List API benchmark on the demo data generated at SCALE (the same generator as the first start; SCALE=10
 * gives about 6,000 school students in 200 sections) plus N extra employees (joins to role and designation),
 * then timed HTTP requests for the first page, a partial-name search, a sort by a linked name and a deep page,
 * on the employee list and on the student list, and the fee office's summaries and the budget reports.
 *   npm run bench                      # PGlite, SCALE=10, 10,000 extra employees
 *   SCALE=20 ROWS=50000 DATABASE_URL=... npm run bench
 */
import type { AddressInfo } from 'node:net';
import { buildApp } from '../apps/server/src/app';
import { configFromEnv } from '../apps/server/src/config';
import { openDatabase, rows } from '../apps/server/src/db/client';
import { migrate } from '../apps/server/src/db/migrate';
import { generateDemo } from '../apps/server/src/db/demo/demo-data';
import { seedIfEmpty } from '../apps/server/src/db/seed';
import { sql } from 'drizzle-orm';

const ROWS = Number(process.env.ROWS ?? 10_000);
const SCALE = Number(process.env.SCALE ?? 10);
const REPEAT = Number(process.env.REPEAT ?? 60);
const PASSWORD = 'Bench-Admin-Pass-1';

const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: 'memory://' });
if (process.env.DATABASE_URL) await database.db.execute(sql`DROP SCHEMA public CASCADE; CREATE SCHEMA public`);
await migrate(database.db);
await seedIfEmpty(database.db, PASSWORD);
const demo = await generateDemo(database.db, { scale: SCALE });

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
// One ADMIN session stands for the office here: past half of the hourly read budget (issue 11) every answer
// would write its count, which is the alarm's cost for a heavy reader, not the list's (see performance.md).
await database.db.execute(sql`INSERT INTO setting (inst_cd, setg_unq_cd, setg_nm, setg_val)
  SELECT inst_cd, 'READ_BUDGET_ROWS_HOUR', 'Rows a User May Read per Hour', '10000000' FROM institute
  ON CONFLICT (inst_cd, lower(setg_unq_cd)) DO UPDATE SET setg_val = EXCLUDED.setg_val`);
await database.db.execute(sql`ANALYZE`);
const seedMs = performance.now() - t0;

const cfg = { ...configFromEnv({}), webDist: undefined, logLevel: 'warn' };
const app = await buildApp(cfg, database, { logger: false });
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
const login = (await (await fetch(`${base}/api/employee/login/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ usr_nm: 'ADMIN', usr_pwd: PASSWORD }) })).json()) as { usr_token: string; usr_cd: number };
const headers = { auth_token: login.usr_token, username: 'ADMIN', usercode: String(login.usr_cd), inst_cd: '1', pagename: 'profile', platform: 'bench' };
// A student a third of the way in: the admission number search should find one row through the index.
const [{ adm }] = await rows<{ adm: string }>(
  database.db,
  sql`SELECT s.stud_adm_cd AS adm FROM student s JOIN academic a ON a.acdm_cd = s.acdm_cd
      WHERE s.inst_cd = 1 AND a.acdm_sts ORDER BY s.stud_cd OFFSET ${Math.floor((demo.counts.student ?? 3) / 6)} LIMIT 1`,
);

async function time(label: string, path: string, pagename = 'profile'): Promise<void> {
  const ms: number[] = [];
  let total = 0;
  for (let i = 0; i < REPEAT; i++) {
    const s = performance.now();
    const res = await fetch(`${base}${path}`, { headers: { ...headers, pagename } });
    const body = (await res.json()) as { total: number; lines?: unknown[] };
    ms.push(performance.now() - s);
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    total = body.total ?? body.lines?.length ?? 0;
  }
  ms.sort((a, b) => a - b);
  const p = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))].toFixed(1);
  console.log(`${label.padEnd(40)} median ${p(0.5).padStart(6)} ms   p95 ${p(0.95).padStart(6)} ms   (${total} matching rows)`);
}

console.log(`\n${database.kind}: demo at SCALE=${SCALE} (${demo.counts.student ?? 0} students, ${demo.counts.employee ?? 0} staff, two institutes) generated in ${(demo.ms / 1000).toFixed(1)} s`);
console.log(`${ROWS} extra employees seeded in ${(seedMs / 1000).toFixed(1)} s; ${REPEAT} requests each over HTTP\n`);
await time('first page (50, default sort)', '/api/employee/?page=1&size=50');
await time("search 'krish' (name, id, phone...)", '/api/employee/?q=krish&size=50');
await time('rare search (one row)', `/api/employee/?q=EMP${String(Math.floor(ROWS / 2)).padStart(6, '0')}&size=50`);
await time('sort by role name (join)', '/api/employee/?sort=rl_nm&dir=desc&size=50');
await time('page 100', '/api/employee/?page=100&size=50');
console.log('');
await time('students: first page (50, by name)', '/api/student/?page=1&size=50');
await time("students: search 'krish'", '/api/student/?q=krish&size=50');
await time('students: admission no (one row)', `/api/student/?q=${encodeURIComponent(adm)}&size=50`);
await time('students: sort by section name (join)', '/api/student/?sort=sec_nm&dir=desc&size=50');
await time('students: page 60', '/api/student/?page=60&size=50');
console.log('');
// The fee office's summaries are views summing every fee line of the year (db/views): the heaviest lists.
// This year's row of that child (last year's row has the same admission number).
const [{ stud }] = await rows<{ stud: number }>(
  database.db,
  sql`SELECT s.stud_cd AS stud FROM student s JOIN academic a ON a.acdm_cd = s.acdm_cd
      WHERE s.inst_cd = 1 AND a.acdm_sts AND lower(s.stud_adm_cd) = lower(${adm}) ORDER BY a.acdm_strt_yr DESC LIMIT 1`,
);
await time('fee management: first page (by name)', '/api/fee_collection/?size=50', 'fee_management');
await time('fee management: sort by balance', '/api/fee_collection/?sort=balAmt&dir=desc&size=50', 'fee_management');
await time("fee management: search 'krish'", '/api/fee_collection/?q=krish&size=50', 'fee_management');
await time('counter finder: admission no', `/api/student/detail/?q=${encodeURIComponent(adm)}&size=50`, 'quick_fee_collection');
await time("counter: one student's dues", `/api/fee_collection/student/${stud}/dues`, 'quick_fee_collection');
await time('fee defaulters: first page', '/api/feedefaultreport/?size=50', 'fee_report');
await time('overall budget: first page', '/api/overall_budget/?size=50', 'overall_budget');
await time('transport budget: first page', '/api/transport_budget/?size=50', 'transport_budget');
await app.close();
await database.close();
