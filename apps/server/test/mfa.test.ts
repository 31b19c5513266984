import { generate } from 'otplib';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { rows, sql } from '../src/db/client';
import { ADMIN_LOGIN } from '../src/db/seed';
import { staffAccount, STAFF_PASSWORD } from './staff-account';
import { ADMIN_PASSWORD, backends, call, login, startTestServer, type Session, type TestServer } from './test-server';

type Row = Record<string, unknown>;

const LOGIN = '/api/employee/login/';

for (const backend of backends) {
  describe(`two-step sign-in (TOTP) for administrators and whoever they require it of (${backend})`, () => {
    let srv: TestServer;
    let admin: Session;
    // The server's clock (Date) is moved in 30 s steps so that each sign-in has a fresh code.
    let clock = Date.now();
    const tick = () => {
      clock += 30_000;
      vi.setSystemTime(clock);
    };
    const codeNow = (secret: string, offsetSeconds = 0) => generate({ secret, epoch: Math.floor(clock / 1000) + offsetSeconds });

    beforeAll(async () => {
      vi.useFakeTimers({ toFake: ['Date'], now: clock });
      srv = await startTestServer(backend);
      admin = await login(srv.app);
    });
    afterAll(async () => {
      vi.useRealTimers();
      await srv?.close();
    });
    afterEach(() => tick());

    const signIn = (usr_nm: string, usr_pwd: string, extra: Row = {}, cookie?: string) =>
      srv.app.inject({ method: 'POST', url: LOGIN, payload: { usr_nm, usr_pwd, ...extra }, ...(cookie ? { headers: { cookie } } : {}) });
    const at = (s: Session): Session => ({ ...s, modulename: 'employee', pagename: 'profile' });

    async function enrol(s: Session): Promise<{ secret: string; recovery: string[] }> {
      const start = await call(srv.app, s, 'POST', '/api/employee/mfa/enrol', {});
      expect(start.statusCode, start.body).toBe(200);
      const { secret, otpauth_uri, qr_svg } = start.json<{ secret: string; otpauth_uri: string; qr_svg: string }>();
      expect(otpauth_uri).toMatch(new RegExp(`^otpauth://totp/Campus:${s.usr_nm}\\?`));
      expect(otpauth_uri).toContain(`secret=${secret}`);
      expect(qr_svg.startsWith('<svg')).toBe(true);
      const done = await call(srv.app, s, 'POST', '/api/employee/mfa/confirm', { mfa_code: await codeNow(secret) });
      expect(done.statusCode, done.body).toBe(200);
      const recovery = done.json<{ recovery_codes: string[] }>().recovery_codes;
      expect(recovery).toHaveLength(10);
      expect(new Set(recovery).size).toBe(10);
      return { secret, recovery };
    }

    it('asks an administrator without a second factor to set one up, and sets it up with a QR code and a first code', async () => {
      const first = await signIn(ADMIN_LOGIN, ADMIN_PASSWORD);
      expect(first.statusCode).toBe(200);
      expect(first.json<Row>().mfa_enrol).toBe(true);
      const before = (await call(srv.app, admin, 'GET', '/api/employee/mfa/')).json<Row>();
      expect(before).toMatchObject({ enrolled: false, required: true, recovery_left: 0 });

      // A wrong first code leaves it not set up (a code of long ago cannot be right now).
      const start = await call(srv.app, admin, 'POST', '/api/employee/mfa/enrol', {});
      const { secret } = start.json<{ secret: string }>();
      const wrong = await call(srv.app, admin, 'POST', '/api/employee/mfa/confirm', { mfa_code: await codeNow(secret, -600) });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json<{ details: Row[] }>().details[0]).toMatchObject({ field: 'mfa_code' });
      expect((await call(srv.app, admin, 'GET', '/api/employee/mfa/')).json<Row>().enrolled).toBe(false);

      const { secret: kept, recovery } = await enrol(admin);
      expect((await call(srv.app, admin, 'GET', '/api/employee/mfa/')).json<Row>()).toMatchObject({ enrolled: true, recovery_left: 10 });
      // Stored encrypted: neither the key nor a recovery code is in the database as written.
      const [f] = await rows<{ s: string }>(srv.database.db, sql`SELECT mfa_secret_enc AS s FROM mfa_factor WHERE usr_cd = ${admin.usr_cd}`);
      expect(f.s).not.toContain(kept);
      const hashes = await rows<{ h: string }>(srv.database.db, sql`SELECT rc_hash AS h FROM mfa_recovery_code WHERE usr_cd = ${admin.usr_cd}`);
      expect(hashes.map((h) => h.h)).not.toContain(recovery[0]);
      // Set up once: a second set-up is refused until it is reset.
      expect((await call(srv.app, admin, 'POST', '/api/employee/mfa/enrol', {})).statusCode).toBe(400);
      (globalThis as { mfaSecret?: string; mfaRecovery?: string[] }).mfaSecret = kept;
      (globalThis as { mfaSecret?: string; mfaRecovery?: string[] }).mfaRecovery = recovery;
    });

    const secret = () => (globalThis as { mfaSecret?: string }).mfaSecret!;
    const recovery = () => (globalThis as { mfaRecovery?: string[] }).mfaRecovery!;

    it('asks for the code after the right password (no session), refuses a wrong one, accepts the right one once', async () => {
      const noCode = await signIn(ADMIN_LOGIN, ADMIN_PASSWORD);
      expect(noCode.statusCode).toBe(403);
      expect(noCode.json<Row>().usr_token).toBeUndefined();
      expect(noCode.json<{ details: Row[] }>().details[0]).toMatchObject({ field: 'mfa_code' });
      // A wrong password never reaches the code step.
      expect((await signIn(ADMIN_LOGIN, 'not-the-password', { mfa_code: await codeNow(secret()) })).statusCode).toBe(401);

      const wrong = await signIn(ADMIN_LOGIN, ADMIN_PASSWORD, { mfa_code: await codeNow(secret(), -600) });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json<{ details: Row[] }>().details[0]).toMatchObject({ field: 'mfa_code' });

      const code = await codeNow(secret());
      const ok = await signIn(ADMIN_LOGIN, ADMIN_PASSWORD, { mfa_code: code });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json<Row>().usr_token).toBeTruthy();
      expect(ok.json<Row>().mfa_enrol).toBe(false);
      // Replay of the same code (seen over a shoulder): refused, though still within its 30 s.
      const again = await signIn(ADMIN_LOGIN, ADMIN_PASSWORD, { mfa_code: code });
      expect(again.statusCode).toBe(401);
    });

    it('accepts a code one step early or late (clock drift), not two', async () => {
      expect((await signIn(ADMIN_LOGIN, ADMIN_PASSWORD, { mfa_code: await codeNow(secret(), -60) })).statusCode).toBe(401);
      expect((await signIn(ADMIN_LOGIN, ADMIN_PASSWORD, { mfa_code: await codeNow(secret(), 30) })).statusCode).toBe(200);
    });

    it('takes each recovery code once', async () => {
      const r = recovery()[3];
      const ok = await signIn(ADMIN_LOGIN, ADMIN_PASSWORD, { mfa_recovery: r.toLowerCase().replace(/-/g, ' ') });
      expect(ok.statusCode, ok.body).toBe(200);
      const again = await signIn(ADMIN_LOGIN, ADMIN_PASSWORD, { mfa_recovery: r });
      expect(again.statusCode).toBe(401);
      expect(again.json<{ details: Row[] }>().details[0]).toMatchObject({ field: 'mfa_recovery' });
      expect((await call(srv.app, admin, 'GET', '/api/employee/mfa/')).json<Row>().recovery_left).toBe(9);
    });

    it('remembers a device for 30 days when asked, and only that device', async () => {
      const res = await signIn(ADMIN_LOGIN, ADMIN_PASSWORD, { mfa_code: await codeNow(secret()), mfa_remember: true });
      expect(res.statusCode).toBe(200);
      const cookie = res.cookies.find((c) => c.name === 'CAMPUS-MFA');
      expect(cookie?.value).toBeTruthy();
      expect(cookie?.httpOnly).toBe(true);
      expect(cookie?.maxAge).toBe(30 * 24 * 3600);
      expect((await signIn(ADMIN_LOGIN, ADMIN_PASSWORD, {}, `CAMPUS-MFA=${cookie!.value}`)).statusCode).toBe(200);
      // Another browser (no cookie, or a made-up one) is still asked.
      expect((await signIn(ADMIN_LOGIN, ADMIN_PASSWORD)).statusCode).toBe(403);
      expect((await signIn(ADMIN_LOGIN, ADMIN_PASSWORD, {}, `CAMPUS-MFA=${'x'.repeat(43)}`)).statusCode).toBe(403);
      // The cookie is not a password: a wrong password with it is still refused.
      expect((await signIn(ADMIN_LOGIN, 'not-the-password', {}, `CAMPUS-MFA=${cookie!.value}`)).statusCode).toBe(401);
    });

    it('lets an administrator require it of a staff member and reset it; a staff member cannot reset another’s', async () => {
      const { session: clerk, usrCd } = await staffAccount(srv.app, admin, { 'master/religion': 'view' }, false, 'MFA');
      // Not required of staff by default: no code, no set-up asked.
      expect((await signIn(clerk.usr_nm, STAFF_PASSWORD)).json<Row>().mfa_enrol).toBe(false);
      // Staff cannot reset or require anyone's (the buttons hold 'login': administrators only).
      expect((await call(srv.app, at(clerk), 'POST', `/api/employee/${admin.usr_cd}/mfa_reset`, {})).statusCode).toBe(403);
      expect((await call(srv.app, at(clerk), 'POST', `/api/employee/${usrCd}/mfa_require`, { required: false })).statusCode).toBe(403);

      expect((await call(srv.app, at(admin), 'POST', `/api/employee/${usrCd}/mfa_require`, {})).statusCode).toBe(200);
      expect((await signIn(clerk.usr_nm, STAFF_PASSWORD)).json<Row>().mfa_enrol).toBe(true);
      const { secret: s } = await enrol(clerk);
      tick();
      expect((await signIn(clerk.usr_nm, STAFF_PASSWORD)).statusCode).toBe(403);
      expect((await signIn(clerk.usr_nm, STAFF_PASSWORD, { mfa_code: await codeNow(s) })).statusCode).toBe(200);
      // Required: the owner cannot turn it off.
      tick();
      expect((await call(srv.app, clerk, 'POST', '/api/employee/mfa/disable', { mfa_code: await codeNow(s) })).statusCode).toBe(400);

      // The phone is lost: the administrator resets it; the clerk signs in with the password and sets it up again.
      const reset = await call(srv.app, at(admin), 'POST', `/api/employee/${usrCd}/mfa_reset`, {});
      expect(reset.statusCode, reset.body).toBe(200);
      const after = await signIn(clerk.usr_nm, STAFF_PASSWORD);
      expect(after.statusCode).toBe(200);
      expect(after.json<Row>().mfa_enrol).toBe(true);
      const history = await rows<{ a: Row }>(
        srv.database.db,
        sql`SELECT actn_hsty_after AS a FROM action_history WHERE actn_hsty_entity = 'employee' AND actn_hsty_row_key = ${String(usrCd)} ORDER BY 1`,
      );
      expect(history.map((h) => JSON.stringify(h.a)).join(' ')).toContain('reset by an administrator');
      expect((await call(srv.app, at(admin), 'POST', `/api/employee/2147483648/mfa_reset`, {})).statusCode).toBe(400);
      // Malformed second-factor fields at sign-in: a sentence, never a 500.
      const odd = await signIn(ADMIN_LOGIN, ADMIN_PASSWORD, { mfa_remember: 'yes', mfa_code: 12 });
      expect(odd.statusCode).toBe(400);
      expect(odd.json<Row>().message).toMatch(/must be|Please enter/);
    });

    it('asks for a new password after an administrator’s reset before the code, and a refused one does not use the code up', async () => {
      const { session: clerk, usrCd } = await staffAccount(srv.app, admin, { 'master/religion': 'view' }, false, 'MFB');
      expect((await call(srv.app, at(admin), 'POST', `/api/employee/${usrCd}/mfa_require`, {})).statusCode).toBe(200);
      const { secret: s } = await enrol(clerk);
      tick();
      const row = (await call(srv.app, at(admin), 'GET', `/api/employee/${usrCd}`)).json<Row>();
      const given = 'Given-By-Admin-2026';
      expect((await call(srv.app, at(admin), 'PUT', `/api/employee/${usrCd}`, { usr_pwd: given, row_ver: row.row_ver })).statusCode).toBe(200);

      const ask = await signIn(clerk.usr_nm, given);
      expect(ask.statusCode).toBe(403);
      expect(ask.json<{ details: Row[] }>().details[0]).toMatchObject({ field: 'usr_pwd_new' });
      const code = await codeNow(s);
      const common = await signIn(clerk.usr_nm, given, { usr_pwd_new: 'password123', mfa_code: code });
      expect(common.statusCode).toBe(400);
      expect(common.json<{ details: Row[] }>().details[0]).toMatchObject({ field: 'usr_pwd_new' });
      const noCode = await signIn(clerk.usr_nm, given, { usr_pwd_new: 'Clerk-Chose-This-77' });
      expect(noCode.statusCode).toBe(403);
      expect(noCode.json<{ details: Row[] }>().details[0]).toMatchObject({ field: 'mfa_code' });
      // The same code, not used up by the refusals above.
      const ok = await signIn(clerk.usr_nm, given, { usr_pwd_new: 'Clerk-Chose-This-77', mfa_code: code });
      expect(ok.statusCode, ok.body).toBe(200);
      tick();
      expect((await signIn(clerk.usr_nm, 'Clerk-Chose-This-77', { mfa_code: await codeNow(s) })).statusCode).toBe(200);
    });
  });
}
