/**
 * The fee counter under load (issue 10): 100 cashiers, each signed in, each posting the counter's collect
 * call (POST /api/fee_collection/collect, a distinct idempotency key per bill, as the web counter sends it)
 * for a different child with dues, for 20 s, against the API server in its own process on the scale
 * database. Prints bills/s and latency, then reads every bill number back from the database: duplicates
 * and gaps per institute and year.
 *
 *   npm run bench:counter                        # on campus_bench (built by bench:scale if missing)
 *   npm run bench:counter -- --cashiers 100 --seconds 20 --db campus_bench
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { headersOf, signIn, type ApiSession } from '../lib/api-session';
import { gitCommit, urlOf, withClient } from '../lib/bench-db';
import { runLoad } from '../lib/load-driver';
import { BENCH_ADMIN_PASSWORD, repoRoot, startServer } from '../lib/server-process';
import { readTrace, topStatements } from '../lib/sql-trace-summary';
import { fmt, loadAverage, table } from '../lib/stats';
import { ensureScaleDatabase } from '../scale/generate-scale';

const { values: args } = parseArgs({
  options: {
    students: { type: 'string', default: '200000' },
    institutes: { type: 'string', default: '20' },
    db: { type: 'string', default: 'campus_bench' },
    cashiers: { type: 'string', default: '100' },
    seconds: { type: 'string', default: '20' },
    // Trace the server's SQL (bench/lib/sql-trace.hook.mjs) and print where the bills' database time went.
    trace: { type: 'boolean', default: false },
  },
});
const CASHIERS = Number(args.cashiers);
const SECONDS = Number(args.seconds);
const url = urlOf(args.db!);

console.log(`bench:counter  commit ${await gitCommit(repoRoot)}  ${new Date().toISOString()}`);
await ensureScaleDatabase({ database: args.db!, students: Number(args.students), institutes: Number(args.institutes), regenerate: false });

// Children of the demo school with a fee line still unpaid (no bill line, no discount), one line each: a
// cashier takes 1.00 on it, so a line stays payable however many rounds the run makes.
const plan = await withClient(url, async (c) => {
  const [scope] = (
    await c.query<{ inst_cd: number; acdm_cd: number }>(
      `SELECT a.inst_cd, a.acdm_cd FROM academic a WHERE a.acdm_sts AND a.inst_cd = (SELECT min(inst_cd) FROM institute)`,
    )
  ).rows;
  const [cash] = (await c.query<{ tnd_typ_cd: number }>(`SELECT tnd_typ_cd FROM tender_type WHERE inst_cd = $1 AND tnd_typ_nm = 'Cash' AND tnd_typ_sts`, [scope.inst_cd])).rows;
  const lines = (
    await c.query<{ stud_cd: number; fee_cd: number }>(
      `SELECT DISTINCT ON (s.stud_cd) s.stud_cd, f.fee_cd
       FROM student s JOIN fee f ON f.cls_cd = s.cls_cd AND f.acdm_cd = s.acdm_cd AND f.inst_cd = s.inst_cd
       JOIN fee_group g ON g.fee_grp_cd = f.fee_grp_cd
       WHERE s.inst_cd = $1 AND s.acdm_cd = $2 AND least(f.fee_amt, f.fee_amt_aftr_prmtn) >= 100
         AND NOT EXISTS (SELECT 1 FROM fee_collection_line l WHERE l.stud_cd = s.stud_cd AND l.fee_cd = f.fee_cd)
         AND NOT EXISTS (SELECT 1 FROM student_discount d WHERE d.stud_cd = s.stud_cd AND d.fee_cd = f.fee_cd)
       ORDER BY s.stud_cd, g.fee_grp_fee_str_dt, f.fee_cd`,
      [scope.inst_cd, scope.acdm_cd],
    )
  ).rows.sort((a, b) => ((a.stud_cd * 2654435761) % 4294967296) - ((b.stud_cd * 2654435761) % 4294967296));
  return { ...scope, cash: cash.tnd_typ_cd, lines };
});
console.log(`school ${plan.inst_cd}, year ${plan.acdm_cd}: ${plan.lines.length} children with an unpaid line; tender Cash (${plan.cash})`);

const numbers = (sqlWhere = '') =>
  withClient(url, async (c) =>
    (
      await c.query<{ inst_cd: number; acdm_cd: number; bills: string; numbers: string; lo: number; hi: number; dups: string; gaps: string }>(
        `SELECT inst_cd, acdm_cd, count(*) AS bills, count(DISTINCT fee_coll_bill_no) AS numbers, min(fee_coll_bill_no) AS lo, max(fee_coll_bill_no) AS hi,
                count(*) - count(DISTINCT fee_coll_bill_no) AS dups, max(fee_coll_bill_no) - min(fee_coll_bill_no) + 1 - count(DISTINCT fee_coll_bill_no) AS gaps
         FROM fee_collection_bill ${sqlWhere} GROUP BY 1, 2 ORDER BY 1, 2`,
      )
    ).rows,
  );
const before = await numbers();
const beforeOfSchool = before.find((b) => b.inst_cd === plan.inst_cd && b.acdm_cd === plan.acdm_cd);

const traceFile = `/tmp/bench-counter-trace-${process.pid}.jsonl`;
rmSync(traceFile, { force: true });
const server = await startServer({ databaseUrl: url, sqlTrace: args.trace ? traceFile : undefined });
const runStart = Date.now();
try {
  const t0 = performance.now();
  const cashiers: ApiSession[] = [];
  for (let i = 0; i < CASHIERS; i += 5) {
    cashiers.push(...(await Promise.all(Array.from({ length: Math.min(5, CASHIERS - i) }, () => signIn(server.base, 'ADMIN', BENCH_ADMIN_PASSWORD, plan.inst_cd, plan.acdm_cd)))));
  }
  console.log(`${CASHIERS} cashiers signed in (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  const load = await loadAverage();
  const statuses = new Map<number, number>();
  const r = await runLoad(server.base, {
    connections: CASHIERS,
    seconds: SECONDS,
    warmupSeconds: 2,
    next: (c, i) => {
      const line = plan.lines[(c + CASHIERS * i) % plan.lines.length];
      return {
        kind: 'bill',
        method: 'POST',
        path: '/api/fee_collection/collect',
        headers: { ...headersOf(cashiers[c], 'quick_fee_collection', 'POST', 'fee'), 'content-type': 'application/json' },
        body: JSON.stringify({ stud_cd: line.stud_cd, tnd_typ_cd: plan.cash, reference: null, lines: [{ fee_cd: line.fee_cd, amount: '1.00' }], late_fees: [], idempotency_key: randomUUID() }),
        ok: (s) => {
          statuses.set(s, (statuses.get(s) ?? 0) + 1);
          return s === 201;
        },
      };
    },
  });
  const k = r.kinds[0];
  console.log(`\n${CASHIERS} cashiers, ${SECONDS} s (load before ${load}; after ${await loadAverage()})`);
  console.log(table(['', 'bills/s', 'p50 ms', 'p95 ms', 'p99 ms', 'refused'], [['bills', fmt(k.perSecond), fmt(k.p50), fmt(k.p95), fmt(k.p99), k.errors]]));
  if (k.firstError) console.log(`first refusal: ${k.firstError}`);
  console.log(`answers (incl. warm-up): ${[...statuses].map(([s, n]) => `${s}: ${n}`).join(', ')}`);
  const after = await numbers();
  const school = after.find((b) => b.inst_cd === plan.inst_cd && b.acdm_cd === plan.acdm_cd)!;
  const added = Number(school.bills) - Number(beforeOfSchool?.bills ?? 0);
  console.log(`\nbill numbers of school ${plan.inst_cd}, year ${plan.acdm_cd}: ${added} new bills (201 answers: ${statuses.get(201) ?? 0}); numbers ${school.lo}..${school.hi}, duplicates ${school.dups}, gaps ${school.gaps}`);
  const bad = after.filter((b) => Number(b.dups) > 0 || Number(b.gaps) > 0);
  console.log(bad.length ? `institute-years with duplicates or gaps:\n${table(['inst', 'year', 'bills', 'dups', 'gaps'], bad.map((b) => [b.inst_cd, b.acdm_cd, b.bills, b.dups, b.gaps]))}` : 'every institute-year: 0 duplicates, 0 gaps');
  console.log(
    `\n| what | target | measured | ratio to target (>= 1 met) |\n|---|---|---|---|\n| fee counter, ${CASHIERS} parallel cashiers | >= 300 bills/s, 0 duplicate or missing numbers | ${fmt(k.perSecond, 0)} bills/s, p95 ${fmt(k.p95, 0)} ms, ${school.dups} duplicates, ${school.gaps} gaps, ${k.errors} refused | ${fmt(k.perSecond / 300, 3)} |`,
  );
  if (args.trace) {
    const stmts = readTrace(traceFile, runStart);
    const bills = statuses.get(201) ?? 1;
    console.log(`\nSQL of the run as the server's driver waited for it: ${stmts.length} statements, ${fmt(stmts.length / bills, 1)} per bill`);
    console.log(topStatements(stmts));
  }
} finally {
  await server.stop();
  rmSync(traceFile, { force: true });
}
