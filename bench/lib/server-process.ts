/**
 * The API server as its own process, started the way `npm run serve` starts it (NODE_ENV=production), on a
 * database chosen by the bench, so the bench's client never shares the server's event loop.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { createServer } from 'node:net';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '../..');

export interface ServerProcess {
  base: string;
  /** Milliseconds from spawn to a healthy answer. */
  startMs: number;
  log: () => string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

export interface StartOptions {
  databaseUrl?: string;
  /** PGlite folder when no databaseUrl. */
  dataDir?: string;
  /** Where the repository to run is (a clean worktree for an 'after' run); this one by default. */
  root?: string;
  /** File to append the server's SQL statements to (bench/lib/sql-trace.hook.mjs). */
  sqlTrace?: string;
  env?: Record<string, string>;
}

export async function startServer(o: StartOptions): Promise<ServerProcess> {
  const root = o.root ?? repoRoot;
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    ADMIN_PASSWORD: BENCH_ADMIN_PASSWORD,
    DEMO_PASSWORD: BENCH_DEMO_PASSWORD,
    DATABASE_URL: o.databaseUrl ?? '',
    // Every bench client signs in as ADMIN: one login standing for many clerks (see raisePerUserGuards).
    SESSION_MAX_PER_USER: '1000',
    ...(o.dataDir ? { DATA_DIR: o.dataDir } : {}),
    ...(o.env ?? {}),
  };
  if (o.sqlTrace) {
    env.BENCH_SQL_TRACE = o.sqlTrace;
    env.NODE_OPTIONS = `${env.NODE_OPTIONS ?? ''} --import ${join(repoRoot, 'bench/lib/sql-trace.hook.mjs')}`.trim();
  }
  const t0 = performance.now();
  // Its own process group, so stop() ends npm, the shell and node together and nothing else.
  const child: ChildProcess = spawn('npm', ['run', 'serve', '--silent'], { cwd: root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const keep = (b: Buffer) => {
    out = (out + b.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exited = false;
  if (child.pid !== undefined) running.add(child.pid);
  child.on('exit', () => {
    exited = true;
    if (child.pid !== undefined) running.delete(child.pid);
  });
  const base = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    if (exited || child.pid === undefined) return;
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      return;
    }
    for (let i = 0; i < 100 && !exited; i++) await new Promise((r) => setTimeout(r, 100));
    if (!exited) process.kill(-child.pid, 'SIGKILL');
  };
  const deadline = Date.now() + 300_000;
  for (;;) {
    if (exited) throw new Error(`the server exited before it was healthy:\n${out}`);
    try {
      const r = await fetch(`${base}/api/health`);
      if (r.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the server was not healthy after 300 s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { base, startMs: performance.now() - t0, log: () => out, stop };
}

/** Process groups of servers still running: ended with the bench if it is interrupted. */
const running = new Set<number>();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    for (const pid of running) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
    process.exit(130);
  });
}

export const BENCH_ADMIN_PASSWORD = 'Bench-Admin-Pass-1';
export const BENCH_DEMO_PASSWORD = 'Bench-Demo-Pass-1';
