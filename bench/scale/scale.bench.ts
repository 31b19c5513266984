/**
 * Speed at scale (issue 10): N students over K institutes on PostgreSQL, the API server in its own process
 * (NODE_ENV=production, as `npm run serve`), driven from outside over HTTP.
 *
 *   npm run bench:scale                                  # 200,000 students / 20 institutes, database campus_bench
 *   npm run bench:scale -- --students 20000 --institutes 4 --db campus_bench_small --seconds 10
 *   npm run bench:scale -- --regenerate                  # build the database again
 *
 * Prints, for each request kind: req/s, p50, p95 under the 32-client list/search mix; single-client latency
 * of every kind including the fee pages (at the school's size and at the double-size school); last-name
 * search with 8 clients on the double-size school (the issue's RosarioSIS comparison, whose figures are
 * taken from the issue); and API time / its own SQL time for the first page (EXPLAIN ANALYZE of the list
 * and count statements the server actually sent, traced in the server process).
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { headersOf, signIn, type ApiSession } from '../lib/api-session';
import { gitCommit, machineFacts, raisePerUserGuards, urlOf, withClient } from '../lib/bench-db';
import { runLoad, type KindResult, type RequestSpec } from '../lib/load-driver';
import { BENCH_ADMIN_PASSWORD, repoRoot, startServer } from '../lib/server-process';
import { fmt, loadAverage, percentile, table } from '../lib/stats';
import { ensureScaleDatabase } from './generate-scale';

const { values: args } = parseArgs({
  options: {
    students: { type: 'string', default: '200000' },
    institutes: { type: 'string', default: '20' },
    db: { type: 'string', default: 'campus_bench' },
    regenerate: { type: 'boolean', default: false },
    seconds: { type: 'string', default: '20' },
    connections: { type: 'string', default: '32' },
    json: { type: 'string' },
    'generate-only': { type: 'boolean', default: false },
    /** Skip the one-client pass over every kind (2.), for quick before/after runs of the mix. */
    'skip-single': { type: 'boolean', default: false },
    /** Run the server of another checkout (a worktree of the 'before' commit), alternating with this one. */
    root: { type: 'string' },
  },
});
const SECONDS = Number(args.seconds);
const CONNECTIONS = Number(args.connections);
const url = urlOf(args.db!);

console.log(`bench:scale  commit ${await gitCommit(repoRoot)}  ${new Date().toISOString()}`);
const info = await ensureScaleDatabase({ database: args.db!, students: Number(args.students), institutes: Number(args.institutes), regenerate: args.regenerate! });
if (args['generate-only']) process.exit(0);

// What the requests look for: real admission numbers, names and family names of the generated school.
const sample = await withClient(url, async (c) => {
  const scopes = (
    await c.query<{ inst_cd: number; acdm_cd: number; n: string }>(
      `SELECT s.inst_cd, s.acdm_cd, count(*) AS n FROM student s JOIN academic a ON a.acdm_cd = s.acdm_cd AND a.acdm_sts
       GROUP BY 1, 2 ORDER BY s.inst_cd`,
    )
  ).rows;
  const school = scopes[0];
  const big = scopes.reduce((a, b) => (Number(b.n) > Number(a.n) ? b : a));
  const adm = (await c.query<{ a: string }>(`SELECT stud_adm_cd AS a FROM student WHERE inst_cd = $1 AND acdm_cd = $2 ORDER BY md5(stud_cd::text) LIMIT 300`, [school.inst_cd, school.acdm_cd])).rows.map((r) => r.a);
  const names = (await c.query<{ n: string }>(`SELECT stud_fs_nm AS n FROM student WHERE inst_cd = $1 AND acdm_cd = $2 ORDER BY md5(stud_cd::text) LIMIT 300`, [school.inst_cd, school.acdm_cd])).rows.map((r) => r.n);
  return { school, big, adm, names };
});
const partials = [...new Set(sample.names.map((n) => n.split(' ')[0].slice(0, 4).toLowerCase()).filter((p) => p.length === 4))].slice(0, 40);
const families = [...new Set(sample.names.map((n) => n.split(' ').at(-1)!.toLowerCase()).filter((f) => f.length >= 4))].slice(0, 40);
const pick = <T>(list: readonly T[], i: number): T => list[i % list.length];

interface Kind {
  kind: string;
  page: string;
  path: (i: number) => string;
}
const enc = encodeURIComponent;
const listKinds: Kind[] = [
  { kind: 'student list, first page', page: 'profile', path: () => '/api/student/?page=1&size=50' },
  { kind: "partial-name search (4 letters)", page: 'profile', path: (i) => `/api/student/?q=${enc(pick(partials, i))}&size=50` },
  { kind: 'last-name search', page: 'profile', path: (i) => `/api/student/?q=${enc(pick(families, i))}&size=50` },
  { kind: 'admission-number search', page: 'profile', path: (i) => `/api/student/?q=${enc(pick(sample.adm, i))}&size=50` },
  { kind: 'deep page (page 100)', page: 'profile', path: () => '/api/student/?page=100&size=50' },
  { kind: 'sorted by a link (section)', page: 'profile', path: () => '/api/student/?sort=sec_nm&dir=desc&size=50' },
];
const feeKinds: Kind[] = [
  { kind: 'fee management sorted by balance', page: 'fee_management', path: () => '/api/fee_collection/?sort=balAmt&dir=desc&size=50' },
  { kind: 'fee defaulters report, first page', page: 'fee_report', path: () => '/api/feedefaultreport/?size=50' },
  { kind: 'counter finder by admission number', page: 'quick_fee_collection', path: (i) => `/api/student/detail/?q=${enc(pick(sample.adm, i))}&size=20` },
];

await raisePerUserGuards(url);
const server = await startServer({ databaseUrl: url, root: args.root });
const results: Record<string, unknown> = { commit: await gitCommit(repoRoot), machine: await machineFacts(url), data: info, startMs: Math.round(server.startMs) };
try {
  const school = await signIn(server.base, 'ADMIN', BENCH_ADMIN_PASSWORD, sample.school.inst_cd, sample.school.acdm_cd);
  const big = await signIn(server.base, 'ADMIN', BENCH_ADMIN_PASSWORD, sample.big.inst_cd, sample.big.acdm_cd);
  const spec = (s: ApiSession, k: Kind, i: number): RequestSpec => ({ kind: k.kind, path: k.path(i), headers: headersOf(s, k.page) });

  // Each kind once, through fetch (decompressing): the answers must be real pages, not errors or empty.
  const sanity: (string | number)[][] = [];
  for (const k of [...listKinds, ...feeKinds]) {
    const r = await fetch(`${server.base}${k.path(1)}`, { headers: headersOf(school, k.page) });
    const body = (await r.json()) as { total?: number; rows?: unknown[]; message?: string };
    if (r.status !== 200) throw new Error(`${k.kind}: ${r.status} ${JSON.stringify(body).slice(0, 300)}`);
    sanity.push([k.kind, k.path(1), body.rows?.length ?? 0, String(body.total ?? '')]);
  }
  console.log(`\nschool ${sample.school.inst_cd}: ${sample.school.n} students this year; largest school ${sample.big.inst_cd}: ${sample.big.n}\n`);
  console.log(table(['kind', 'request', 'rows', 'total'], sanity));

  // 1. The list/search mix: 32 clients, each cycling through the six kinds.
  const loadMix = await loadAverage();
  const mix = await runLoad(server.base, { connections: CONNECTIONS, seconds: SECONDS, next: (c, i) => spec(school, listKinds[(c + i) % listKinds.length], c * 1000 + i) });
  results.mix = { load: loadMix, ...mix };
  console.log(`\n1. list/search mix, ${CONNECTIONS} clients, ${SECONDS} s (load before: ${loadMix}; after: ${await loadAverage()})`);
  console.log(
    table(
      ['kind', 'req/s', 'p50 ms', 'p95 ms', 'errors'],
      [
        ...mix.kinds.map((k) => [k.kind, fmt(k.perSecond), fmt(k.p50), fmt(k.p95), k.errors]),
        ['all kinds', fmt(mix.total.perSecond), fmt(mix.total.p50), fmt(mix.total.p95), mix.total.errors],
      ],
    ),
  );
  for (const k of mix.kinds) if (k.firstError) console.log(`  ${k.kind}: first error ${k.firstError}`);

  // 2. One client at a time: every kind, and the fee pages at the double-size school too.
  const single: (KindResult & { where: string })[] = [];
  const loadSingle = await loadAverage();
  for (const [s, where, kinds] of (args['skip-single'] ? [] : [
    [school, `school (${sample.school.n})`, [...listKinds, ...feeKinds]],
    [big, `large school (${sample.big.n})`, feeKinds.slice(0, 2)],
  ]) as [ApiSession, string, Kind[]][]) {
    for (const k of kinds) {
      const slow = feeKinds.slice(0, 2).includes(k);
      const r = await runLoad(server.base, { connections: 1, seconds: slow ? 12 : 6, warmupSeconds: slow ? 0 : 1, next: (_c, i) => spec(s, k, i) });
      single.push({ where, ...r.kinds[0] });
    }
  }
  results.single = { load: loadSingle, kinds: single };
  console.log(`\n2. one client (load before: ${loadSingle}; after: ${await loadAverage()})`);
  console.log(table(['kind', 'where', 'n', 'p50 ms', 'p95 ms', 'errors'], single.map((k) => [k.kind, k.where, k.n, fmt(k.p50), fmt(k.p95), k.errors])));

  // 3. Last-name search, 8 clients, on the double-size school (the issue ran RosarioSIS on 20,000 students).
  const loadRos = await loadAverage();
  const ros = await runLoad(server.base, { connections: 8, seconds: Math.min(SECONDS, 15), next: (c, i) => spec(big, listKinds[2], c * 1000 + i) });
  results.lastName8 = { load: loadRos, ...ros.total };
  console.log(`\n3. last-name search, 8 clients, ${sample.big.n} students: ${fmt(ros.total.perSecond)} req/s, p50 ${fmt(ros.total.p50)} ms, p95 ${fmt(ros.total.p95)} ms, errors ${ros.total.errors} (load ${loadRos})`);
} finally {
  await server.stop();
}

// 4. API time / its own SQL time, first page, one client: the server traces the statements it sends.
const trace = `/tmp/bench-sql-trace-${process.pid}.jsonl`;
rmSync(trace, { force: true });
const traced = await startServer({ databaseUrl: url, sqlTrace: trace, root: args.root });
try {
  const s = await signIn(traced.base, 'ADMIN', BENCH_ADMIN_PASSWORD, sample.school.inst_cd, sample.school.acdm_cd);
  const path = '/api/student/?page=1&size=50';
  const get = async () => {
    const t0 = performance.now();
    const at = Date.now();
    const r = await fetch(`${traced.base}${path}`, { headers: headersOf(s, 'profile') });
    await r.arrayBuffer();
    return { at, end: Date.now(), ms: performance.now() - t0 };
  };
  for (let i = 0; i < 50; i++) await get();
  const marks: { at: number; end: number; ms: number }[] = [];
  const traceStart = Date.now();
  for (let i = 0; i < 200; i++) marks.push(await get());
  await new Promise((r) => setTimeout(r, 300));
  const stmts = readFileSync(trace, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { at: number; ms: number; text: string; values: unknown[]; name: string | null; generic?: boolean })
    .filter((x) => x.at >= traceStart);
  const http = marks.map((m) => m.ms).sort((a, b) => a - b);
  const perRequest = marks.map((m) => stmts.filter((x) => x.at >= m.at && x.at <= m.end));
  const roundTrips = perRequest.map((p) => p.length).sort((a, b) => a - b);
  const driverSql = perRequest.map((p) => p.reduce((a, x) => a + x.ms, 0)).sort((a, b) => a - b);
  // The request's own statements: those reading the student table (the page and its count).
  const last = perRequest.at(-1) ?? [];
  const own = last.filter((x) => /^\s*(with|select)\b/i.test(x.text) && /\bfrom\s+"?student"?\b/i.test(x.text));
  const explained = await withClient(url, async (c) => {
    const out: { plan: number; exec: number; text: string; prepared: boolean; generic: boolean }[] = [];
    for (const [n, st] of own.entries()) {
      let best = { plan: Infinity, exec: Infinity };
      // A statement the server runs on its generic-plan connections is planned once per connection: measured
      // the same way, prepared and executed under force_generic_plan (its planning is then ~0.01 ms).
      const generic = st.generic === true;
      if (generic) {
        await c.query(`PREPARE own_${n} AS ${st.text}`);
        await c.query('SET plan_cache_mode = force_generic_plan');
      }
      const args = st.values.map((v) => (typeof v === 'number' ? String(v) : `'${String(v).replace(/'/g, "''")}'`)).join(', ');
      for (let i = 0; i < 7; i++) {
        const r = generic ? await c.query(`EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE own_${n}(${args})`) : await c.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${st.text}`, st.values);
        const j = r.rows[0]['QUERY PLAN'][0] as { 'Planning Time': number; 'Execution Time': number };
        const t = { plan: j['Planning Time'], exec: j['Execution Time'] };
        if (i >= 2 && t.plan + t.exec < best.plan + best.exec) best = t;
      }
      if (generic) await c.query('RESET plan_cache_mode');
      out.push({ ...best, prepared: st.name !== null, generic, text: st.text.slice(0, 120).replace(/\s+/g, ' ') });
    }
    return out;
  });
  // Planning counts even for a named statement: with parameters PostgreSQL keeps choosing a custom plan
  // (planned at each execution) unless a generic one is as cheap; the driver-side times above show which.
  const ownMs = explained.reduce((a, e) => a + e.plan + e.exec, 0);
  const runOnly = explained.reduce((a, e) => a + e.exec, 0);
  const httpP50 = percentile(http, 0.5);
  results.ratio = { runOnly, httpP50, roundTripsP50: percentile(roundTrips, 0.5), driverSqlP50: percentile(driverSql, 0.5), own: explained, ownMs, ratio: httpP50 / ownMs };
  console.log(`\n4. first page, one client, 200 requests: HTTP p50 ${fmt(httpP50, 2)} ms; ${percentile(roundTrips, 0.5)} SQL round trips per request (p50), ${fmt(percentile(driverSql, 0.5), 2)} ms of SQL as the driver waited for it`);
  // Where the driver's SQL time goes: each statement of the request, median over the 200 requests.
  const byStatement = new Map<string, number[]>();
  for (const p of perRequest) for (const x of p) (byStatement.get(x.text) ?? byStatement.set(x.text, []).get(x.text)!).push(x.ms);
  for (const [text, ms] of byStatement) {
    console.log(`   driver-side: ${ms.length} x, p50 ${fmt(percentile([...ms].sort((a, b) => a - b), 0.5), 2)} ms  ${text.slice(0, 90).replace(/\s+/g, ' ')}`);
  }
  for (const e of explained) console.log(`   own statement${e.generic ? ' (named, generic plan)' : e.prepared ? ' (named)' : ''}: plan ${fmt(e.plan, 2)} ms + run ${fmt(e.exec, 2)} ms  ${e.text}`);
  console.log(`   API time / its own SQL time = ${fmt(httpP50, 2)} / ${fmt(ownMs, 2)} = ${fmt(httpP50 / ownMs, 2)}x (target <= 1.5x); against the runs alone (plans reused): ${fmt(httpP50 / runOnly, 2)}x`);
} finally {
  await traced.stop();
  rmSync(trace, { force: true });
}

// The issue's table: what | target | measured | ratio to the target (>= 1 means met).
const r = results as {
  mix: { total: { perSecond: number; p95: number } };
  single: { kinds: (KindResult & { where: string })[] };
  lastName8: { perSecond: number; p95: number };
  ratio: { ratio: number };
};
const one = (kind: string, whereStarts = 'school'): KindResult => r.single.kinds.find((k) => k.kind === kind && k.where.startsWith(whereStarts)) ?? { kind, n: 0, p50: NaN, p95: NaN, perSecond: NaN, errors: 0, bytes: 0 } as unknown as KindResult;
const fm = one('fee management sorted by balance');
const fmBig = one('fee management sorted by balance', 'large');
const fd = one('fee defaulters report, first page');
const fdBig = one('fee defaulters report, first page', 'large');
const fi = one('counter finder by admission number');
const lines = [
  ['student list/search mix, 32 clients', '>= 1,500 req/s, p95 <= 15 ms', `${fmt(r.mix.total.perSecond, 0)} req/s, p95 ${fmt(r.mix.total.p95, 0)} ms`, `${fmt(r.mix.total.perSecond / 1500, 3)} (req/s), ${fmt(15 / r.mix.total.p95, 3)} (p95)`],
  ['last-name search, 8 clients, ~20k students (RosarioSIS: 83 req/s, p95 136 ms, from the issue)', '>= 830 req/s, p95 <= 27 ms', `${fmt(r.lastName8.perSecond, 0)} req/s, p95 ${fmt(r.lastName8.p95, 0)} ms`, `${fmt(r.lastName8.perSecond / 830, 3)}, ${fmt(27.2 / r.lastName8.p95, 3)}`],
  ['API time / its own SQL time, first page', '<= 1.5x', `${fmt(r.ratio.ratio, 2)}x`, fmt(1.5 / r.ratio.ratio, 2)],
  ['fee management sorted by balance (p50/p95)', '<= 50 ms', `${fmt(fm.p50, 0)}/${fmt(fm.p95, 0)} ms; ${fmt(fmBig.p50, 0)}/${fmt(fmBig.p95, 0)} ms (double size)`, `${fmt(50 / fm.p95, 3)}; ${fmt(50 / fmBig.p95, 3)}`],
  ['fee defaulters report, first page (p50/p95)', '<= 50 ms', `${fmt(fd.p50, 0)}/${fmt(fd.p95, 0)} ms; ${fmt(fdBig.p50, 0)}/${fmt(fdBig.p95, 0)} ms (double size)`, `${fmt(50 / fd.p95, 3)}; ${fmt(50 / fdBig.p95, 3)}`],
  ['counter finder by admission number (p50/p95)', '<= 10 ms', `${fmt(fi.p50, 1)}/${fmt(fi.p95, 1)} ms`, fmt(10 / fi.p95, 3)],
];
console.log(`\n| what | target | measured | ratio to target (>= 1 met) |\n|---|---|---|---|\n${lines.map((l) => `| ${l.join(' | ')} |`).join('\n')}`);
if (args.json) writeFileSync(args.json, JSON.stringify(results, null, 2));
