/**
 * Start to healthy on a fresh machine (issue 10): an empty PGlite folder, the server started as `npm run serve`
 * starts it (NODE_ENV=production, no ADMIN_PASSWORD or DEMO_PASSWORD, so the first start writes the demo and
 * prints the generated passwords), timed from spawn until GET /api/health answers 200. The server's own
 * 'started' log line gives where the time went: load (node and every module, transpiling included when run
 * through tsx), image (copying the migrated empty database made at build time, src/db/pglite-image.ts), open,
 * migrate, seed, demo, app (routes, hooks, realtime) and listen. 'outside' is what the
 * phases do not cover: the npm wrapper and the health poll. 'cpu' is the server's CPU time until it listened,
 * which a busy machine stretches far less than the wall clock.
 *
 *   npm run build:server && npx tsx bench/startup.bench.ts
 *   npx tsx bench/startup.bench.ts --runs 5 --cmd "npx tsx apps/server/src/main.ts"   (the old way, to compare)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gitCommit } from './lib/bench-db';
import { freePort, repoRoot } from './lib/server-process';
import { fmt, loadAverage, table } from './lib/stats';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    cmd: { type: 'string', default: 'npm run serve --silent' },
    // Another checkout to time the same way (a worktree of an older commit, for before/after on one load).
    root: { type: 'string' },
    target: { type: 'string', default: '8' },
  },
});
const runs = Number(args.runs);
const PHASES = ['load', 'image', 'open', 'migrate', 'seed', 'demo', 'app', 'listen'] as const;

interface Run {
  totalMs: number;
  phases: Partial<Record<(typeof PHASES)[number], number>>;
  /** The server process's CPU time (user + system) until it listened. */
  cpuMs?: number;
  bannerPrinted: boolean;
}

async function once(): Promise<Run> {
  const dataDir = mkdtempSync(join(tmpdir(), 'campus-startup-'));
  const port = await freePort();
  const [bin, ...rest] = args.cmd!.split(' ');
  const t0 = performance.now();
  // Its own process group, so the stop below ends npm, the shell and node together and nothing else.
  const child = spawn(bin, rest, {
    cwd: args.root ?? repoRoot,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', DATA_DIR: dataDir, DATABASE_URL: '', ADMIN_PASSWORD: '', DEMO_PASSWORD: '' },
  });
  let out = '';
  child.stdout.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr.on('data', (b: Buffer) => (out += b.toString()));
  let exited = false;
  child.on('exit', () => (exited = true));
  try {
    for (;;) {
      if (exited) throw new Error(`the server exited before it was healthy:\n${out.slice(-4000)}`);
      if (performance.now() - t0 > 180_000) throw new Error(`not healthy after 180 s:\n${out.slice(-4000)}`);
      const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.ok, () => false);
      if (ok) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    const totalMs = performance.now() - t0;
    // The 'started' line is logged just before the banner's last line; give the pipe a moment.
    for (let i = 0; i < 40 && !out.includes('"started"'); i++) await new Promise((r) => setTimeout(r, 25));
    const line = out.split('\n').find((l) => l.includes('"msg":"started"'));
    const started = line ? (JSON.parse(line) as { phasesMs: Run['phases']; cpuMs?: number }) : undefined;
    return { totalMs, phases: started?.phasesMs ?? {}, cpuMs: started?.cpuMs, bannerPrinted: /Sign in as login id: ADMIN\s+password: \S+/.test(out) };
  } finally {
    if (!exited && child.pid !== undefined) {
      process.kill(-child.pid, 'SIGTERM');
      for (let i = 0; i < 100 && !exited; i++) await new Promise((r) => setTimeout(r, 100));
      if (!exited) process.kill(-child.pid, 'SIGKILL');
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(`bench:startup  commit ${await gitCommit(args.root ?? repoRoot)}  ${new Date().toISOString()}  command: ${args.cmd}`);
const results: Run[] = [];
for (let i = 0; i < runs; i++) {
  const load = await loadAverage();
  const r = await once();
  results.push(r);
  if (!r.bannerPrinted) throw new Error('the first start did not print the ADMIN login and its password');
  console.log(`run ${i + 1}: ${fmt(r.totalMs / 1000, 2)} s  (load average before: ${load})`);
}
const sec = (ms: number | undefined) => (ms === undefined ? '-' : fmt(ms / 1000, 2));
const outside = (r: Run) => r.totalMs - PHASES.reduce((s, p) => s + (r.phases[p] ?? 0), 0);
const row = (r: Run) => [sec(r.totalMs), ...PHASES.map((p) => sec(r.phases[p])), sec(outside(r)), sec(r.cpuMs)];
const body = results.map((r, i) => [`run ${i + 1}`, ...row(r)]);
const median = [...results].sort((a, b) => a.totalMs - b.totalMs)[Math.floor(results.length / 2)];
body.push([`median (run ${results.indexOf(median) + 1})`, ...row(median)]);
console.log(`\nseconds, empty PGlite to /api/health 200 with the demo written\n`);
console.log(table(['', 'total', ...PHASES, 'outside', 'cpu'], body));
const target = Number(args.target);
console.log(`\nmedian ${sec(median.totalMs)} s, target <= ${target} s: ${fmt(median.totalMs / 1000 / target, 2)}x of target  (load average now: ${await loadAverage()})`);
