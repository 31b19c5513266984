import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trustedProxyHops } from '../src/app';
import { backends, call, login, startTestServer, type Session, type TestServer } from './test-server';

type Row = Record<string, unknown>;

const PWD = 'Clerk-Pass-2026';

/*
 * The ways a clerk holding one administrative page could lift themselves (or a friend) above what they
 * were given, and the ways around the access layer's own checks. Each must be refused by the server.
 */
describe.each(backends)('no way up for a non-admin, on %s', (backend) => {
  let srv: TestServer;
  let admin: Session;
  let counter = 0;

  beforeAll(async () => {
    // The first wait outlasts any burst on a busy machine, so the count alone decides how many tries are checked.
    srv = await startTestServer(backend, { loginFreeFailures: 4, loginFirstWaitMs: 60_000 });
    admin = await login(srv.app);
  });
  afterAll(async () => srv?.close());

  const as = (s: Session, module: string, page: string): Session => ({ ...s, modulename: module, pagename: page });
  const unique = (prefix: string): string => `${prefix}${Date.now().toString(36).toUpperCase()}${counter++}`;

  async function roleId(name: string, instCd = 1): Promise<number> {
    const res = await call(srv.app, { ...as(admin, 'master', 'role'), instCd }, 'GET', `/api/role/?f_rl_nm=${encodeURIComponent(name)}`);
    return Number(res.json<{ rows: Row[] }>().rows[0].rl_cd);
  }

  async function grant(usrCd: number, grants: { module: string; page: string; btns: string }[], dataChk = false, instCd = 1): Promise<void> {
    const saved = await call(
      srv.app,
      { ...as(admin, 'user_permission', 'permission'), instCd },
      'POST',
      `/api/user_permission/?usrNeedDataChk=${dataChk ? 1 : 0}`,
      grants.map((g) => ({ usr_prms_usr_cd: usrCd, usr_prms_mdl: g.module, usr_prms_page: g.page, usr_prms_is_alw: 1, usr_prms_btns: g.btns })),
    );
    expect(saved.statusCode, saved.body).toBe(200);
  }

  async function staff(grants: { module: string; page: string; btns: string }[], role = 'OFFICE CLERK', dataChk = false): Promise<Session> {
    const usr_nm = unique('CLERK');
    const created = await call(srv.app, as(admin, 'employee', 'profile'), 'POST', '/api/employee/', {
      usr_nm,
      usr_full_nm: `Clerk ${usr_nm}`,
      usr_typ: await roleId(role),
      usr_is_lgn: true,
      usr_pwd: PWD,
    });
    expect(created.statusCode, created.body).toBe(201);
    const usrCd = Number(created.json<Row>().usr_cd);
    if (grants.length) await grant(usrCd, grants, dataChk);
    return login(srv.app, usr_nm, PWD);
  }

  async function employeeRow(s: Session, usrCd: number): Promise<Row> {
    const res = await call(srv.app, as(s, 'employee', 'profile'), 'GET', `/api/employee/${usrCd}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Row>();
  }

  it("lets nobody but an administrator set another employee's password, and nobody touch an administrator's record", async () => {
    const clerk = await staff([{ module: 'employee', page: 'profile', btns: 'view,edit' }]);
    const colleague = await staff([]);
    const s = as(clerk, 'employee', 'profile');
    const adminRow = await employeeRow(admin, admin.usr_cd);
    const takeOver = await call(srv.app, s, 'PUT', `/api/employee/${admin.usr_cd}`, { usr_pwd: 'Owned-By-Clerk-1', row_ver: adminRow.row_ver });
    expect(takeOver.statusCode).toBe(403);
    const rename = await call(srv.app, s, 'PUT', `/api/employee/${admin.usr_cd}`, { usr_full_nm: 'Not the admin', row_ver: adminRow.row_ver });
    expect(rename.statusCode).toBe(403);
    const failed = await srv.app.inject({ method: 'POST', url: '/api/employee/login/', payload: { usr_nm: 'ADMIN', usr_pwd: 'Owned-By-Clerk-1' } });
    expect(failed.statusCode).toBe(401);

    const colRow = await employeeRow(admin, colleague.usr_cd);
    const pw = await call(srv.app, s, 'PUT', `/api/employee/${colleague.usr_cd}`, { usr_pwd: 'Owned-By-Clerk-2', row_ver: colRow.row_ver });
    expect(pw.statusCode).toBe(403);
    // Ordinary edits of a colleague are what the 'edit' button is for.
    const phone = await call(srv.app, s, 'PUT', `/api/employee/${colleague.usr_cd}`, { usr_ph: '+91 98400 12345', row_ver: colRow.row_ver });
    expect(phone.statusCode, phone.body).toBe(200);
    // Their own password, they may change (with the current one: password-change.test.ts).
    const own = await call(srv.app, clerk, 'POST', '/api/employee/password/', { usr_pwd_current: PWD, usr_pwd: 'Clerk-New-Pass-1' });
    expect(own.statusCode, own.body).toBe(200);
    await login(srv.app, clerk.usr_nm, 'Clerk-New-Pass-1');
    // The administrator may reset a colleague's password.
    const reset = await call(srv.app, as(admin, 'employee', 'profile'), 'PUT', `/api/employee/${colleague.usr_cd}`, { usr_pwd: 'Reset-By-Admin-1', row_ver: phone.json<Row>().row_ver });
    expect(reset.statusCode, reset.body).toBe(200);
  });

  it('opens My Profile to everyone: their own personal details and password, nothing else and nobody else', async () => {
    const clerk = await staff([{ module: 'master', page: 'religion', btns: 'view' }]);
    const other = await staff([]);
    const s = as(clerk, 'employee', 'profile');
    const mine = await call(srv.app, s, 'GET', `/api/employee/${clerk.usr_cd}`);
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json<Row>().usr_pwd).toBeUndefined();
    expect((await call(srv.app, s, 'GET', `/api/employee/${other.usr_cd}`)).statusCode).toBe(403);
    expect((await call(srv.app, s, 'GET', '/api/employee/')).statusCode).toBe(403);
    const row = mine.json<Row>();
    const phone = await call(srv.app, s, 'PUT', `/api/employee/${clerk.usr_cd}`, { usr_ph: '+91 94430 11111', usr_eml: 'clerk@school.example', row_ver: row.row_ver });
    expect(phone.statusCode, phone.body).toBe(200);
    const ver = phone.json<Row>().row_ver;
    const id = await call(srv.app, s, 'PUT', `/api/employee/${clerk.usr_cd}`, { usr_id: 'EMP9999', row_ver: ver });
    expect(id.statusCode).toBe(403);
    expect(id.json<Row>().message).toMatch(/only your personal details/);
    expect((await call(srv.app, s, 'PUT', `/api/employee/${other.usr_cd}`, { usr_ph: '+91 94430 22222', row_ver: 1 })).statusCode).toBe(403);
    // A second session of the same user ends with the password change; the one that made it goes on.
    const elsewhere = await login(srv.app, clerk.usr_nm, PWD);
    const pw = await call(srv.app, s, 'POST', '/api/employee/password/', { usr_pwd_current: PWD, usr_pwd: 'My-Own-New-Pass-1' });
    expect(pw.statusCode, pw.body).toBe(200);
    expect((await call(srv.app, s, 'GET', `/api/employee/${clerk.usr_cd}`)).statusCode).toBe(200);
    expect((await call(srv.app, as(elsewhere, 'employee', 'profile'), 'GET', `/api/employee/${clerk.usr_cd}`)).statusCode).toBe(401);
    await login(srv.app, clerk.usr_nm, 'My-Own-New-Pass-1');
  });

  it('keeps role names that make administrators (ADMIN, HEAD) in administrators\' hands', async () => {
    const clerk = await staff([{ module: 'master', page: 'role', btns: 'view,create,edit,delete' }]);
    const s = as(clerk, 'master', 'role');
    const clerkRole = await roleId('OFFICE CLERK');
    const roles = (await call(srv.app, s, 'GET', `/api/role/${clerkRole}`)).json<Row>();
    const lift = await call(srv.app, s, 'PUT', `/api/role/${clerkRole}`, { rl_nm: 'OFFICE HEAD CLERK', row_ver: roles.row_ver });
    expect(lift.statusCode).toBe(403);
    const who = await call(srv.app, clerk, 'GET', '/api/user_permission/userDetail');
    expect(who.json<{ user: Row }>().user.is_admin).toBe(false);
    const adminRole = await roleId('ADMIN');
    const adminRow = (await call(srv.app, s, 'GET', `/api/role/${adminRole}`)).json<Row>();
    expect((await call(srv.app, s, 'PUT', `/api/role/${adminRole}`, { rl_nm: 'FORMER ADMINISTRATOR', row_ver: adminRow.row_ver })).statusCode).toBe(403);
    expect((await call(srv.app, s, 'PUT', `/api/role/${adminRole}`, { rl_dscr: 'Runs everything', row_ver: adminRow.row_ver })).statusCode).toBe(200);
    expect((await call(srv.app, s, 'POST', '/api/role/', { rl_nm: 'Deputy Head' })).statusCode).toBe(403);
    const plain = await call(srv.app, s, 'POST', '/api/role/', { rl_nm: unique('Lab Assistant ') });
    expect(plain.statusCode, plain.body).toBe(201);
    const byAdmin = await call(srv.app, as(admin, 'master', 'role'), 'POST', '/api/role/', { rl_nm: unique('Deputy Head ') });
    expect(byAdmin.statusCode, byAdmin.body).toBe(201);
  });

  it('refuses to put anyone into a group that gives more than the mapper holds', async () => {
    const mapper = await staff([
      { module: 'user_permission', page: 'mapping', btns: 'view,create,edit,delete' },
      { module: 'master', page: 'religion', btns: 'view' },
    ]);
    const friend = await staff([]);
    const mkGroup = async (btns: string): Promise<number> => {
      const g = await call(srv.app, as(admin, 'user_permission', 'group'), 'POST', '/api/user_permission_group/', { upg_nm: unique('Group ') });
      expect(g.statusCode, g.body).toBe(201);
      const upg = Number(g.json<Row>().upg_cd);
      const saved = await call(srv.app, as(admin, 'user_permission', 'permission'), 'POST', '/api/user_permission/?usrNeedDataChk=0', [
        { upg_cd: upg, usr_prms_mdl: 'master', usr_prms_page: 'religion', usr_prms_is_alw: 1, usr_prms_btns: btns },
      ]);
      expect(saved.statusCode, saved.body).toBe(200);
      return upg;
    };
    const power = await mkGroup('view,create,edit,delete');
    const viewers = await mkGroup('view');
    const s = as(mapper, 'user_permission', 'mapping');
    expect((await call(srv.app, s, 'POST', '/api/user_permission_mapping/', { upg_cd: power, usr_cd: mapper.usr_cd })).statusCode).toBe(403);
    expect((await call(srv.app, s, 'POST', '/api/user_permission_mapping/', { upg_cd: power, usr_cd: friend.usr_cd })).statusCode).toBe(403);
    expect((await call(srv.app, as(friend, 'master', 'religion'), 'GET', '/api/religion/')).statusCode).toBe(403);
    expect((await call(srv.app, s, 'POST', '/api/user_permission_mapping/', { upg_cd: viewers, usr_cd: admin.usr_cd })).statusCode).toBe(403);
    const ok = await call(srv.app, s, 'POST', '/api/user_permission_mapping/', { upg_cd: viewers, usr_cd: friend.usr_cd });
    expect(ok.statusCode, ok.body).toBe(201);
    expect((await call(srv.app, as(friend, 'master', 'religion'), 'GET', '/api/religion/')).statusCode).toBe(200);
    // Moving an existing membership into the stronger group is the same grant.
    const move = await call(srv.app, s, 'PUT', `/api/user_permission_mapping/${ok.json<Row>().up_map_cd}`, { upg_cd: power, row_ver: ok.json<Row>().row_ver });
    expect(move.statusCode).toBe(403);
  });

  it('refuses deleting permission rows when that widens someone (own rows over groups) or touches an administrator', async () => {
    const editor = await staff([
      { module: 'user_permission', page: 'permission', btns: 'view,create,edit,delete' },
      { module: 'master', page: 'religion', btns: 'view' },
    ]);
    const s = as(editor, 'user_permission', 'permission');
    const rowsOf = async (usrCd: number): Promise<Row[]> => (await call(srv.app, as(admin, 'user_permission', 'permission'), 'GET', `/api/user_permission/?usr_prms_usr_cd=${usrCd}`)).json<Row[]>();
    const adminRows = await rowsOf(admin.usr_cd);
    expect((await call(srv.app, s, 'DELETE', '/api/user_permission/', { primids: [adminRows[0].usr_prms_cd] })).statusCode).toBe(403);

    // A member held back by their own row (view only) while their group may delete: removing the row
    // would hand them 'delete', which the editor does not hold.
    const member = await staff([{ module: 'master', page: 'religion', btns: 'view' }]);
    const g = (await call(srv.app, as(admin, 'user_permission', 'group'), 'POST', '/api/user_permission_group/', { upg_nm: unique('Deleters ') })).json<Row>();
    await call(srv.app, as(admin, 'user_permission', 'permission'), 'POST', '/api/user_permission/?usrNeedDataChk=0', [
      { upg_cd: g.upg_cd, usr_prms_mdl: 'master', usr_prms_page: 'religion', usr_prms_is_alw: 1, usr_prms_btns: 'view,delete' },
    ]);
    const mapped = await call(srv.app, as(admin, 'user_permission', 'mapping'), 'POST', '/api/user_permission_mapping/', { upg_cd: g.upg_cd, usr_cd: member.usr_cd });
    expect(mapped.statusCode, mapped.body).toBe(201);
    const own = (await rowsOf(member.usr_cd)).find((r) => r.usr_prms_page === 'religion');
    expect((await call(srv.app, s, 'DELETE', '/api/user_permission/', { primids: [own?.usr_prms_cd] })).statusCode).toBe(403);
    expect((await call(srv.app, as(member, 'master', 'religion'), 'DELETE', '/api/religion/', { primids: [1] })).statusCode).toBe(403);

    // A row whose removal leaves nothing wider is the editor's to delete.
    const plain = await staff([{ module: 'master', page: 'religion', btns: 'view' }]);
    const plainRow = (await rowsOf(plain.usr_cd)).find((r) => r.usr_prms_page === 'religion');
    const del = await call(srv.app, s, 'DELETE', '/api/user_permission/', { primids: [plainRow?.usr_prms_cd] });
    expect(del.statusCode, del.body).toBe(200);
  });

  it("refuses changes to another institute's profile without the permission in that institute", async () => {
    // Mapped to the college, but with rights in the school only.
    const clerk = await staff([{ module: 'institute', page: 'profile', btns: 'view,edit,delete,active' }]);
    // A mapping row belongs to the institute it opens: made from inside the college.
    const map = await call(srv.app, { ...as(admin, 'institute', 'user_institute'), instCd: 2 }, 'POST', '/api/user_institute/', { usr_cd: clerk.usr_cd, usr_inst_sts: true });
    expect(map.statusCode, map.body).toBe(201);
    const s = as(clerk, 'institute', 'profile');
    const list = (await call(srv.app, s, 'GET', '/api/institute/')).json<{ rows: Row[] }>().rows;
    const college = list.find((r) => r.inst_typ === 'college');
    expect(college).toBeTruthy();
    const off = await call(srv.app, s, 'PUT', `/api/institute/${college?.inst_cd}`, { is_active: false, row_ver: college?.row_ver });
    expect(off.statusCode).toBe(403);
    const edit = await call(srv.app, s, 'PUT', `/api/institute/${college?.inst_cd}`, { inst_ph: '+91 422 000 0000', row_ver: college?.row_ver });
    expect(edit.statusCode).toBe(403);
    expect((await call(srv.app, s, 'DELETE', '/api/institute/', { primids: [college?.inst_cd] })).statusCode).toBe(403);
    const school = list.find((r) => Number(r.inst_cd) === clerk.instCd);
    const mine = await call(srv.app, s, 'PUT', `/api/institute/${school?.inst_cd}`, { inst_adr2: 'Madurai 625001', row_ver: school?.row_ver });
    expect(mine.statusCode, mine.body).toBe(200);
    // The administrator holds the page in both institutes.
    const byAdmin = await call(srv.app, as(admin, 'institute', 'profile'), 'PUT', `/api/institute/${college?.inst_cd}`, { inst_adr2: 'Coimbatore 641018', row_ver: college?.row_ver });
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
  });

  it('narrows dropdown choices under "his students only" as it narrows the grid', async () => {
    const own = await staff([{ module: 'employee', page: 'profile', btns: 'view' }], 'TEACHER', true);
    const s = as(own, 'employee', 'profile');
    const grid = (await call(srv.app, s, 'GET', '/api/employee/')).json<{ rows: Row[] }>().rows;
    expect(grid.map((r) => r.usr_cd)).toEqual([own.usr_cd]);
    const choices = (await call(srv.app, s, 'GET', '/api/employee/options')).json<{ value: number }[]>();
    expect(choices.map((c) => c.value)).toEqual([own.usr_cd]);
    expect((await call(srv.app, s, 'GET', `/api/employee/options?ids=${admin.usr_cd}`)).json<Row[]>()).toEqual([]);
  });

  it('decides access by the matched route, not the spelling of the URL', async () => {
    for (const url of ['//api/user_permission/crudpage', '/%61pi/user_permission/crudpage', '/api//user_permission/crudpage']) {
      const anon = await srv.app.inject({ method: 'GET', url });
      expect([401, 404], `${url}: ${anon.body}`).toContain(anon.statusCode);
    }
    const s = as(admin, 'master', 'religion');
    const noXsrf = await srv.app.inject({
      method: 'POST',
      url: '//api/religion/',
      payload: { rgn_nm: 'Sneaked In' },
      headers: { username: admin.usr_nm, usercode: String(admin.usr_cd), auth_token: admin.token, inst_cd: '1', pagename: 'religion', modulename: 'master' },
    });
    expect(noXsrf.statusCode).toBe(403);
    expect((await call(srv.app, s, 'GET', '/api/religion/?q=Sneaked')).json<{ total: number }>().total).toBe(0);
  });

  it('refuses sort and filter names that are not declared fields, and malformed id headers', async () => {
    const s = as(admin, 'master', 'religion');
    for (const q of ['sort=__proto__', 'sort=constructor', 'f___proto__=x', 'f_constructor=x', 'f_hasOwnProperty=x']) {
      const res = await call(srv.app, s, 'GET', `/api/religion/?${q}`);
      expect(res.statusCode, `${q}: ${res.body}`).toBe(400);
    }
    expect((await call(srv.app, s, 'GET', '/api/religion/', undefined, { headers: { inst_cd: 'abc' } })).statusCode).toBe(403);
    expect((await call(srv.app, s, 'GET', '/api/religion/', undefined, { headers: { inst_cd: '1 OR 1=1' } })).statusCode).toBe(403);
    expect((await call(srv.app, s, 'GET', '/api/religion/', undefined, { headers: { acdm_cd: '-1' } })).statusCode).toBe(403);
  });

  it('counts parallel guesses before checking them: a burst cannot outrun the lock', async () => {
    const victim = await staff([]);
    const burst = await Promise.all(
      Array.from({ length: 12 }, () => srv.app.inject({ method: 'POST', url: '/api/employee/login/', payload: { usr_nm: victim.usr_nm, usr_pwd: 'guess' } })),
    );
    const codes = burst.map((r) => r.statusCode);
    // Exactly the free tries are checked: no more (counted before the check), and no fewer (a try that waited
    // for another's row lock compares with the clock when it runs, not when its transaction began).
    expect(codes.filter((c) => c === 401).length).toBe(srv.cfg.loginFreeFailures);
    expect(codes.filter((c) => c === 429).length).toBe(12 - srv.cfg.loginFreeFailures);
    const right = await srv.app.inject({ method: 'POST', url: '/api/employee/login/', payload: { usr_nm: victim.usr_nm, usr_pwd: PWD } });
    expect(right.statusCode).toBe(429);
  });

  it('lets a whole staff room sign in from one address without locking it', async () => {
    const n = srv.cfg.loginFreeFailures * 6 + 2;
    for (let i = 0; i < n; i++) await login(srv.app);
  });
});

describe('TRUST_PROXY', () => {
  it('trusts a number of proxy hops, never every X-Forwarded-For a client sends', () => {
    expect(trustedProxyHops(undefined)).toBe(false);
    expect(trustedProxyHops('')).toBe(false);
    expect(trustedProxyHops('0')).toBe(false);
    expect(trustedProxyHops('1')).toBe(1);
    expect(trustedProxyHops('2')).toBe(2);
    expect(trustedProxyHops('true')).toBe(false);
  });
});
