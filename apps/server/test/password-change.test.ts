import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffAccount, STAFF_PASSWORD } from './staff-account';
import { backends, call, login, startTestServer, type Session, type TestServer } from './test-server';

type Row = Record<string, unknown>;

const LOGIN = '/api/employee/login/';
const CHANGE = '/api/employee/password/';

for (const backend of backends) {
  describe(`passwords: current one asked, common ones refused, a reset changed at sign-in (${backend})`, () => {
    let srv: TestServer;
    let admin: Session;

    beforeAll(async () => {
      srv = await startTestServer(backend);
      admin = await login(srv.app);
    });
    afterAll(async () => srv?.close());

    const at = (s: Session, page = 'profile'): Session => ({ ...s, modulename: 'employee', pagename: page });
    const clerk = async () => staffAccount(srv.app, admin, { 'master/religion': 'view' }, false, 'PWD');
    const signIn = (usr_nm: string, usr_pwd: string, usr_pwd_new?: string) =>
      srv.app.inject({ method: 'POST', url: LOGIN, payload: { usr_nm, usr_pwd, ...(usr_pwd_new ? { usr_pwd_new } : {}) } });

    it('changes one’s own password only with the current one, and never through My Profile’s form', async () => {
      const { session: s, usrCd } = await clerk();
      const elsewhere = await login(srv.app, s.usr_nm, STAFF_PASSWORD);
      const row = (await call(srv.app, at(s), 'GET', `/api/employee/${usrCd}`)).json<Row>();
      const viaForm = await call(srv.app, at(s), 'PUT', `/api/employee/${usrCd}`, { usr_pwd: 'Through-The-Form-7', row_ver: row.row_ver });
      expect(viaForm.statusCode).toBeGreaterThanOrEqual(400);
      expect(viaForm.statusCode).toBeLessThan(500);
      expect((await signIn(s.usr_nm, 'Through-The-Form-7')).statusCode).toBe(401);

      const missing = await call(srv.app, s, 'POST', CHANGE, { usr_pwd: 'Brand-New-Pass-42' });
      expect(missing.statusCode).toBe(400);
      expect(missing.json<Row>().message).toBe("Please enter the 'Current Password'.");
      const wrong = await call(srv.app, s, 'POST', CHANGE, { usr_pwd_current: 'not-my-password', usr_pwd: 'Brand-New-Pass-42' });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json<Row>().message).toBe('The current password is not right.');
      const same = await call(srv.app, s, 'POST', CHANGE, { usr_pwd_current: STAFF_PASSWORD, usr_pwd: STAFF_PASSWORD });
      expect(same.json<Row>().message).toBe('The new password must differ from the current one.');

      const changed = await call(srv.app, s, 'POST', CHANGE, { usr_pwd_current: STAFF_PASSWORD, usr_pwd: 'Brand-New-Pass-42' });
      expect(changed.statusCode, changed.body).toBe(200);
      expect((await signIn(s.usr_nm, STAFF_PASSWORD)).statusCode).toBe(401);
      expect((await signIn(s.usr_nm, 'Brand-New-Pass-42')).statusCode).toBe(200);
      // The session that changed it goes on; the other one ended.
      expect((await call(srv.app, at(s), 'GET', `/api/employee/${usrCd}`)).statusCode).toBe(200);
      expect((await call(srv.app, at(elsewhere), 'GET', `/api/employee/${usrCd}`)).statusCode).toBe(401);
    });

    it('refuses passwords shorter than 10 characters and the 10,000 most common ones, wherever they are set', async () => {
      const { session: s, usrCd } = await clerk();
      const roles = await call(srv.app, { ...admin, modulename: 'master', pagename: 'role' }, 'GET', '/api/role/?f_rl_nm=TEACHER');
      const make = (usr_pwd: string) =>
        call(srv.app, at(admin), 'POST', '/api/employee/', {
          usr_nm: `NEW${Date.now().toString(36).toUpperCase()}`,
          usr_full_nm: 'New Staff',
          usr_typ: roles.json<{ rows: Row[] }>().rows[0].rl_cd,
          usr_is_lgn: true,
          usr_pwd,
        });
      const short = await make('Sh0rt-pw!');
      expect(short.statusCode).toBe(400);
      expect(short.json<Row>().message).toMatch(/at least 10 characters/);
      for (const common of ['qwertyuiop', 'Password123', '1234567890']) {
        const r = await make(common);
        expect(r.statusCode, common).toBe(400);
        expect(r.json<Row>().message).toBe('This password is one of the 10,000 most common passwords. Please choose another.');
      }
      expect((await make('Correct-Horse-9')).statusCode).toBe(201);

      const row = (await call(srv.app, at(admin), 'GET', `/api/employee/${usrCd}`)).json<Row>();
      const reset = await call(srv.app, at(admin), 'PUT', `/api/employee/${usrCd}`, { usr_pwd: '1q2w3e4r5t', row_ver: row.row_ver });
      expect(reset.statusCode).toBe(400);
      const own = await call(srv.app, s, 'POST', CHANGE, { usr_pwd_current: STAFF_PASSWORD, usr_pwd: 'Qwertyuiop' });
      expect(own.statusCode).toBe(400);
      expect(own.json<Row>().message).toBe('This password is one of the 10,000 most common passwords. Please choose another.');
      const sameAsId = await call(srv.app, s, 'POST', CHANGE, { usr_pwd_current: STAFF_PASSWORD, usr_pwd: s.usr_nm.toLowerCase() });
      expect(sameAsId.statusCode).toBe(400);
    });

    it('makes the owner choose a new password at the next sign-in after an administrator resets it', async () => {
      const { session: s, usrCd } = await clerk();
      const row = (await call(srv.app, at(admin), 'GET', `/api/employee/${usrCd}`)).json<Row>();
      const reset = await call(srv.app, at(admin), 'PUT', `/api/employee/${usrCd}`, { usr_pwd: 'Given-By-Admin-1', row_ver: row.row_ver });
      expect(reset.statusCode, reset.body).toBe(200);
      expect(reset.json<Row>().usr_pwd_chg_req).toBe(true); // the administrator sees that the change is pending
      expect((await call(srv.app, at(s), 'GET', `/api/employee/${usrCd}`)).statusCode).toBe(401);

      const asked = await signIn(s.usr_nm, 'Given-By-Admin-1');
      expect(asked.statusCode).toBe(403);
      expect(asked.json<Row>().message).toBe('An administrator has reset your password. Please choose a new one to sign in.');
      expect(asked.json<{ details: Row[] }>().details[0].field).toBe('usr_pwd_new');
      expect(asked.json<Row>().usr_token).toBeUndefined();
      // The new one must pass the policy and differ; the one given must be right.
      expect((await signIn(s.usr_nm, 'Given-By-Admin-1', 'password123')).statusCode).toBe(400);
      expect((await signIn(s.usr_nm, 'Given-By-Admin-1', 'Given-By-Admin-1')).statusCode).toBe(400);
      expect((await signIn(s.usr_nm, 'Wrong-Given-Pass-1', 'Chosen-By-Me-2026')).statusCode).toBe(401);
      const chosen = await signIn(s.usr_nm, 'Given-By-Admin-1', 'Chosen-By-Me-2026');
      expect(chosen.statusCode, chosen.body).toBe(200);

      expect((await signIn(s.usr_nm, 'Given-By-Admin-1')).statusCode).toBe(401);
      const next = await signIn(s.usr_nm, 'Chosen-By-Me-2026');
      expect(next.statusCode, next.body).toBe(200);
    });
  });
}
