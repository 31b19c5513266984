import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffAccount } from './staff-account';
import { backends, call, login, startTestServer, type Session, type TestServer } from './test-server';

type Row = Record<string, unknown>;

/*
 * Issue 11, the workflows of pages that now take 'his students only': Admission keeps a teacher to the
 * applications for the classes he teaches and admits only into his sections; the library desk lends only to
 * his students (and himself), its holder search offering no other employee.
 */
describe.each(backends)("workflows under 'his students only', on %s", (backend) => {
  let srv: TestServer;
  let admin: Session;
  let teacher: Session;
  let teacherCd = 0;
  let thisYear = 0;
  let cls1 = 0;
  let secA = 0;
  let secB = 0;
  let cls2 = 0;
  let sec2 = 0;
  const tag = `W${Date.now().toString(36).toUpperCase()}`;
  let counter = 0;
  const next = (): string => `${tag}${counter++}`;
  const as = (s: Session, module: string, page: string): Session => ({ ...s, modulename: module, pagename: page, acdmCd: thisYear });

  async function created(s: Session, url: string, body: Row, key: string): Promise<number> {
    const res = await call(srv.app, s, 'POST', url, body);
    expect(res.statusCode, `${url}: ${res.body}`).toBe(201);
    return Number(res.json<Row>()[key]);
  }
  const application = (cls: number, name: string) =>
    created(as(admin, 'student', 'admission'), '/api/student_admission/', { stud_admn_dt: '2026-06-01', stud_admn_stud_nm: name, cls_cd: cls, stud_admn_status: 'Applied' }, 'stud_admn_cd');
  const admit = (app: number, sec: number) =>
    call(srv.app, as(teacher, 'student', 'admission'), 'POST', '/api/student_admission/admit', { stud_admn_cd: app, sec_cd: sec, idempotency_key: `${next()}-admit-key` });

  beforeAll(async () => {
    srv = await startTestServer(backend);
    admin = await login(srv.app);
    const years = (await call(srv.app, as(admin, 'institute', 'academic'), 'GET', '/api/academic/?size=50')).json<{ rows: Row[] }>().rows;
    thisYear = Number(years.find((y) => y.acdm_sts === true)?.acdm_cd);
    cls1 = await created(as(admin, 'class_section', 'class'), '/api/class/', { cls_nm: `Class ${next()}` }, 'cls_cd');
    cls2 = await created(as(admin, 'class_section', 'class'), '/api/class/', { cls_nm: `Class ${next()}` }, 'cls_cd');
    secA = await created(as(admin, 'class_section', 'section'), '/api/section/', { sec_nm: 'A', cls_cd: cls1 }, 'sec_cd');
    secB = await created(as(admin, 'class_section', 'section'), '/api/section/', { sec_nm: 'B', cls_cd: cls1 }, 'sec_cd');
    sec2 = await created(as(admin, 'class_section', 'section'), '/api/section/', { sec_nm: 'A', cls_cd: cls2 }, 'sec_cd');
    const sub = await created(as(admin, 'subject', 'subject'), '/api/subject/', { sub_nm: `Maths ${next()}` }, 'sub_cd');
    const staff = await staffAccount(srv.app, admin, { 'student/admission': 'view,create,edit,admit', 'library/book_checkout': 'view,create' }, true);
    teacherCd = staff.usrCd;
    teacher = { ...staff.session, acdmCd: thisYear };
    await created(as(admin, 'subject', 'subject_detail'), '/api/subjectDetail/', { cls_cd: cls1, sec_cd: secA, sub_cd: sub, usr_cd: teacherCd }, 'sub_dtl_cd');
  });
  afterAll(async () => srv?.close());

  it('lists the applications for his classes and admits them into his own sections only', async () => {
    const mine = await application(cls1, `Own ${tag}`);
    const other = await application(cls2, `Other ${tag}`);
    const list = await call(srv.app, as(teacher, 'student', 'admission'), 'GET', `/api/student_admission/?q=${tag}`);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json<{ rows: Row[] }>().rows.map((r) => Number(r.stud_admn_cd))).toEqual([mine]);

    // Another class's application is not there for him; admitting it is a 404, as a get of it is.
    expect((await admit(other, sec2)).statusCode).toBe(404);
    // His class, another teacher's section: refused, and the application stays as it was.
    const wrong = await admit(mine, secB);
    expect(wrong.statusCode, wrong.body).toBe(403);
    expect(wrong.json<{ message: string }>().message).toBe('You can only add or change students of your own sections.');
    const still = await call(srv.app, as(admin, 'student', 'admission'), 'GET', `/api/student_admission/${mine}`);
    expect(still.json<Row>().stud_admn_status).toBe('Applied');
    const right = await admit(mine, secA);
    expect(right.statusCode, right.body).toBe(201);
  });

  it('refuses a new application for a class he does not teach', async () => {
    const res = await call(srv.app, as(teacher, 'student', 'admission'), 'POST', '/api/student_admission/', { stud_admn_dt: '2026-06-01', stud_admn_stud_nm: `New ${tag}`, cls_cd: cls2, stud_admn_status: 'Applied' });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json<{ message: string }>().message).toBe('You can only add or change admissions of your own classes.');
  });

  it("shows the day's fee takings on the dashboard only to fee pages held for all students", async () => {
    const dash = async (dataChk: boolean) => {
      const { session } = await staffAccount(srv.app, admin, { 'fee/quick_fee_collection': 'view' }, dataChk);
      const res = await call(srv.app, { ...session, acdmCd: thisYear }, 'GET', '/api/dashboard/');
      expect(res.statusCode, res.body).toBe(200);
      return res.json<Row>();
    };
    expect(await dash(false)).toHaveProperty('feesCollected');
    expect(await dash(true)).not.toHaveProperty('feesCollected');
  });

  it('offers and lends to no other employee at the library desk', async () => {
    const desk = as(teacher, 'library', 'book_checkout');
    const holders = await call(srv.app, desk, 'GET', '/api/bookcheckout/holders?usr_typ=Employee&q=a');
    expect(holders.statusCode, holders.body).toBe(200);
    expect(holders.json<{ usr_cd: number }[]>().every((h) => h.usr_cd === teacherCd)).toBe(true);
    const lend = await call(srv.app, desk, 'POST', '/api/bookcheckout/issue', { usr_typ: 'Employee', usr_cd: admin.usr_cd, books: [{ bk_barcd: 'NONE', qty: 1 }], idempotency_key: `${next()}-issue-key` });
    expect(lend.statusCode, lend.body).toBe(403);
    expect(lend.json<{ message: string }>().message).toBe('You can only lend books to your own students.');
  });
});
