import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows, sql } from '../src/db/client';
import { staffAccount } from './staff-account';
import { makeFixture, type Fixture, type Row } from './student-workflow-fixture';
import { backends, call, startTestServer, type Session, type TestServer } from './test-server';

const SECRET = 'whsec-Gateway-0123456789';

describe.each(backends)("an institute's settings on %s", (backend) => {
  let srv: TestServer;
  let f: Fixture;
  let office: Session;
  let college: number;

  beforeAll(async () => {
    srv = await startTestServer(backend);
    f = await makeFixture(srv);
    office = f.as(f.admin, 'institute', 'profile');
    const [c] = await rows<{ inst_cd: number }>(srv.database.db, sql`SELECT inst_cd FROM institute WHERE inst_cd <> ${office.instCd} ORDER BY inst_cd LIMIT 1`);
    college = Number(c.inst_cd);
  });
  afterAll(async () => srv?.close());

  const url = (instCd = office.instCd): string => `/api/institute/${instCd}/settings`;
  const save = (body: Row, s: Session = office, instCd?: number) => call(srv.app, s, 'POST', url(instCd), body);
  const read = (s: Session = office, instCd?: number) => call(srv.app, s, 'GET', url(instCd));
  // The five settings of the dialog (the seed has others, such as the academic year's start month).
  const stored = async (instCd = office.instCd): Promise<Row[]> =>
    (await rows<Row>(srv.database.db, sql`SELECT setg_unq_cd, setg_nm, setg_val, row_ver FROM setting WHERE inst_cd = ${instCd} ORDER BY setg_unq_cd`)).filter(
      (r) => String(r.setg_unq_cd).toUpperCase() !== 'ACDM_STRT_MN',
    );
  const audits = async (): Promise<Row[]> =>
    rows<Row>(srv.database.db, sql`SELECT actn_hsty_mthd, actn_hsty_row_key, actn_hsty_before, actn_hsty_after FROM action_history WHERE actn_hsty_entity = 'setting' ORDER BY actn_hsty_cd`);

  it('answers the defaults before anything is set, the secret as not set', async () => {
    const res = await read();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      inst_cd: office.instCd,
      settings: { ADMN_NO_PTRN: 'ADM/{YYYY}/{#####}', LIB_MAX_BOOKS_STUDENT: 3, LIB_MAX_BOOKS_EMPLOYEE: 10, LIB_LOAN_DAYS: 14, READ_BUDGET_ROWS_HOUR: 20000, PAY_WEBHOOK_SECRET: 'not set' },
    });
  });

  it('saves all five, reads them back (the secret only as set) and audits with the secret masked', async () => {
    const res = await save({ admn_no_ptrn: 'SMS/{YYYY}/{#####}', lib_max_books_student: 4, lib_max_books_employee: '12', lib_loan_days: 21, pay_webhook_secret: SECRET });
    expect(res.statusCode, res.body).toBe(200);
    const expected = {
      inst_cd: office.instCd,
      settings: { ADMN_NO_PTRN: 'SMS/{YYYY}/{#####}', LIB_MAX_BOOKS_STUDENT: 4, LIB_MAX_BOOKS_EMPLOYEE: 12, LIB_LOAN_DAYS: 21, READ_BUDGET_ROWS_HOUR: 20000, PAY_WEBHOOK_SECRET: 'set' },
    };
    expect(res.json()).toEqual(expected);
    expect((await read()).json()).toEqual(expected);
    // Stored as the workflows read them; the secret is in the database, for the webhook.
    expect((await stored()).map((r) => [r.setg_unq_cd, r.setg_val])).toEqual([
      ['ADMN_NO_PTRN', 'SMS/{YYYY}/{#####}'],
      ['LIB_LOAN_DAYS', '21'],
      ['LIB_MAX_BOOKS_EMPLOYEE', '12'],
      ['LIB_MAX_BOOKS_STUDENT', '4'],
      ['PAY_WEBHOOK_SECRET', SECRET],
    ]);
    const [audit] = (await audits()).slice(-1);
    expect(audit).toMatchObject({ actn_hsty_mthd: 'SETTINGS', actn_hsty_row_key: String(office.instCd) });
    expect(audit.actn_hsty_after).toMatchObject({ ADMN_NO_PTRN: 'SMS/{YYYY}/{#####}', LIB_LOAN_DAYS: '21', PAY_WEBHOOK_SECRET: '********' });
    expect(JSON.stringify(await audits())).not.toContain(SECRET);
  });

  it('keeps what a blank input leaves out, the secret included, and updates a row saved in another case', async () => {
    await srv.database.db.execute(sql`UPDATE setting SET setg_unq_cd = 'lib_loan_days' WHERE inst_cd = ${office.instCd} AND setg_unq_cd = 'LIB_LOAN_DAYS'`);
    const res = await save({ admn_no_ptrn: '  ', lib_max_books_student: null, lib_max_books_employee: '', lib_loan_days: 30, pay_webhook_secret: '' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ settings: Row }>().settings).toEqual({ ADMN_NO_PTRN: 'SMS/{YYYY}/{#####}', LIB_MAX_BOOKS_STUDENT: 4, LIB_MAX_BOOKS_EMPLOYEE: 12, LIB_LOAN_DAYS: 30, READ_BUDGET_ROWS_HOUR: 20000, PAY_WEBHOOK_SECRET: 'set' });
    const after = await stored();
    expect(after.find((r) => r.setg_unq_cd === 'PAY_WEBHOOK_SECRET')?.setg_val).toBe(SECRET);
    expect(after.filter((r) => String(r.setg_unq_cd).toUpperCase() === 'LIB_LOAN_DAYS')).toMatchObject([{ setg_unq_cd: 'LIB_LOAN_DAYS', setg_val: '30' }]);
    // The last audit names only what changed.
    const [audit] = (await audits()).slice(-1);
    expect(audit.actn_hsty_after).toEqual({ LIB_LOAN_DAYS: '30' });
    // Nothing typed at all writes nothing.
    const before = await audits();
    expect((await save({})).statusCode).toBe(200);
    expect(await audits()).toHaveLength(before.length);
  });

  it('never answers the secret: not by the settings list, the settings object, nor this route', async () => {
    for (const path of ['/api/setting/', '/api/setting/object', '/api/setting/?setg_unq_cd=PAY_WEBHOOK_SECRET', url()]) {
      const res = await call(srv.app, office, 'GET', path);
      expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
      expect(res.body, path).not.toContain(SECRET);
    }
    const list = (await call(srv.app, office, 'GET', '/api/setting/')).json<Row[]>();
    expect(list.map((r) => r.setg_unq_cd)).toContain('ADMN_NO_PTRN');
    expect(list.map((r) => r.setg_unq_cd)).not.toContain('PAY_WEBHOOK_SECRET');
  });

  it('refuses each wrong value with a 400 naming the setting, writing nothing (not even the right values beside it)', async () => {
    const pattern = "'Admission Number Pattern' needs exactly one number part of 3 to 9 # in braces, such as {#####}.";
    const chars = "'Admission Number Pattern' may hold only letters, digits, / - _ and the parts {YYYY}, {YY} and {#####}.";
    const cases: [Row, string, string][] = [
      [{ admn_no_ptrn: 'SMS/{YYYY}/{##}' }, 'admn_no_ptrn', pattern],
      [{ admn_no_ptrn: 'SMS/{YYYY}/{##########}' }, 'admn_no_ptrn', pattern],
      [{ admn_no_ptrn: 'SMS/{YYYY}' }, 'admn_no_ptrn', pattern],
      [{ admn_no_ptrn: '{###}/{YY}/{#####}' }, 'admn_no_ptrn', pattern],
      [{ admn_no_ptrn: 'SMS {YYYY}/{#####}' }, 'admn_no_ptrn', chars],
      [{ admn_no_ptrn: 'SMS/{MM}/{#####}' }, 'admn_no_ptrn', chars],
      [{ admn_no_ptrn: 'SMS/#####' }, 'admn_no_ptrn', chars],
      [{ admn_no_ptrn: 'SMS/{YYYY}/{#####}', lib_max_books_student: 0 }, 'lib_max_books_student', "'Books a Student May Hold' must be at least 1."],
      [{ lib_max_books_student: 101 }, 'lib_max_books_student', "'Books a Student May Hold' must be at most 100."],
      [{ lib_max_books_employee: 2.5 }, 'lib_max_books_employee', "'Books an Employee May Hold' must be a whole number."],
      [{ lib_max_books_employee: 'ten' }, 'lib_max_books_employee', "'Books an Employee May Hold' must be a number."],
      [{ lib_loan_days: 366, lib_max_books_student: 5 }, 'lib_loan_days', "'Loan Days' must be at most 365."],
      [{ lib_loan_days: 0 }, 'lib_loan_days', "'Loan Days' must be at least 1."],
      [{ pay_webhook_secret: 'short-secret', lib_loan_days: 7 }, 'pay_webhook_secret', "'Payment Webhook Secret' must be at least 16 characters."],
    ];
    const rowsBefore = await stored();
    const auditsBefore = (await audits()).length;
    for (const [body, field, message] of cases) {
      const res = await save(body);
      expect(res.statusCode, `${JSON.stringify(body)}: ${res.body}`).toBe(400);
      const answer = res.json<{ message: string; details?: { field: string; message: string }[] }>();
      expect(answer.message).toBe(message);
      expect(answer.details?.[0]).toEqual({ field, message });
    }
    // A setting the dialog does not ask for is no setting.
    expect((await save({ acdm_strt_mn: 'Jun' })).statusCode).toBe(400);
    expect(await stored()).toEqual(rowsBefore);
    expect(await audits()).toHaveLength(auditsBefore);
  });

  it("takes {YY} and literal text around the number part", async () => {
    const res = await save({ admn_no_ptrn: 'adm-{YY}_{###}-x' });
    expect(res.statusCode, res.body).toBe(200);
    expect((await save({ admn_no_ptrn: 'SMS/{YYYY}/{#####}' })).statusCode).toBe(200);
  });

  it("needs the page's settings button to change, view or settings to read", async () => {
    const viewer = (await staffAccount(srv.app, f.admin, { 'institute/profile': 'view' }, false)).session;
    const asViewer = { ...viewer, modulename: 'institute', pagename: 'profile' };
    const before = await stored();
    const refused = await save({ lib_loan_days: 9 }, asViewer);
    expect(refused.statusCode, refused.body).toBe(403);
    expect(await stored()).toEqual(before);
    const seen = await read(asViewer);
    expect(seen.statusCode, seen.body).toBe(200);
    expect(seen.json<{ settings: Row }>().settings.PAY_WEBHOOK_SECRET).toBe('set');

    const setter = (await staffAccount(srv.app, f.admin, { 'institute/profile': 'settings' }, false)).session;
    const asSetter = { ...setter, modulename: 'institute', pagename: 'profile' };
    expect((await read(asSetter)).statusCode).toBe(200);
    const saved = await save({ lib_loan_days: 9 }, asSetter);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<{ settings: Row }>().settings.LIB_LOAN_DAYS).toBe(9);

    const outsider = (await staffAccount(srv.app, f.admin, { 'student/profile': 'view' }, false)).session;
    expect((await read({ ...outsider, modulename: 'institute', pagename: 'profile' })).statusCode).toBe(403);
  });

  it('refuses an institute other than the one the request works in, and one the user is not mapped to', async () => {
    // The admin is mapped to the college too, but works in the school: the path must name the school.
    const other = await save({ lib_loan_days: 5 }, office, college);
    expect(other.statusCode, other.body).toBe(403);
    expect(other.json<{ message: string }>().message).toBe('You can change the settings of the institute you are working in only.');
    expect((await read(office, college)).statusCode).toBe(403);
    expect(await stored(college)).toEqual([]);
    // Working in the college, its own settings are its own, apart from the school's.
    const inCollege = { ...office, instCd: college, acdmCd: undefined };
    const own = await save({ lib_loan_days: 5 }, inCollege, college);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json<{ settings: Row }>().settings).toMatchObject({ LIB_LOAN_DAYS: 5, ADMN_NO_PTRN: 'ADM/{YYYY}/{#####}', PAY_WEBHOOK_SECRET: 'not set' });
    expect((await read()).json<{ settings: Row }>().settings.LIB_LOAN_DAYS).toBe(9);
    // A staff member of the school alone cannot reach the college at all.
    const staff = (await staffAccount(srv.app, f.admin, { 'institute/profile': 'settings' }, false)).session;
    const foreign = await save({ lib_loan_days: 6 }, { ...staff, instCd: college, modulename: 'institute', pagename: 'profile' }, college);
    expect(foreign.statusCode).toBe(403);
    expect((await stored(college)).find((r) => r.setg_unq_cd === 'LIB_LOAN_DAYS')?.setg_val).toBe('5');
  });

  it('numbers the next admission by the saved pattern', async () => {
    expect((await save({ admn_no_ptrn: 'KVS-{YY}/{####}' })).statusCode).toBe(200);
    const admission = f.as(f.admin, 'student', 'admission');
    const id = await f.created(
      admission,
      '/api/student_admission/',
      { stud_admn_dt: '2026-03-01', stud_admn_stud_nm: 'Kavya Raman', stud_admn_stud_dob: '2019-05-04', cls_cd: f.cls1, stud_admn_status: 'Applied' },
      'stud_admn_cd',
    );
    const res = await call(srv.app, admission, 'POST', '/api/student_admission/admit', { idempotency_key: randomUUID(), stud_admn_cd: id, sec_cd: f.secA, stud_doj: '2026-06-03' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<Row>().stud_adm_cd).toBe('KVS-26/0001');
  });
});
