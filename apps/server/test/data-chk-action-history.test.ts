import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, call, login, startTestServer, type Session, type TestServer } from './test-server';
import { STAFF_PASSWORD } from './staff-account';

type Row = Record<string, unknown>;

/*
 * Issue 11: a teacher given Action History with 'access his students only' read the full records of students
 * outside their sections. The history page now keeps the rows about records the teacher owns (the student
 * of his section, himself), whatever the entity filter asks.
 */
describe.each(backends)("Action History under 'his students only', on %s", (backend) => {
  let srv: TestServer;
  let admin: Session;
  let teacher: Session;
  let thisYear = 0;
  let studA = 0;
  let studB = 0;
  const tag = `H${Date.now().toString(36).toUpperCase()}`;
  let counter = 0;
  const next = (): string => `${tag}${counter++}`;
  const as = (s: Session, module: string, page: string): Session => ({ ...s, modulename: module, pagename: page, acdmCd: thisYear });

  async function created(s: Session, url: string, body: Row, key: string): Promise<number> {
    const res = await call(srv.app, s, 'POST', url, body);
    expect(res.statusCode, `${url}: ${res.body}`).toBe(201);
    return Number(res.json<Row>()[key]);
  }

  beforeAll(async () => {
    srv = await startTestServer(backend);
    admin = await login(srv.app);
    const years = (await call(srv.app, as(admin, 'institute', 'academic'), 'GET', '/api/academic/?size=50')).json<{ rows: Row[] }>().rows;
    thisYear = Number(years.find((y) => y.acdm_sts === true)?.acdm_cd);
    const cls = await created(as(admin, 'class_section', 'class'), '/api/class/', { cls_nm: `Class ${next()}` }, 'cls_cd');
    const secA = await created(as(admin, 'class_section', 'section'), '/api/section/', { sec_nm: 'A', cls_cd: cls }, 'sec_cd');
    const secB = await created(as(admin, 'class_section', 'section'), '/api/section/', { sec_nm: 'B', cls_cd: cls }, 'sec_cd');
    const sub = await created(as(admin, 'subject', 'subject'), '/api/subject/', { sub_nm: `Maths ${next()}` }, 'sub_cd');
    const roles = await call(srv.app, as(admin, 'master', 'role'), 'GET', '/api/role/?f_rl_nm=TEACHER');
    const usr_nm = `HT${next()}`;
    const usrCd = await created(
      as(admin, 'employee', 'profile'),
      '/api/employee/',
      { usr_nm, usr_full_nm: `Teacher ${usr_nm}`, usr_typ: roles.json<{ rows: Row[] }>().rows[0].rl_cd, usr_is_lgn: true, usr_pwd: STAFF_PASSWORD },
      'usr_cd',
    );
    await created(as(admin, 'subject', 'subject_detail'), '/api/subjectDetail/', { cls_cd: cls, sec_cd: secA, sub_cd: sub, usr_cd: usrCd }, 'sub_dtl_cd');
    const saved = await call(srv.app, as(admin, 'user_permission', 'permission'), 'POST', '/api/user_permission/?usrNeedDataChk=1', [
      { usr_prms_usr_cd: usrCd, usr_prms_mdl: 'history', usr_prms_page: 'action', usr_prms_is_alw: 1, usr_prms_btns: 'view,export' },
    ]);
    expect(saved.statusCode, saved.body).toBe(200);
    teacher = as(await login(srv.app, usr_nm, STAFF_PASSWORD), 'history', 'action');
    const student = (sec: number, name: string): Row => ({ stud_fs_nm: name, stud_adm_cd: `ADM${next()}`, cls_cd: cls, sec_cd: sec, stud_ph: '+91 98400 12345' });
    studA = await created(as(admin, 'student', 'profile'), '/api/student/', student(secA, `Own ${tag}`), 'stud_cd');
    studB = await created(as(admin, 'student', 'profile'), '/api/student/', student(secB, `Other ${tag}`), 'stud_cd');
  });
  afterAll(async () => srv?.close());

  const keysOf = (res: { json<T>(): T }): string[] => res.json<{ rows: Row[] }>().rows.map((r) => String(r.actn_hsty_row_key));

  it("lists the history of the teacher's own students only (the issue's request)", async () => {
    const mine = await call(srv.app, teacher, 'GET', '/api/action_history/actionhistory?f_actn_hsty_entity=student&size=500');
    expect(mine.statusCode, mine.body).toBe(200);
    expect(keysOf(mine)).toContain(String(studA));
    expect(keysOf(mine)).not.toContain(String(studB));
    // The admin, without the flag, sees both: the rows are there, the teacher is kept from them.
    const all = await call(srv.app, as(admin, 'history', 'action'), 'GET', '/api/action_history/actionhistory?f_actn_hsty_entity=student&size=500');
    expect(keysOf(all)).toEqual(expect.arrayContaining([String(studA), String(studB)]));
  });

  it("gives 404 for another section's student's history row, and hides rows about things nobody owns", async () => {
    const all = (await call(srv.app, as(admin, 'history', 'action'), 'GET', '/api/action_history/actionhistory?size=500')).json<{ rows: Row[] }>().rows;
    const other = all.find((r) => r.actn_hsty_entity === 'student' && String(r.actn_hsty_row_key) === String(studB));
    const own = all.find((r) => r.actn_hsty_entity === 'student' && String(r.actn_hsty_row_key) === String(studA));
    expect(other && own).toBeTruthy();
    expect((await call(srv.app, teacher, 'GET', `/api/action_history/actionhistory/${String(other?.actn_hsty_cd)}`)).statusCode).toBe(404);
    expect((await call(srv.app, teacher, 'GET', `/api/action_history/actionhistory/${String(own?.actn_hsty_cd)}`)).statusCode).toBe(200);
    // The class, the section and the subject mapping belong to no one's students: not shown under the flag.
    const everything = await call(srv.app, teacher, 'GET', '/api/action_history/actionhistory?size=500');
    const entities = new Set(everything.json<{ rows: Row[] }>().rows.map((r) => String(r.actn_hsty_entity)));
    expect([...entities].filter((n) => ['class', 'section', 'subject', 'subject_detail', 'user_permission'].includes(n))).toEqual([]);
    // Searching does not reach past the rule either.
    const search = await call(srv.app, teacher, 'GET', `/api/action_history/actionhistory?q=${studB}&f_actn_hsty_entity=student`);
    expect(search.statusCode, search.body).toBe(200);
    expect(keysOf(search)).not.toContain(String(studB));
  });
});
