/**
 * Where the API server's CPU goes under the list/search mix (issue 10): the compiled server started with
 * `node --cpu-prof`, driven by the same six kinds as bench:scale for `--seconds`, then the profile's self time
 * summed by package (fastify, pg, drizzle-orm, zlib, ...) and by function.
 *
 *   npx tsx bench/scale/profile-mix.ts [--db campus_bench] [--seconds 15] [--connections 32] [--root /tmp/before-worktree]
 */
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { headersOf, signIn } from '../lib/api-session';
import { urlOf, withClient } from '../lib/bench-db';
import { runLoad } from '../lib/load-driver';
import { BENCH_ADMIN_PASSWORD, startServer } from '../lib/server-process';
import { fmt, loadAverage, table } from '../lib/stats';

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: 'campus_bench' },
    seconds: { type: 'string', default: '15' },
    connections: { type: 'string', default: '32' },
    /** Profile the server of another checkout (a worktree of the 'before' commit). */
    root: { type: 'string' },
  },
});
const url = urlOf(args.db!);
const dir = mkdtempSync('/tmp/campus-cpu-prof-');
const sample = await withClient(url, async (c) => {
  const { rows } = await c.query<{ inst_cd: number; acdm_cd: number }>(
    `SELECT s.inst_cd, s.acdm_cd FROM student s JOIN academic a ON a.acdm_cd = s.acdm_cd AND a.acdm_sts GROUP BY 1, 2 ORDER BY s.inst_cd LIMIT 1`,
  );
  const names = (await c.query<{ n: string; a: string }>(`SELECT stud_fs_nm AS n, stud_adm_cd AS a FROM student WHERE inst_cd = $1 AND acdm_cd = $2 ORDER BY md5(stud_cd::text) LIMIT 100`, [rows[0].inst_cd, rows[0].acdm_cd])).rows;
  return { ...rows[0], names };
});
const enc = encodeURIComponent;
const pick = <T>(l: readonly T[], i: number): T => l[i % l.length];
const paths: ((i: number) => string)[] = [
  () => '/api/student/?page=1&size=50',
  (i) => `/api/student/?q=${enc(pick(sample.names, i).n.slice(0, 4).toLowerCase())}&size=50`,
  (i) => `/api/student/?q=${enc(pick(sample.names, i).n.split(' ').at(-1)!.toLowerCase())}&size=50`,
  (i) => `/api/student/?q=${enc(pick(sample.names, i).a)}&size=50`,
  () => '/api/student/?page=100&size=50',
  () => '/api/student/?sort=sec_nm&dir=desc&size=50',
];
const server = await startServer({ databaseUrl: url, root: args.root, env: { CPU_PROF_DIR: dir, NODE_OPTIONS: `--import ${join(import.meta.dirname, 'cpu-prof.hook.mjs')}` } });
const load = await loadAverage();
let served = 0;
try {
  const s = await signIn(server.base, 'ADMIN', BENCH_ADMIN_PASSWORD, sample.inst_cd, sample.acdm_cd);
  const r = await runLoad(server.base, { connections: Number(args.connections), seconds: Number(args.seconds), next: (c, i) => ({ kind: 'mix', path: paths[(c + i) % paths.length](c * 1000 + i), headers: headersOf(s, 'profile') }) });
  served = r.total.n;
  console.log(`mix: ${fmt(r.total.perSecond)} req/s, p50 ${fmt(r.total.p50)} ms, p95 ${fmt(r.total.p95)} ms (load before ${load}, after ${await loadAverage()})`);
} finally {
  await server.stop();
}
// npm is a node process too: the server's profile is the biggest file.
const file = readdirSync(dir).map((f) => join(dir, f)).sort((a, b) => statSync(b).size - statSync(a).size)[0];
interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
const prof = JSON.parse(readFileSync(file, 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const selfUs = new Map<number, number>();
prof.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (prof.timeDeltas[i] ?? 0)));
const area = (u: string, fn: string): string => {
  if (fn === '(idle)') return '(idle)';
  if (fn === '(garbage collector)') return '(gc)';
  if (fn === '(program)') return '(program: native, zlib, sockets)';
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(u);
  if (m) return m[1];
  if (u.startsWith('node:')) return `node:${u.slice(5).split('/')[0]}`;
  if (u.includes('/dist/main.js')) return 'server bundle (app, engine, and bundled packages)';
  return u || `(native) ${fn}`;
};
const areas = new Map<string, number>();
const fns = new Map<string, number>();
let total = 0;
let idle = 0;
for (const [id, us] of selfUs) {
  const n = byId.get(id)!;
  const a = area(n.callFrame.url, n.callFrame.functionName);
  total += us;
  if (a === '(idle)') idle += us;
  areas.set(a, (areas.get(a) ?? 0) + us);
  const key = `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber}`;
  fns.set(key, (fns.get(key) ?? 0) + us);
}
const busy = total - idle;
console.log(`\nprofile ${file}: ${fmt(total / 1e6, 1)} s sampled, busy ${fmt(busy / 1e6, 1)} s; ${served} requests measured -> ${fmt(busy / 1000 / Math.max(1, served), 2)} ms busy CPU per request (warm-up included in busy)`);
console.log(table(['area', '% busy', 'ms'], [...areas].filter(([a]) => a !== '(idle)').sort((a, b) => b[1] - a[1]).slice(0, 20).map(([a, us]) => [a, fmt((100 * us) / busy, 1), fmt(us / 1000, 0)])));
console.log(table(['function (self time)', '% busy'], [...fns].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([f, us]) => [f.slice(0, 110), fmt((100 * us) / busy, 1)])));
