import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceLabel } from '../src/access/session';
import { sql } from '../src/db/client';
import { attachRealtime, type Realtime } from '../src/realtime';
import { staffAccount, STAFF_PASSWORD } from './staff-account';
import { backends, call, login, redisAnswers, startTestServer, type Session, type TestServer } from './test-server';

type Row = Record<string, unknown>;
const SESSIONS = '/api/employee/sessions/';
const CHROME_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

const at = (s: Session): Session => ({ ...s, modulename: 'employee', pagename: 'profile' });
/** Whether the session still opens its owner's own row (My Profile). */
const alive = async (srv: TestServer, s: Session) => (await call(srv.app, at(s), 'GET', `/api/employee/${s.usr_cd}`)).statusCode === 200;

/** A socket of this session; resolves once connected, rejects with the refusal's message. */
function connect(url: string, token: string, origin?: string): Promise<Socket> {
  const socket = io(url, {
    path: '/socket.io',
    auth: { token },
    transports: ['websocket'],
    reconnection: false,
    extraHeaders: origin ? { origin } : {},
  });
  return new Promise((resolve, reject) => {
    socket.on('connect', () => resolve(socket));
    socket.on('connect_error', (err) => {
      socket.close();
      reject(err);
    });
  });
}

const disconnected = (socket: Socket): Promise<string> => new Promise((r) => socket.on('disconnect', (reason) => r(reason)));

describe('device labels', () => {
  it('names the browser and system of common User-Agents', () => {
    expect(deviceLabel(CHROME_WINDOWS)).toBe('Chrome on Windows');
    expect(deviceLabel('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0')).toBe('Edge on Windows');
    expect(deviceLabel('Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1')).toBe('Safari on iPhone');
    expect(deviceLabel('Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36')).toBe('Chrome on Android');
    expect(deviceLabel('Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0')).toBe('Firefox on Linux');
    expect(deviceLabel('curl/8.5.0')).toBe('curl/8.5.0');
    expect(deviceLabel('')).toBe('Unknown device');
  });
});

for (const backend of backends) {
  describe(`signed-in devices, the per-user limit and the realtime socket (${backend})`, () => {
    let srv: TestServer;
    let admin: Session;
    let realtime: Realtime;
    let url: string;

    beforeAll(async () => {
      srv = await startTestServer(backend, { sessionMaxPerUser: 5, allowedOrigins: ['https://office.example.org'] });
      realtime = await attachRealtime(srv.app, srv.database.db, srv.cfg, { sweepMs: 300 });
      await srv.app.listen({ port: 0, host: '127.0.0.1' });
      url = `http://127.0.0.1:${(srv.app.server.address() as AddressInfo).port}`;
      admin = await login(srv.app);
    });
    afterAll(async () => {
      realtime?.disconnectAll();
      await srv?.close();
      await realtime?.close();
    });

    const signIn = async (usr_nm: string, userAgent = CHROME_WINDOWS): Promise<Session> => {
      const res = await srv.app.inject({ method: 'POST', url: '/api/employee/login/', payload: { usr_nm, usr_pwd: STAFF_PASSWORD }, headers: { 'user-agent': userAgent } });
      expect(res.statusCode, res.body).toBe(200);
      const b = res.json<{ usr_cd: number; usr_nm: string; usr_token: string; usr_inst_cd: number }>();
      return { usr_cd: b.usr_cd, usr_nm: b.usr_nm, token: b.usr_token, xsrf: res.cookies.find((c) => c.name === 'XSRF-TOKEN')?.value ?? '', instCd: b.usr_inst_cd };
    };
    const clerk = async () => (await staffAccount(srv.app, admin, { 'master/religion': 'view' }, false, 'SES')).session;

    it('lists one’s own live sessions (device, address, times, the current one marked) and ends another, which then answers 401', async () => {
      const first = await clerk();
      const phone = await signIn(first.usr_nm, 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1');
      const desk = await signIn(first.usr_nm);
      const res = await call(srv.app, desk, 'GET', SESSIONS);
      expect(res.statusCode, res.body).toBe(200);
      const rows = res.json<{ rows: Row[] }>().rows;
      expect(rows).toHaveLength(3);
      expect(rows.filter((r) => r.is_current)).toHaveLength(1);
      const current = rows.find((r) => r.is_current)!;
      expect(current.sess_dev).toBe('Chrome on Windows');
      expect(rows.map((r) => r.sess_dev)).toContain('Safari on iPhone');
      expect(current.sess_ip).toBe('127.0.0.1');
      expect(typeof current.sess_seen_at).toBe('string');
      expect(typeof current.sess_crt_at).toBe('string');
      // No token and no token hash ever leaves: only the row's number.
      expect(res.body).not.toMatch(/[0-9a-f]{64}/);
      expect(res.body).not.toContain(desk.token);
      expect(Object.keys(current).sort()).toEqual(['is_current', 'sess_cd', 'sess_crt_at', 'sess_dev', 'sess_ip', 'sess_pfm', 'sess_seen_at']);

      const phoneRow = rows.find((r) => r.sess_dev === 'Safari on iPhone')!;
      const ended = await call(srv.app, desk, 'DELETE', `${SESSIONS}${String(phoneRow.sess_cd)}`);
      expect(ended.statusCode, ended.body).toBe(200);
      expect(await alive(srv, phone)).toBe(false);
      expect((await call(srv.app, at(phone), 'GET', `/api/employee/${phone.usr_cd}`)).statusCode).toBe(401);
      expect(await alive(srv, desk)).toBe(true);
      expect(await alive(srv, first)).toBe(true);
      expect((await call(srv.app, desk, 'GET', SESSIONS)).json<{ rows: Row[] }>().rows).toHaveLength(2);
      // Ending it again: already gone.
      expect((await call(srv.app, desk, 'DELETE', `${SESSIONS}${String(phoneRow.sess_cd)}`)).statusCode).toBe(404);
    });

    it('refuses to end another user’s session (404, and it goes on) and a malformed id (400)', async () => {
      const mine = await clerk();
      const theirs = await clerk();
      const theirRow = (await call(srv.app, theirs, 'GET', SESSIONS)).json<{ rows: Row[] }>().rows[0];
      const res = await call(srv.app, mine, 'DELETE', `${SESSIONS}${String(theirRow.sess_cd)}`);
      expect(res.statusCode).toBe(404);
      expect(res.json<Row>().message).toBe('This session was not found or has already ended.');
      expect(await alive(srv, theirs)).toBe(true);
      expect((await call(srv.app, mine, 'DELETE', `${SESSIONS}abc`)).statusCode).toBe(400);
      // Nor does one see theirs in one's own list.
      const listed = (await call(srv.app, mine, 'GET', SESSIONS)).json<{ rows: Row[] }>().rows.map((r) => r.sess_cd);
      expect(listed).not.toContain(theirRow.sess_cd);
    });

    it('keeps at most 5 live sessions per user: the sixth sign-in ends the least recently used', async () => {
      const s1 = await clerk();
      const others = [];
      for (let i = 0; i < 4; i++) others.push(await signIn(s1.usr_nm));
      const [s2, s3, s4, s5] = others;
      // s2, signed in after s1, was last used before it: last use is what counts, not creation.
      await srv.database.db.execute(sql`UPDATE session SET sess_seen_at = now() - interval '30 minutes' WHERE usr_cd = ${s1.usr_cd} AND sess_token_hash = encode(sha256(convert_to(${s2.token}, 'UTF8')), 'hex')`);
      await srv.database.db.execute(sql`UPDATE session SET sess_seen_at = now() - interval '5 seconds' WHERE usr_cd = ${s1.usr_cd} AND sess_token_hash = encode(sha256(convert_to(${s1.token}, 'UTF8')), 'hex')`);
      const s6 = await signIn(s1.usr_nm);
      for (const s of [s1, s3, s4, s5, s6]) expect(await alive(srv, s)).toBe(true);
      expect(await alive(srv, s2)).toBe(false);
      expect((await call(srv.app, s6, 'GET', SESSIONS)).json<{ rows: Row[] }>().rows).toHaveLength(5);
      expect(await alive(srv, s2)).toBe(false);
      // Another user's sessions do not count.
      expect(await alive(srv, admin)).toBe(true);
    });

    it('closes the session’s socket on logout, on ending it from the list, on a password change and when it expires; other sessions’ sockets stay', async () => {
      const a = await clerk();
      const b = await signIn(a.usr_nm);
      const c = await signIn(a.usr_nm);
      const d = await signIn(a.usr_nm);
      const sa = await connect(url, a.token);
      const sb = await connect(url, b.token);
      const sc = await connect(url, c.token);
      const sd = await connect(url, d.token);

      const aGone = disconnected(sa);
      expect((await call(srv.app, a, 'GET', `/api/employee/logout/?usr_nm=${a.usr_nm}`)).statusCode).toBe(200);
      expect(await aGone).toBe('io server disconnect');
      expect(sb.connected && sc.connected && sd.connected).toBe(true);

      // b's number, as c's list shows it (b's own list marks it current).
      const bRow = (await call(srv.app, b, 'GET', SESSIONS)).json<{ rows: Row[] }>().rows.find((r) => r.is_current)!;
      const bGone = disconnected(sb);
      expect((await call(srv.app, c, 'DELETE', `${SESSIONS}${String(bRow.sess_cd)}`)).statusCode).toBe(200);
      expect(await bGone).toBe('io server disconnect');
      expect(sc.connected && sd.connected).toBe(true);

      // Changing one's password keeps the session that changed it (c) and ends the others (d).
      const dGone = disconnected(sd);
      const changed = await call(srv.app, c, 'POST', '/api/employee/password/', { usr_pwd_current: STAFF_PASSWORD, usr_pwd: 'Sessions-New-Pass-7' });
      expect(changed.statusCode, changed.body).toBe(200);
      expect(await dGone).toBe('io server disconnect');
      expect(sc.connected).toBe(true);

      // Expiry needs no request: the sweep finds it.
      const cGone = disconnected(sc);
      await srv.database.db.execute(sql`UPDATE session SET sess_expires_at = now() - interval '1 second' WHERE sess_token_hash = encode(sha256(convert_to(${c.token}, 'UTF8')), 'hex')`);
      expect(await cGone).toBe('io server disconnect');

      // An ended session cannot open a new one.
      await expect(connect(url, a.token)).rejects.toThrow('unauthorized');
    });

    it('closes the sockets of a user whose login an administrator turns off', async () => {
      const s = await clerk();
      const socket = await connect(url, s.token);
      const gone = disconnected(socket);
      const row = (await call(srv.app, at(admin), 'GET', `/api/employee/${s.usr_cd}`)).json<Row>();
      const off = await call(srv.app, at(admin), 'PUT', `/api/employee/${s.usr_cd}`, { usr_is_lgn: false, row_ver: row.row_ver });
      expect(off.statusCode, off.body).toBe(200);
      expect(await gone).toBe('io server disconnect');
    });

    it('accepts the socket from its own origin or an allowed one, and refuses a foreign origin', async () => {
      const s = await clerk();
      const own = await connect(url, s.token, url);
      const allowed = await connect(url, s.token, 'https://office.example.org');
      const noOrigin = await connect(url, s.token);
      for (const x of [own, allowed, noOrigin]) x.close();
      await expect(connect(url, s.token, 'https://evil.example.com')).rejects.toThrow();
      await expect(connect(url, s.token, `http://127.0.0.1.evil.example.com`)).rejects.toThrow();
      await expect(connect(url, s.token, 'null')).rejects.toThrow();
    });
  });
}

/**
 * Two server processes sharing PostgreSQL and Redis: a session ended on one closes its socket held by the
 * other. Needs DATABASE_URL (PGlite cannot be shared between processes) and a Redis (REDIS_URL or 127.0.0.1).
 */
const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
describe.runIf(!!process.env.DATABASE_URL)('a session ended on one process closes its socket on another (PostgreSQL and Redis)', () => {
  let srv: TestServer;
  let realtime: Realtime | undefined;
  let redisUp = false;
  let child: ReturnType<typeof spawn> | undefined;

  beforeAll(async () => {
    redisUp = await redisAnswers(redisUrl);
    srv = await startTestServer('postgres', { redisUrl });
    if (redisUp) realtime = await attachRealtime(srv.app, srv.database.db, srv.cfg);
  }, 120_000);
  afterAll(async () => {
    child?.kill('SIGTERM');
    realtime?.disconnectAll();
    await srv?.close();
    await realtime?.close();
  });

  it('closes the socket on the other process at logout', async (ctx) => {
    if (!redisUp) ctx.skip();
    const port = 3990 + Math.floor(Math.random() * 9);
    child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      cwd: join(import.meta.dirname, '../../..'),
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: srv.cfg.databaseUrl, REDIS_URL: redisUrl, WEB_DIST: '', LOG_LEVEL: 'warn' },
    });
    let out = '';
    child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
    await expect.poll(() => out, { timeout: 120_000, interval: 200 }).toMatch(/Campus is running/);
    const s = await login(srv.app);
    const socket = await connect(`http://127.0.0.1:${port}`, s.token);
    const gone = disconnected(socket);
    // Logged out on THIS process: the other one holds the socket.
    expect((await call(srv.app, s, 'GET', `/api/employee/logout/?usr_nm=${s.usr_nm}`)).statusCode).toBe(200);
    expect(await gone).toBe('io server disconnect');
  }, 180_000);
});
