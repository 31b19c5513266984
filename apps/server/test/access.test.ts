import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, call, login, startTestServer, type Session, type TestServer } from './test-server';

type Row = Record<string, unknown>;

const PWD = 'Teacher-Pass-77';

describe.each(backends)('access rules on %s', (backend) => {
  let srv: TestServer;
  let admin: Session;
  let counter = 0;

  beforeAll(async () => {
    srv = await startTestServer(backend, { loginFreeFailures: 3 });
    admin = await login(srv.app);
  });
  afterAll(async () => srv?.close());

  const as = (s: Session, module: string, page: string): Session => ({ ...s, modulename: module, pagename: page });

  async function roleId(name: string): Promise<number> {
    const res = await call(srv.app, as(admin, 'master', 'role'), 'GET', `/api/role/?f_rl_nm=${encodeURIComponent(name)}`);
    return Number(res.json<{ rows: Row[] }>().rows[0].rl_cd);
  }

  /** A signed-in non-admin employee of the school holding exactly these page grants. */
  async function staff(grants: { module: string; page: string; btns: string }[], dataChk = false, role = 'TEACHER'): Promise<Session> {
    const usr_nm = `STAFF${Date.now().toString(36).toUpperCase()}${counter++}`;
    const created = await call(srv.app, as(admin, 'employee', 'profile'), 'POST', '/api/employee/', {
      usr_nm,
      usr_full_nm: `Staff ${usr_nm}`,
      usr_typ: await roleId(role),
      usr_is_lgn: true,
      usr_pwd: PWD,
    });
    expect(created.statusCode, created.body).toBe(201);
    const usr_cd = created.json<Row>().usr_cd;
    if (grants.length) {
      const saved = await call(
        srv.app,
        as(admin, 'user_permission', 'permission'),
        'POST',
        `/api/user_permission/?usrNeedDataChk=${dataChk ? 1 : 0}`,
        grants.map((g) => ({ usr_prms_usr_cd: usr_cd, usr_prms_mdl: g.module, usr_prms_page: g.page, usr_prms_is_alw: 1, usr_prms_btns: g.btns })),
      );
      expect(saved.statusCode, saved.body).toBe(200);
    }
    return login(srv.app, usr_nm, PWD);
  }

  describe('sign-in', () => {
    it('answers an unknown user and a wrong password the same way, and records the failure', async () => {
      const unknown = await srv.app.inject({ method: 'POST', url: '/api/employee/login/', payload: { usr_nm: 'NOBODY', usr_pwd: 'x' } });
      const wrong = await srv.app.inject({ method: 'POST', url: '/api/employee/login/', payload: { usr_nm: 'ADMIN', usr_pwd: 'wrong' } });
      expect(unknown.statusCode).toBe(401);
      expect(wrong.statusCode).toBe(401);
      expect(unknown.json<Row>().message).toBe(wrong.json<Row>().message);
      const hist = await call(srv.app, as(admin, 'history', 'login'), 'GET', '/api/login_history/loginhistory?f_log_hsty_typ=FAILED');
      expect(hist.json<{ rows: Row[] }>().rows.some((r) => r.log_hsty_usr_nm === 'ADMIN')).toBe(true);
      await login(srv.app); // a success clears the failure count
    });

    it('makes a new browser wait after repeated failures, even with the right password (429); a known browser signs in', async () => {
      const t = await staff([]);
      // The browser that signed in as this user before keeps its device cookie (HttpOnly, sign-in route only).
      const first = await srv.app.inject({ method: 'POST', url: '/api/employee/login/', payload: { usr_nm: t.usr_nm, usr_pwd: PWD } });
      const device = first.cookies.find((c) => c.name === 'CAMPUS-DEVICE');
      expect(device?.httpOnly).toBe(true);
      expect(device?.path).toBe('/api/employee/login/');
      for (let i = 0; i < 3; i++) {
        const r = await srv.app.inject({ method: 'POST', url: '/api/employee/login/', payload: { usr_nm: t.usr_nm, usr_pwd: 'bad' } });
        expect(r.statusCode).toBe(401);
      }
      const waiting = await srv.app.inject({ method: 'POST', url: '/api/employee/login/', payload: { usr_nm: t.usr_nm, usr_pwd: PWD } });
      expect(waiting.statusCode).toBe(429);
      expect(waiting.json<Row>().message).toMatch(/^Too many failed sign-ins\. Try again in \d+ (second|minute)\(s\)\.$/);
      expect(Number(waiting.headers['retry-after'])).toBeGreaterThan(0);
      const known = await srv.app.inject({ method: 'POST', url: '/api/employee/login/', payload: { usr_nm: t.usr_nm, usr_pwd: PWD }, cookies: { 'CAMPUS-DEVICE': device!.value } });
      expect(known.statusCode, known.body).toBe(200);
    });

    it('ends the session at logout', async () => {
      const t = await staff([{ module: 'master', page: 'religion', btns: 'view' }]);
      const s = as(t, 'master', 'religion');
      expect((await call(srv.app, s, 'GET', '/api/religion/')).statusCode).toBe(200);
      expect((await call(srv.app, s, 'GET', `/api/employee/logout/?usr_nm=${t.usr_nm}`)).statusCode).toBe(200);
      const after = await call(srv.app, s, 'GET', '/api/religion/');
      expect(after.statusCode).toBe(401);
    });

    it('ends every session when the login is disabled or the password changes', async () => {
      const t = await staff([{ module: 'master', page: 'religion', btns: 'view' }]);
      const t2 = await login(srv.app, t.usr_nm, PWD);
      const emp = as(admin, 'employee', 'profile');
      const row = (await call(srv.app, emp, 'GET', `/api/employee/${t.usr_cd}`)).json<Row>();
      const pw = await call(srv.app, emp, 'PUT', `/api/employee/${t.usr_cd}`, { usr_pwd: 'Another-Pass-88', row_ver: row.row_ver });
      expect(pw.statusCode, pw.body).toBe(200);
      expect((await call(srv.app, as(t, 'master', 'religion'), 'GET', '/api/religion/')).statusCode).toBe(401);
      expect((await call(srv.app, as(t2, 'master', 'religion'), 'GET', '/api/religion/')).statusCode).toBe(401);
      // An administrator's reset: the owner chooses a new password as they sign in (password-change.test.ts).
      const chosen = await srv.app.inject({ method: 'POST', url: '/api/employee/login/', payload: { usr_nm: t.usr_nm, usr_pwd: 'Another-Pass-88', usr_pwd_new: 'Chosen-Pass-2026' } });
      expect(chosen.statusCode, chosen.body).toBe(200);
      const t3 = await login(srv.app, t.usr_nm, 'Chosen-Pass-2026');
      const fresh = (await call(srv.app, emp, 'GET', `/api/employee/${t.usr_cd}`)).json<Row>();
      const off = await call(srv.app, emp, 'PUT', `/api/employee/${t.usr_cd}`, { usr_is_lgn: false, row_ver: fresh.row_ver });
      expect(off.statusCode, off.body).toBe(200);
      expect((await call(srv.app, as(t3, 'master', 'religion'), 'GET', '/api/religion/')).statusCode).toBe(401);
      const again = await srv.app.inject({ method: 'POST', url: '/api/employee/login/', payload: { usr_nm: t.usr_nm, usr_pwd: 'Chosen-Pass-2026' } });
      expect(again.statusCode).toBe(401);
    });
  });

  describe('request headers are checked against the token', () => {
    const religion = () => as(admin, 'master', 'religion');
    it('refuses a usercode or username that is not the token user', async () => {
      for (const h of [{ usercode: '999' }, { username: 'SOMEONE' }]) {
        const r = await call(srv.app, religion(), 'GET', '/api/religion/', undefined, { headers: h });
        expect(r.statusCode).toBe(401);
        expect(r.json<Row>().message).toBe("Please don't change login credentials.");
      }
    });
    it('refuses an institute the user is not mapped to, and a year of another institute', async () => {
      const t = await staff([{ module: 'master', page: 'religion', btns: 'view' }]);
      const r = await call(srv.app, { ...as(t, 'master', 'religion'), instCd: 2 }, 'GET', '/api/religion/');
      expect(r.statusCode).toBe(403);
      const years = (await call(srv.app, { ...as(admin, 'institute', 'academic'), instCd: 2 }, 'GET', '/api/academic/')).json<{ rows: Row[] }>().rows;
      const collegeYear = Number(years[0].acdm_cd);
      const y = await call(srv.app, { ...religion(), instCd: 1, acdmCd: collegeYear }, 'GET', '/api/religion/');
      expect(y.statusCode).toBe(403);
    });
    it('reads data_chk from the permission row, whatever the header says', async () => {
      const t = await staff([{ module: 'employee', page: 'profile', btns: 'view' }], true);
      const r = await call(srv.app, as(t, 'employee', 'profile'), 'GET', '/api/employee/?size=500', undefined, { headers: { data_chk: '0' } });
      const rows = r.json<{ rows: Row[] }>().rows;
      expect(rows.map((x) => x.usr_cd)).toEqual([t.usr_cd]);
      const adminRow = await call(srv.app, as(t, 'employee', 'profile'), 'GET', `/api/employee/${admin.usr_cd}`, undefined, { headers: { data_chk: '0' } });
      expect(adminRow.statusCode).toBe(404);
    });
    it('needs X-XSRF-TOKEN equal to the XSRF-TOKEN cookie on writes', async () => {
      const s = religion();
      const none = await call(srv.app, s, 'POST', '/api/religion/', { rgn_nm: 'Xsrf One' }, { headers: { 'x-xsrf-token': '' } });
      expect(none.statusCode).toBe(403);
      const other = await call(srv.app, s, 'POST', '/api/religion/', { rgn_nm: 'Xsrf Two' }, { headers: { 'x-xsrf-token': 'forged-value' } });
      expect(other.statusCode).toBe(403);
      const list = (await call(srv.app, s, 'GET', '/api/religion/?q=Xsrf')).json<{ total: number }>();
      expect(list.total).toBe(0);
    });
  });

  describe('page and button permissions', () => {
    it('gives 403 for each method whose button the user lacks', async () => {
      const t = await staff([{ module: 'master', page: 'religion', btns: 'view' }]);
      const s = as(t, 'master', 'religion');
      const existing = (await call(srv.app, s, 'GET', '/api/religion/?size=1')).json<{ rows: Row[] }>().rows[0];
      expect((await call(srv.app, s, 'POST', '/api/religion/', { rgn_nm: 'Not Allowed' })).statusCode).toBe(403);
      expect((await call(srv.app, s, 'PUT', `/api/religion/${existing.rgn_cd}`, { rgn_desc: 'x', row_ver: existing.row_ver })).statusCode).toBe(403);
      expect((await call(srv.app, s, 'DELETE', '/api/religion/', { primids: [existing.rgn_cd] })).statusCode).toBe(403);
      expect((await call(srv.app, as(t, 'master', 'community'), 'GET', '/api/community/')).statusCode).toBe(403);
      const perm = (await call(srv.app, s, 'GET', `/api/user_permission/?usr_prms_usr_cd=${t.usr_cd}&usr_prms_pth_url=sms/master/community&usr_sts=1`)).json<Row[][]>();
      expect(perm[0]).toEqual([]);
    });

    it("lets a toggle button flip only its own field ('Active' without 'edit')", async () => {
      const t = await staff([{ module: 'institute', page: 'academic', btns: 'view,active' }]);
      const s = as(t, 'institute', 'academic');
      const year = (await call(srv.app, s, 'GET', '/api/academic/?sort=acdm_strt_yr&dir=asc&size=1')).json<{ rows: Row[] }>().rows[0];
      const flip = await call(srv.app, s, 'PUT', `/api/academic/${year.acdm_cd}`, { acdm_sts: !year.acdm_sts, row_ver: year.row_ver });
      expect(flip.statusCode, flip.body).toBe(200);
      const edit = await call(srv.app, s, 'PUT', `/api/academic/${year.acdm_cd}`, { acdm_end_mn: 'Mar', row_ver: flip.json<Row>().row_ver });
      expect(edit.statusCode).toBe(403);
    });

    it("keeps 'login' buttons for admins: a non-admin granted 'allow_login' cannot use it", async () => {
      const t = await staff([{ module: 'employee', page: 'profile', btns: 'view,edit,allow_login' }], false, 'OFFICE CLERK');
      const s = as(t, 'employee', 'profile');
      const perm = (await call(srv.app, s, 'GET', `/api/user_permission/?usr_prms_usr_cd=${t.usr_cd}&usr_prms_pth_url=sms/employee/profile&usr_sts=1`)).json<Row[][]>();
      expect(String(perm[0][0].usr_prms_btns).split(',')).not.toContain('allow_login');
      const other = await staff([]);
      const row = (await call(srv.app, s, 'GET', `/api/employee/${other.usr_cd}`)).json<Row>();
      const r = await call(srv.app, s, 'PUT', `/api/employee/${other.usr_cd}`, { usr_is_lgn: false, row_ver: row.row_ver });
      expect(r.statusCode).toBe(403);
    });

    it('lets nobody raise their own role, and only admins give an admin role', async () => {
      const t = await staff([{ module: 'employee', page: 'profile', btns: 'view,create,edit' }], false, 'OFFICE CLERK');
      const s = as(t, 'employee', 'profile');
      const me = (await call(srv.app, s, 'GET', `/api/employee/${t.usr_cd}`)).json<Row>();
      const own = await call(srv.app, s, 'PUT', `/api/employee/${t.usr_cd}`, { usr_typ: await roleId('TEACHER'), row_ver: me.row_ver });
      expect(own.statusCode).toBe(403);
      const other = await staff([]);
      const row = (await call(srv.app, s, 'GET', `/api/employee/${other.usr_cd}`)).json<Row>();
      const up = await call(srv.app, s, 'PUT', `/api/employee/${other.usr_cd}`, { usr_typ: await roleId('ADMIN'), row_ver: row.row_ver });
      expect(up.statusCode).toBe(403);
      const made = await call(srv.app, s, 'POST', '/api/employee/', { usr_nm: `NEWADM${counter++}`, usr_full_nm: 'Would Be Admin', usr_typ: await roleId('ADMIN') });
      expect(made.statusCode).toBe(403);
      const fine = await call(srv.app, s, 'PUT', `/api/employee/${other.usr_cd}`, { usr_typ: await roleId('LIBRARIAN'), row_ver: row.row_ver });
      expect(fine.statusCode, fine.body).toBe(200);
      expect(fine.json<Row>().rl_nm).toBe('LIBRARIAN');
    });

    it("never lets a restricted user read another institute's rows, by any route", async () => {
      const collegeAdmin: Session = { ...as(admin, 'master', 'religion'), instCd: 2 };
      const collegeRow = (await call(srv.app, collegeAdmin, 'POST', '/api/religion/', { rgn_nm: 'College Only Faith' })).json<Row>();
      const t = await staff([{ module: 'master', page: 'religion', btns: 'view,edit,delete,export' }]);
      const s = as(t, 'master', 'religion');
      expect((await call(srv.app, s, 'GET', `/api/religion/${collegeRow.rgn_cd}`)).statusCode).toBe(404);
      expect((await call(srv.app, s, 'GET', '/api/religion/?q=College%20Only&size=500')).json<{ total: number }>().total).toBe(0);
      expect((await call(srv.app, s, 'GET', `/api/religion/options?ids=${collegeRow.rgn_cd}`)).json<Row[]>()).toEqual([]);
      expect((await call(srv.app, s, 'PUT', `/api/religion/${collegeRow.rgn_cd}`, { rgn_desc: 'x', row_ver: 1 })).statusCode).toBe(404);
      expect((await call(srv.app, s, 'DELETE', '/api/religion/', { primids: [collegeRow.rgn_cd] })).statusCode).toBe(404);
      expect((await call(srv.app, { ...s, instCd: 2 }, 'GET', '/api/religion/')).statusCode).toBe(403);
      expect((await call(srv.app, collegeAdmin, 'GET', `/api/religion/${collegeRow.rgn_cd}`)).statusCode).toBe(200);
    });

    it("refuses a grant the editor does not hold, for others and for themselves", async () => {
      const t = await staff([
        { module: 'user_permission', page: 'permission', btns: 'view,create,edit' },
        { module: 'master', page: 'religion', btns: 'view' },
      ]);
      const victim = await staff([]);
      const s = as(t, 'user_permission', 'permission');
      const grant = (usr: number, btns: string) => call(srv.app, s, 'POST', '/api/user_permission/?usrNeedDataChk=0', [{ usr_prms_usr_cd: usr, usr_prms_mdl: 'master', usr_prms_page: 'religion', usr_prms_is_alw: 1, usr_prms_btns: btns }]);
      expect((await grant(victim.usr_cd, 'view,delete')).statusCode).toBe(403);
      expect((await grant(t.usr_cd, 'view,delete')).statusCode).toBe(403);
      const roleGrant = await call(srv.app, s, 'POST', '/api/user_permission/?usrNeedDataChk=0', [{ usr_prms_usr_cd: victim.usr_cd, usr_prms_mdl: 'master', usr_prms_page: 'role', usr_prms_is_alw: 1, usr_prms_btns: 'view' }]);
      expect(roleGrant.statusCode).toBe(403);
      expect((await grant(victim.usr_cd, 'view')).statusCode).toBe(200);
      const adminGrant = await call(srv.app, s, 'POST', '/api/user_permission/?usrNeedDataChk=0', [{ usr_prms_usr_cd: admin.usr_cd, usr_prms_mdl: 'master', usr_prms_page: 'religion', usr_prms_is_alw: 0, usr_prms_btns: '' }]);
      expect(adminGrant.statusCode).toBe(403);
    });

    it("applies a group's permissions to its members", async () => {
      const t = await staff([]);
      const s = as(t, 'master', 'designation');
      expect((await call(srv.app, s, 'GET', '/api/designation/')).statusCode).toBe(403);
      const g = (await call(srv.app, as(admin, 'user_permission', 'group'), 'POST', '/api/user_permission_group/', { upg_nm: `Designation Keepers ${counter++}` })).json<Row>();
      const saved = await call(srv.app, as(admin, 'user_permission', 'permission'), 'POST', '/api/user_permission/?usrNeedDataChk=0', [
        { upg_cd: g.upg_cd, usr_prms_mdl: 'master', usr_prms_page: 'designation', usr_prms_is_alw: 1, usr_prms_btns: 'view,create' },
      ]);
      expect(saved.statusCode, saved.body).toBe(200);
      const m = await call(srv.app, as(admin, 'user_permission', 'mapping'), 'POST', '/api/user_permission_mapping/', { upg_cd: g.upg_cd, usr_cd: t.usr_cd });
      expect(m.statusCode, m.body).toBe(201);
      expect((await call(srv.app, s, 'GET', '/api/designation/')).statusCode).toBe(200);
      expect((await call(srv.app, s, 'POST', '/api/designation/', { desg_nm: `Group Made ${counter++}` })).statusCode).toBe(201);
      expect((await call(srv.app, s, 'DELETE', '/api/designation/', { primids: [1] })).statusCode).toBe(403);
    });
  });

  it('saves and restores a table layout per user, and only for that user', async () => {
    const s = as(admin, 'master', 'religion');
    const layout = [{ colId: 'rgn_desc', width: 240 }, { colId: 'rgn_nm', width: 180 }];
    const saved = await call(srv.app, s, 'POST', '/api/setting//tablesettings', { tbl_setg_usr_cd: admin.usr_cd, tbl_setg_tbl_nm: 'religion', tbl_setg_obj: layout });
    expect(saved.statusCode, saved.body).toBe(200);
    const reset = await call(srv.app, s, 'PUT', '/api/setting//tablesettings', { tbl: 'religion', usrCd: admin.usr_cd });
    expect(reset.json<Row>().tbl_setg_obj).toEqual(layout);
    const perm = (await call(srv.app, s, 'GET', `/api/user_permission/?usr_prms_usr_cd=${admin.usr_cd}&usr_prms_pth_url=sms/master/religion&usr_sts=1`)).json<Row[][]>();
    expect(perm[1]).toContainEqual({ tbl_setg_tbl_nm: 'religion', tbl_setg_obj: layout });
    const forOther = await call(srv.app, s, 'POST', '/api/setting//tablesettings', { tbl_setg_usr_cd: 999, tbl_setg_tbl_nm: 'religion', tbl_setg_obj: [] });
    expect(forOther.statusCode).toBe(403);
  });
});
