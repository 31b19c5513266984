import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { io } from 'socket.io-client';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../../..');

describe('the server process', () => {
  it('prints the admin login on first start, and on SIGTERM finishes the request in flight before exiting, open browser sockets and all', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'campus-shutdown-'));
    const port = 3900 + Math.floor(Math.random() * 90);
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      cwd: root,
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, ADMIN_PASSWORD: '', DATABASE_URL: '', REDIS_URL: '', WEB_DIST: '', LOG_LEVEL: 'warn', LOGIN_FAILURE_DELAY_MS: '2000' },
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    try {
      // A first start migrates and seeds a new data folder: slow on a busy machine, so wait generously.
      await expect.poll(() => out, { timeout: 150_000, interval: 200 }).toMatch(/Campus is running/);
      const pwd = /password: (\S+)\s+\(shown only now/.exec(out)?.[1];
      expect(pwd, out).toBeTruthy();
      // A signed-in browser holds a websocket open: it must not keep the process from stopping.
      const signedIn = await fetch(`http://127.0.0.1:${port}/api/employee/login/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ usr_nm: 'ADMIN', usr_pwd: pwd }),
      });
      const { usr_token } = (await signedIn.json()) as { usr_token: string };
      const socket = io(`http://127.0.0.1:${port}`, { path: '/socket.io', auth: { token: usr_token }, transports: ['websocket'], reconnection: false });
      await new Promise<void>((resolve, reject) => {
        socket.on('connect', () => resolve());
        socket.on('connect_error', reject);
      });
      const socketClosed = new Promise<void>((r) => socket.on('disconnect', () => r()));
      // After two failures a sign-in is held back (LOGIN_FAILURE_DELAY_MS): a request surely in flight.
      const attempt = () =>
        fetch(`http://127.0.0.1:${port}/api/employee/login/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ usr_nm: 'ADMIN', usr_pwd: 'wrong password' }),
        });
      expect((await attempt()).status).toBe(401);
      expect((await attempt()).status).toBe(401);
      const started = Date.now();
      const inflight = attempt();
      await new Promise((r) => setTimeout(r, 500));
      child.kill('SIGTERM');
      const res = await inflight;
      expect(res.status).toBe(401);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1500);
      expect(await exited).toBe(0);
      // Exit code 0 means the close finished by itself: a held socket would have hit the 20 s deadline (exit 1).
      await socketClosed;
      await expect(fetch(`http://127.0.0.1:${port}/api/health`)).rejects.toThrow();
    } catch (err) {
      throw new Error(`${String(err)}\n--- server output ---\n${out}`);
    } finally {
      child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 240_000);
});
