import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { openDatabase, type Database } from '../src/db/client';
import { attachRealtime, type Realtime } from '../src/realtime';
import type { FastifyInstance } from 'fastify';
import { collect, connectSocket, sleep } from './messaging-fixture';
import { staffAccount } from './staff-account';
import { call, login, redisAnswers, startTestServer, type Session, type TestServer } from './test-server';

/**
 * Two server apps on one PostgreSQL and one Redis, each with its own socket server (as two processes behind a
 * load balancer): a message POSTed to A reaches the addressee's socket held by B, and nobody else's. The
 * adapter's channel prefix is this run's own, so test files running side by side do not hear each other.
 */
const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
describe.runIf(!!process.env.DATABASE_URL)('realtime across server processes (PostgreSQL and Redis)', () => {
  let a: TestServer;
  let b: FastifyInstance;
  let bDb: Database;
  let rtA: Realtime | undefined;
  let rtB: Realtime | undefined;
  let redisUp = false;
  let urlB = '';
  const sockets: Socket[] = [];
  const redisKey = `campus-test-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    redisUp = await redisAnswers(redisUrl);
    a = await startTestServer('postgres', { redisUrl });
    bDb = await openDatabase({ databaseUrl: a.cfg.databaseUrl, dataDir: a.cfg.dataDir });
    b = await buildApp(a.cfg, bDb, { logger: false });
    await b.ready();
    if (!redisUp) return;
    rtA = await attachRealtime(a.app, a.database.db, a.cfg, { redisKey });
    rtB = await attachRealtime(b, bDb.db, a.cfg, { redisKey });
    await b.listen({ port: 0, host: '127.0.0.1' });
    urlB = `http://127.0.0.1:${(b.server.address() as AddressInfo).port}`;
  }, 120_000);
  afterAll(async () => {
    for (const s of sockets) s.close();
    rtA?.disconnectAll();
    rtB?.disconnectAll();
    await b?.close();
    await bDb?.close();
    await rtB?.close();
    await a?.close();
    await rtA?.close();
  });

  it('a message sent through A reaches the addressee on B, and not a third user', async (ctx) => {
    if (!redisUp) ctx.skip();
    const admin: Session = await login(a.app);
    const teacher = (await staffAccount(a.app, admin, { 'institute/circular': 'view' }, false, 'RT')).session;
    const other = (await staffAccount(a.app, admin, { 'institute/circular': 'view' }, false, 'RX')).session;
    const open = async (s: Session) => {
      const socket = await connectSocket(urlB, s.token, s.instCd);
      sockets.push(socket);
      return socket;
    };
    const teacherGot = collect(await open(teacher), 'messageSent');
    const otherGot = collect(await open(other), 'messageSent');
    const adminGot = collect(await open(admin), 'messageSent');

    const res = await call(a.app, admin, 'POST', '/api/message/', { to: teacher.usr_cd, message: 'Across the processes.' });
    expect(res.statusCode, res.body).toBe(201);
    // A's own process holds no socket of the teacher: it asked B through Redis.
    expect(res.json<{ delivered: boolean }>().delivered).toBe(true);
    await expect.poll(() => teacherGot.length, { timeout: 10_000 }).toBe(1);
    expect(teacherGot[0]).toMatchObject({ to: teacher.usr_cd, message: 'Across the processes.', from_usr_cd: admin.usr_cd });
    await sleep(300);
    expect(otherGot).toEqual([]);
    expect(adminGot).toEqual([]);

    // An institute-wide event raised on A reaches B's sockets of that institute.
    const sync = collect(sockets[1], 'studentFeegroupSync');
    a.app.realtimeEvents.toInstitute(other.instCd, 'studentFeegroupSync', { cls_cd: 5 });
    await expect.poll(() => sync.length, { timeout: 10_000 }).toBe(1);
  }, 120_000);

  it('with a second server PROCESS (npm start on the same PostgreSQL and Redis): the message reaches its socket', async (ctx) => {
    if (!redisUp) ctx.skip();
    const port = 4100 + Math.floor(Math.random() * 400);
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      cwd: join(import.meta.dirname, '../../..'),
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: a.cfg.databaseUrl, REDIS_URL: redisUrl, REDIS_PREFIX: redisKey, WEB_DIST: '', LOG_LEVEL: 'warn' },
    });
    try {
      let out = '';
      child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
      await expect.poll(() => out, { timeout: 120_000, interval: 200 }).toMatch(/Campus is running/);
      const admin = await login(a.app);
      const teacher = (await staffAccount(a.app, admin, { 'institute/circular': 'view' }, false, 'RP')).session;
      const other = (await staffAccount(a.app, admin, { 'institute/circular': 'view' }, false, 'RQ')).session;
      const url = `http://127.0.0.1:${port}`;
      const tSock = await connectSocket(url, teacher.token, teacher.instCd);
      const oSock = await connectSocket(url, other.token, other.instCd);
      sockets.push(tSock, oSock);
      const got = collect(tSock, 'messageSent');
      const notMine = collect(oSock, 'messageSent');
      const res = await call(a.app, admin, 'POST', '/api/message/', { to: teacher.usr_cd, message: 'From the other process.' });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json<{ delivered: boolean }>().delivered).toBe(true);
      await expect.poll(() => got.length, { timeout: 10_000 }).toBe(1);
      expect(got[0]).toMatchObject({ to: teacher.usr_cd, message: 'From the other process.' });
      await sleep(300);
      expect(notMine).toEqual([]);
    } finally {
      if (child.exitCode === null) {
        const gone = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await gone;
      }
    }
  }, 240_000);
});
