import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, call, login, startTestServer, type Session, type TestServer } from './test-server';

type Row = Record<string, unknown>;

describe.each(backends)('institute and year context on %s', (backend) => {
  let srv: TestServer;
  let s: Session;
  beforeAll(async () => {
    srv = await startTestServer(backend);
    s = await login(srv.app);
  });
  afterAll(async () => srv?.close());

  it('offers only the active years of the chosen institute, labelled YYYY-YY', async () => {
    const school = (await call(srv.app, s, 'GET', '/api/academic/active')).json<Row[]>();
    expect(school.length).toBe(1);
    expect(school[0].acdm_sts).toBe(true);
    expect(school[0].label).toBe(`${school[0].acdm_strt_yr}-${String(Number(school[0].acdm_strt_yr) + 1).slice(2)}`);
    const all = (await call(srv.app, { ...s, pagename: 'academic' }, 'GET', '/api/academic/')).json<{ rows: Row[] }>().rows;
    expect(all.some((y) => y.acdm_sts === false)).toBe(true);
    const college = (await call(srv.app, { ...s, instCd: 2 }, 'GET', '/api/academic/active')).json<Row[]>();
    expect(college.map((y) => y.acdm_cd)).not.toContain(school[0].acdm_cd);
  });

  it('counts the staff of the chosen institute on the dashboard', async () => {
    const dash = (await call(srv.app, s, 'GET', '/api/dashboard/')).json<Row>();
    const staff = (await call(srv.app, { ...s, pagename: 'profile' }, 'GET', '/api/employee/')).json<{ total: number }>();
    expect(dash.employees).toBe(staff.total);
    expect((await call(srv.app, { ...s, instCd: 2 }, 'GET', '/api/dashboard/')).json<Row>().employees).toBe(0);
  });

  it("counts the chosen year's students on the dashboard; attendance is null until a section is marked today", async () => {
    const before = (await call(srv.app, s, 'GET', '/api/dashboard/')).json<Row>();
    expect(before.students).toBe(0);
    expect(before.attendanceToday).toBeNull();
    // The admin holds the fee pages: nothing collected today is a real 0.00.
    expect(before.feesCollected).toBe('0.00');
    const cls = (await call(srv.app, { ...s, pagename: 'class', modulename: 'class_section' }, 'POST', '/api/class/', { cls_nm: 'Dashboard VI', cls_odr: 6 })).json<Row>();
    const sec = (await call(srv.app, { ...s, pagename: 'section', modulename: 'class_section' }, 'POST', '/api/section/', { sec_nm: 'A', cls_cd: cls.cls_cd })).json<Row>();
    const stud = await call(srv.app, { ...s, pagename: 'profile', modulename: 'student' }, 'POST', '/api/student/', {
      stud_fs_nm: 'Kavya Raman',
      stud_adm_cd: 'DASH-001',
      cls_cd: cls.cls_cd,
      sec_cd: sec.sec_cd,
    });
    expect(stud.statusCode, stud.body).toBe(201);
    expect((await call(srv.app, s, 'GET', '/api/dashboard/')).json<Row>().students).toBe(1);
    expect((await call(srv.app, { ...s, instCd: 2 }, 'GET', '/api/dashboard/')).json<Row>().students).toBe(0);
  });

  it('tells the signed-in user which pages they may open', async () => {
    const detail = (await call(srv.app, s, 'GET', '/api/user_permission/userDetail')).json<{ permissions: Row[] }>();
    expect(detail.permissions.map((p) => `${p.usr_prms_mdl}/${p.usr_prms_page}`)).toContain('master/religion');
    const pages = (await call(srv.app, { ...s, pagename: 'permission' }, 'GET', '/api/user_permission/crudpage')).json<Row[]>();
    expect(pages.find((p) => p.page === 'religion')?.buttons).toEqual(['create', 'edit', 'delete', 'view', 'clone', 'export', 'import']);
  });
});
