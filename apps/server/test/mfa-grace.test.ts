import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rows, sql } from '../src/db/client';
import { ADMIN_LOGIN } from '../src/db/seed';
import { staffAccount, STAFF_PASSWORD } from './staff-account';
import { ADMIN_PASSWORD, backends, call, login, startTestServer, type Session, type TestServer } from './test-server';

type Row = Record<string, unknown>;

const LOGIN = '/api/employee/login/';
const DAY = 24 * 3600 * 1000;

/**
 * Issue 11's breach: an administrator without a second factor signed in with the password alone for ever.
 * Now the first sign-in at which the factor is required sets a deadline (MFA_GRACE_DAYS, 14 by default); after
 * it the sign-in itself makes the user set the factor up.
 */
for (const backend of backends) {
  describe(`two-step sign-in: grace period, then set up at sign-in (${backend})`, () => {
    let srv: TestServer;
    let admin: Session;
    let clerkNm = '';
    let requiredNm = '';
    let requiredCd = 0;
    // The server's clock (Date) is moved: 30 s steps for fresh codes, days for the grace period.
    let clock = Date.now();
    const move = (ms: number) => {
      clock += ms;
      vi.setSystemTime(clock);
    };
    const codeNow = (secret: string, offsetSeconds = 0) => generate({ secret, epoch: Math.floor(clock / 1000) + offsetSeconds });
    const signIn = (usr_nm: string, usr_pwd: string, extra: Row = {}) => srv.app.inject({ method: 'POST', url: LOGIN, payload: { usr_nm, usr_pwd, ...extra } });
    const firstSignIn = clock;

    beforeAll(async () => {
      vi.useFakeTimers({ toFake: ['Date'], now: clock });
      srv = await startTestServer(backend);
      // The first sign-in of the administrator: the deadline is set from now.
      admin = await login(srv.app);
      // My Profile's card says until when as well.
      const status = (await call(srv.app, { ...admin, modulename: 'employee', pagename: 'profile' }, 'GET', '/api/employee/mfa/')).json<Row>();
      expect(status).toMatchObject({ enrolled: false, required: true });
      expect(Math.abs(new Date(String(status.grace_until)).getTime() - (firstSignIn + 14 * DAY))).toBeLessThan(60_000);
      const clerk = await staffAccount(srv.app, admin, { 'master/religion': 'view' }, false, 'MGC');
      clerkNm = clerk.session.usr_nm;
      const req = await staffAccount(srv.app, admin, { 'master/religion': 'view' }, false, 'MGR');
      requiredNm = req.session.usr_nm;
      requiredCd = req.usrCd;
      const at: Session = { ...admin, modulename: 'employee', pagename: 'profile' };
      expect((await call(srv.app, at, 'POST', `/api/employee/${requiredCd}/mfa_require`, {})).statusCode).toBe(200);
    });
    afterAll(async () => {
      vi.useRealTimers();
      await srv?.close();
    });

    it('within the grace period signs an administrator in with the password, reminded until when', async () => {
      move(3 * DAY);
      const r = await signIn(ADMIN_LOGIN, ADMIN_PASSWORD);
      expect(r.statusCode, r.body).toBe(200);
      const body = r.json<Row>();
      expect(body.mfa_enrol).toBe(true);
      // 14 days from the FIRST sign-in, not from this one.
      expect(Math.abs(new Date(String(body.mfa_grace_until)).getTime() - (firstSignIn + 14 * DAY))).toBeLessThan(60_000);
      expect(body.usr_token).toBeTruthy();
    });

    it('past the grace period the password alone gets the set-up (403 mfa_enrol, no session); a wrong first code 401, the right one signs in with 10 recovery codes', async () => {
      move(12 * DAY);
      const sessions = async () => (await rows<{ n: number }>(srv.database.db, sql`SELECT count(*)::int AS n FROM session WHERE usr_cd = ${admin.usr_cd}`))[0].n;
      const before = await sessions();
      const r = await signIn(ADMIN_LOGIN, ADMIN_PASSWORD);
      expect(r.statusCode, r.body).toBe(403);
      const ch = r.json<{ details: Row[]; secret: string; otpauth_uri: string; qr_svg: string; usr_token?: string }>();
      expect(ch.details[0]).toMatchObject({ field: 'mfa_enrol' });
      expect(ch.otpauth_uri).toContain(`secret=${ch.secret}`);
      expect(ch.qr_svg.startsWith('<svg')).toBe(true);
      expect(ch.usr_token).toBeUndefined();
      expect(await sessions()).toBe(before);

      // A wrong first code: 401 on mfa_enrol_code, a failed try in the login history, still no session.
      const wrong = await signIn(ADMIN_LOGIN, ADMIN_PASSWORD, { mfa_enrol_code: await codeNow(ch.secret, -600) });
      expect(wrong.statusCode, wrong.body).toBe(401);
      expect(wrong.json<{ details: Row[] }>().details[0]).toMatchObject({ field: 'mfa_enrol_code' });
      expect(await sessions()).toBe(before);
      const [failed] = await rows<{ n: number }>(srv.database.db, sql`SELECT count(*)::int AS n FROM login_history WHERE usr_cd = ${admin.usr_cd} AND log_hsty_typ = 'FAILED'`);
      expect(failed.n).toBe(1);

      // Each challenge replaces the pending secret: the first one's code no longer sets it up.
      const again = await signIn(ADMIN_LOGIN, ADMIN_PASSWORD);
      expect(again.statusCode).toBe(403);
      const secret = again.json<{ secret: string }>().secret;
      expect(secret).not.toBe(ch.secret);
      move(30_000);
      expect((await signIn(ADMIN_LOGIN, ADMIN_PASSWORD, { mfa_enrol_code: await codeNow(ch.secret) })).statusCode).toBe(401);

      const ok = await signIn(ADMIN_LOGIN, ADMIN_PASSWORD, { mfa_enrol_code: await codeNow(secret) });
      expect(ok.statusCode, ok.body).toBe(200);
      const done = ok.json<{ usr_token: string; recovery_codes: string[]; mfa_enrol: boolean }>();
      expect(done.usr_token).toBeTruthy();
      expect(done.mfa_enrol).toBe(false);
      expect(done.recovery_codes).toHaveLength(10);
      expect(new Set(done.recovery_codes).size).toBe(10);

      // From now on the code is asked, like any account with a factor.
      move(30_000);
      const next = await signIn(ADMIN_LOGIN, ADMIN_PASSWORD);
      expect(next.statusCode).toBe(403);
      expect(next.json<{ details: Row[] }>().details[0]).toMatchObject({ field: 'mfa_code' });
      expect((await signIn(ADMIN_LOGIN, ADMIN_PASSWORD, { mfa_code: await codeNow(secret) })).statusCode).toBe(200);
      // One of the recovery codes works once.
      move(30_000);
      expect((await signIn(ADMIN_LOGIN, ADMIN_PASSWORD, { mfa_recovery: done.recovery_codes[0] })).statusCode).toBe(200);
    });

    it('a user an administrator requires it of gets his own grace from his first sign-in; one not required is never asked', async () => {
      // 15 days after the requirement, but his first sign-in since is now: still within his grace.
      const req = await signIn(requiredNm, STAFF_PASSWORD);
      expect(req.statusCode, req.body).toBe(200);
      expect(req.json<Row>()).toMatchObject({ mfa_enrol: true });
      expect(new Date(String(req.json<Row>().mfa_grace_until)).getTime()).toBeGreaterThan(clock + 13 * DAY);
      move(15 * DAY);
      expect((await signIn(requiredNm, STAFF_PASSWORD)).json<{ details: Row[] }>().details[0]).toMatchObject({ field: 'mfa_enrol' });

      const clerk = await signIn(clerkNm, STAFF_PASSWORD);
      expect(clerk.statusCode, clerk.body).toBe(200);
      expect(clerk.json<Row>().mfa_enrol).toBe(false);
      expect(clerk.json<Row>().mfa_grace_until).toBeUndefined();
    });
  });
}
