import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows, sql } from '../src/db/client';
import { makeFixture, type Fixture, type Row } from './student-workflow-fixture';
import { backends, call, startTestServer, type Session, type TestServer } from './test-server';

describe.each(backends)('admitting an application on %s', (backend) => {
  let srv: TestServer;
  let f: Fixture;
  let office: Session;

  beforeAll(async () => {
    srv = await startTestServer(backend);
    f = await makeFixture(srv);
    office = f.as(f.admin, 'student', 'admission');
  });
  afterAll(async () => srv?.close());

  const apply = async (body: Row = {}): Promise<number> =>
    f.created(office, '/api/student_admission/', { stud_admn_dt: '2026-03-01', stud_admn_stud_nm: `Kavya ${randomUUID().slice(0, 6)}`, stud_admn_stud_dob: '2019-05-04', stud_admn_stud_mob: '9443127650', cls_cd: f.cls1, stud_admn_status: 'Applied', ...body }, 'stud_admn_cd');
  const admit = (body: Row) => call(srv.app, office, 'POST', '/api/student_admission/admit', { idempotency_key: randomUUID(), ...body });
  const application = async (id: number): Promise<Row> => (await call(srv.app, office, 'GET', `/api/student_admission/${id}`)).json<Row>();
  const studentCount = async (): Promise<number> =>
    Number((await rows<{ n: number }>(srv.database.db, sql`SELECT count(*)::int AS n FROM student WHERE acdm_cd = ${f.year}`))[0].n);
  const setPattern = async (pattern: string): Promise<void> => {
    await srv.database.db.execute(sql`DELETE FROM setting WHERE setg_unq_cd = 'ADMN_NO_PTRN' AND inst_cd = ${office.instCd}`);
    await srv.database.db.execute(
      sql`INSERT INTO setting (setg_unq_cd, setg_nm, setg_val, inst_cd, crt_by) VALUES ('ADMN_NO_PTRN', 'Admission number pattern', ${pattern}, ${office.instCd}, ${office.usr_cd})`,
    );
  };

  it("makes this year's student with a numbered admission and links the application to it", async () => {
    await setPattern('');
    const id = await apply({ stud_admn_stud_nm: 'Kavya Raman' });
    const res = await admit({ stud_admn_cd: id, sec_cd: f.secB, stud_doj: '2026-06-03' });
    expect(res.statusCode, res.body).toBe(201);
    const stud = res.json<Row>();
    // The default pattern ADM/{YYYY}/{#####}, the year of joining.
    expect(stud).toMatchObject({ stud_fs_nm: 'Kavya Raman', cls_cd: f.cls1, sec_cd: f.secB, sec_nm: 'B', stud_dob: '2019-05-04', stud_doj: '2026-06-03', stud_ph: '+91 94431 27650', stud_adm_cd: 'ADM/2026/00001' });
    expect(await application(id)).toMatchObject({ stud_admn_status: 'Admitted', stud_cd: stud.stud_cd, stud_adm_cd: 'ADM/2026/00001' });
    // The student page opens it (the dialog goes there next).
    const opened = await call(srv.app, f.as(f.admin, 'student', 'profile'), 'GET', `/api/student/${String(stud.stud_cd)}`);
    expect(opened.statusCode).toBe(200);
  });

  it('numbers by the institute pattern without gaps and never repeats a number an older child has', async () => {
    await setPattern('SMS/{YYYY}/{####}');
    // A child from an earlier intake already holds 0041 of 2026's series (typed in by hand).
    await f.created(f.as(f.admin, 'student', 'profile'), '/api/student/', { stud_fs_nm: 'Older Child', stud_adm_cd: 'sms/2026/0041', cls_cd: f.cls2, sec_cd: f.secC }, 'stud_cd');
    const numbers: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await admit({ stud_admn_cd: await apply(), sec_cd: f.secA, stud_doj: '2026-06-10' });
      expect(res.statusCode, res.body).toBe(201);
      numbers.push(String(res.json<Row>().stud_adm_cd));
    }
    expect(numbers).toEqual(['SMS/2026/0042', 'SMS/2026/0043', 'SMS/2026/0044']);
    // Another year of joining starts its own series.
    const next = await admit({ stud_admn_cd: await apply(), sec_cd: f.secA, stud_doj: '2027-01-05' });
    expect(next.json<Row>().stud_adm_cd).toBe('SMS/2027/0001');
    await setPattern('');
  });

  it('takes a class other than the one applied for when the office chooses it, and defaults the joining date to today', async () => {
    const id = await apply();
    const res = await admit({ stud_admn_cd: id, cls_cd: f.cls2, sec_cd: f.secC, stud_doj: null });
    expect(res.statusCode, res.body).toBe(201);
    const today = new Date();
    const p = (n: number) => String(n).padStart(2, '0');
    expect(res.json<Row>()).toMatchObject({ cls_cd: f.cls2, sec_cd: f.secC, stud_doj: `${today.getFullYear()}-${p(today.getMonth() + 1)}-${p(today.getDate())}` });
    // The application keeps the class applied for.
    expect((await application(id)).cls_cd).toBe(f.cls1);
  });

  it('refuses, writing nothing: admitted again, rejected, withdrawn, a section of another class, joining before birth, no section', async () => {
    const done = await apply();
    expect((await admit({ stud_admn_cd: done, sec_cd: f.secA })).statusCode).toBe(201);
    const rejected = await apply({ stud_admn_status: 'Rejected' });
    const withdrawn = await apply({ stud_admn_status: 'Withdrawn' });
    const open = await apply();
    const before = await studentCount();
    const cases: [Row, number, string][] = [
      [{ stud_admn_cd: done, sec_cd: f.secA }, 409, 'This application is already admitted.'],
      [{ stud_admn_cd: rejected, sec_cd: f.secA }, 409, 'This application was rejected; a rejected application cannot be admitted.'],
      [{ stud_admn_cd: withdrawn, sec_cd: f.secA }, 409, 'This application was withdrawn; a withdrawn application cannot be admitted.'],
      [{ stud_admn_cd: open, sec_cd: f.secC }, 400, "Section 'C' is not a section of the chosen class."],
      [{ stud_admn_cd: open, sec_cd: f.secA, stud_doj: '2019-01-01' }, 400, "'Date of Joining' cannot be before 'Date of Birth'."],
      [{ stud_admn_cd: open }, 400, "Please select the 'Section'."],
      [{ stud_admn_cd: open, sec_cd: f.secA, stud_doj: '2026-02-30' }, 400, "'Date of Joining' must be a date (YYYY-MM-DD)."],
    ];
    for (const [body, status, message] of cases) {
      const res = await admit(body);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json<{ message: string }>().message).toBe(message);
    }
    const noKey = await call(srv.app, office, 'POST', '/api/student_admission/admit', { stud_admn_cd: open, sec_cd: f.secA });
    expect(noKey.statusCode).toBe(400);
    expect(await studentCount()).toBe(before);
    expect(await application(open)).toMatchObject({ stud_admn_status: 'Applied', stud_cd: null });
  });

  it("keeps 'Admitted' to the admit button: no form sets it, an admitted application is not changed back or deleted", async () => {
    const id = await apply();
    const a = await application(id);
    const put = await call(srv.app, office, 'PUT', `/api/student_admission/${id}`, { row_ver: a.row_ver, stud_admn_status: 'Admitted' });
    expect(put.statusCode).toBe(400);
    expect(put.json<{ message: string }>().message).toBe("An application becomes 'Admitted' only through the Admit button, which makes its student.");
    const created = await call(srv.app, office, 'POST', '/api/student_admission/', { stud_admn_dt: '2026-03-01', stud_admn_stud_nm: 'Direct', stud_admn_status: 'Admitted' });
    expect(created.statusCode).toBe(400);
    expect((await admit({ stud_admn_cd: id, sec_cd: f.secA })).statusCode).toBe(201);
    const b = await application(id);
    const back = await call(srv.app, office, 'PUT', `/api/student_admission/${id}`, { row_ver: b.row_ver, stud_admn_status: 'Applied' });
    expect(back.statusCode).toBe(409);
    expect(back.json<{ message: string }>().message).toBe('This application is admitted and its student exists: it cannot be changed back or deleted.');
    const del = await call(srv.app, office, 'DELETE', '/api/student_admission/', { primids: [id] });
    expect(del.statusCode).toBe(409);
    // A typo in the mobile is still corrected.
    const fix = await call(srv.app, office, 'PUT', `/api/student_admission/${id}`, { row_ver: b.row_ver, stud_admn_stud_mob: '9443127651' });
    expect(fix.statusCode, fix.body).toBe(200);
  });

  it('needs the admit button', async () => {
    const id = await apply();
    const clerk = await f.employee([{ module: 'student', page: 'admission', buttons: 'view,edit' }], false);
    const res = await call(srv.app, f.as(clerk, 'student', 'admission'), 'POST', '/api/student_admission/admit', { stud_admn_cd: id, sec_cd: f.secA, idempotency_key: randomUUID() });
    expect(res.statusCode).toBe(403);
    expect((await application(id)).stud_admn_status).toBe('Applied');
  });

  it.runIf(backend === 'postgres')('20 parallel admits of one application make one student; 19 are told it is already admitted', async () => {
    const id = await apply();
    const before = await studentCount();
    const answers = await Promise.all(Array.from({ length: 20 }, () => admit({ stud_admn_cd: id, sec_cd: f.secA })));
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(19);
    for (const a of answers.filter((x) => x.statusCode === 409)) expect(a.json<{ message: string }>().message).toBe('This application is already admitted.');
    expect(await studentCount()).toBe(before + 1);
  });

  it.runIf(backend === 'postgres')('parallel admits of different applications get consecutive numbers', async () => {
    await setPattern('PAR/{YYYY}/{###}');
    const ids = await Promise.all(Array.from({ length: 8 }, () => apply()));
    const answers = await Promise.all(ids.map((id) => admit({ stud_admn_cd: id, sec_cd: f.secA, stud_doj: '2026-07-01' })));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(8).fill(201));
    expect(answers.map((a) => String(a.json<Row>().stud_adm_cd)).sort()).toEqual(Array.from({ length: 8 }, (_, i) => `PAR/2026/${String(i + 1).padStart(3, '0')}`));
    await setPattern('');
  });
});
