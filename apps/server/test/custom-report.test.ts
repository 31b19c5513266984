import { apiPath } from '@campus/entities/define';
import { entity } from '@campus/entities/registry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, call, login, startTestServer, type Session, type TestServer } from './test-server';
import { staffAccount } from './staff-account';

type Row = Record<string, unknown>;

const API = '/api/custom_report/';

/**
 * Custom reports are definitions checked against the declaration of the entity they report on, on every
 * write; running one is that entity's own list call, so its permissions and 'his students only' apply.
 */
describe.each(backends)('custom reports on %s', (backend) => {
  let srv: TestServer;
  let admin: Session;
  let teacher: Session;
  let thisYear = 0;
  let cls1 = 0;
  let secA = 0;
  let secB = 0;
  let studA = 0;
  let studB = 0;
  const tag = `R${Date.now().toString(36).toUpperCase()}`;
  let counter = 0;
  const next = (): string => `${tag}${counter++}`;

  const as = (s: Session, module: string, page: string): Session => ({ ...s, modulename: module, pagename: page, acdmCd: thisYear });
  const reports = (s: Session): Session => as(s, 'reports', 'custom_report');

  async function created(s: Session, url: string, body: Row, key: string): Promise<number> {
    const res = await call(srv.app, s, 'POST', url, body);
    expect(res.statusCode, `${url}: ${res.body}`).toBe(201);
    return Number(res.json<Row>()[key]);
  }

  const report = (over: Row = {}): Row => ({
    cst_rpt_nm: `Report ${next()}`,
    cst_rpt_entity: 'student',
    cst_rpt_cols: ['stud_fs_nm', 'cls_cd', 'sec_cd', 'stud_ph'],
    cst_rpt_fltrs: [{ field: 'cls_cd', value: cls1 }],
    cst_rpt_sort: 'stud_fs_nm',
    cst_rpt_dir: 'desc',
    ...over,
  });

  async function refused(s: Session, body: Row, message: string): Promise<void> {
    const res = await call(srv.app, s, 'POST', API, body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json<{ message: string }>().message).toBe(message);
  }

  beforeAll(async () => {
    srv = await startTestServer(backend);
    admin = await login(srv.app);
    const years = (await call(srv.app, as(admin, 'institute', 'academic'), 'GET', '/api/academic/?size=50')).json<{ rows: Row[] }>().rows;
    thisYear = Number(years.find((y) => y.acdm_sts === true)?.acdm_cd);
    cls1 = await created(as(admin, 'class_section', 'class'), '/api/class/', { cls_nm: `Class ${next()}` }, 'cls_cd');
    secA = await created(as(admin, 'class_section', 'section'), '/api/section/', { sec_nm: 'A', cls_cd: cls1 }, 'sec_cd');
    secB = await created(as(admin, 'class_section', 'section'), '/api/section/', { sec_nm: 'B', cls_cd: cls1 }, 'sec_cd');
    const subCd = await created(as(admin, 'subject', 'subject'), '/api/subject/', { sub_nm: `Science ${next()}` }, 'sub_cd');

    // His students only on the student page; the custom report page to build and run reports.
    const staff = await staffAccount(srv.app, admin, { 'student/profile': 'view,export', 'reports/custom_report': 'view,create,edit,delete' }, true);
    const usrCd = staff.usrCd;
    teacher = { ...staff.session, acdmCd: thisYear };
    await created(as(admin, 'subject', 'subject_detail'), '/api/subjectDetail/', { cls_cd: cls1, sec_cd: secA, sub_cd: subCd, usr_cd: usrCd }, 'sub_dtl_cd');

    const student = (sec: number, name: string): Row => ({ stud_fs_nm: name, stud_adm_cd: `ADM${next()}`, cls_cd: cls1, sec_cd: sec });
    studA = await created(as(admin, 'student', 'profile'), '/api/student/', student(secA, `Own ${tag}`), 'stud_cd');
    studB = await created(as(admin, 'student', 'profile'), '/api/student/', student(secB, `Other ${tag}`), 'stud_cd');
  });
  afterAll(async () => srv?.close());

  it('saves a valid definition, filter values as the list API takes them', async () => {
    const res = await call(srv.app, reports(admin), 'POST', API, report({ cst_rpt_fltrs: [{ field: 'cls_cd', value: cls1 }, { field: 'stud_gnd', value: 'Female' }] }));
    expect(res.statusCode, res.body).toBe(201);
    const row = res.json<Row>();
    expect(row.cst_rpt_cols).toEqual(['stud_fs_nm', 'cls_cd', 'sec_cd', 'stud_ph']);
    expect(row.cst_rpt_fltrs).toEqual([
      { field: 'cls_cd', value: String(cls1) },
      { field: 'stud_gnd', value: 'Female' },
    ]);
    // Nothing chosen: the entity's default columns, no filters.
    const bare = await call(srv.app, reports(admin), 'POST', API, report({ cst_rpt_cols: [], cst_rpt_fltrs: null, cst_rpt_sort: null }));
    expect(bare.statusCode, bare.body).toBe(201);
    expect(bare.json<Row>()).toMatchObject({ cst_rpt_cols: null, cst_rpt_fltrs: null });
  });

  it('refuses columns, filters and sorts that are not fields of the entity, naming them', async () => {
    const s = reports(admin);
    await refused(s, report({ cst_rpt_cols: ['stud_fs_nm', 'no_such'] }), "Column 'no_such' is not a field of Student.");
    await refused(s, report({ cst_rpt_entity: 'employee', cst_rpt_cols: ['usr_full_nm', 'usr_pwd'], cst_rpt_fltrs: [], cst_rpt_sort: null }), "Column 'usr_pwd' (Password) cannot be used in a report.");
    await refused(s, report({ cst_rpt_entity: 'notification', cst_rpt_cols: ['ntf_nm', 'ntf_qry'], cst_rpt_fltrs: [], cst_rpt_sort: null }), "Column 'ntf_qry' (Query) cannot be used in a report.");
    await refused(s, report({ cst_rpt_entity: 'collected_fee', cst_rpt_cols: ['fee_coll_cd', 'fee_coll_idem_key'], cst_rpt_fltrs: [], cst_rpt_sort: null }), "Column 'fee_coll_idem_key' (Idempotency Key) cannot be used in a report.");
    await refused(s, report({ cst_rpt_cols: ['stud_fs_nm', 'stud_fs_nm'] }), "Column 'stud_fs_nm' is chosen twice.");
    await refused(s, report({ cst_rpt_cols: 'stud_fs_nm' }), "'Columns' must be a list of field names.");
    await refused(s, report({ cst_rpt_fltrs: [{ field: 'stud_fthr', value: 'x' }] }), "Filter 'stud_fthr' is not a field of Student.");
    await refused(s, report({ cst_rpt_sort: 'stud_age' }), "Sort field 'stud_age' is not a field of Student.");
  });

  it("refuses a filter value the field's own rule refuses", async () => {
    const s = reports(admin);
    const doj = entity('student').fields.stud_doj.label;
    await refused(s, report({ cst_rpt_fltrs: [{ field: 'stud_doj', value: '2026-02-30' }] }), `Filter 'stud_doj': '${doj}' must be a date (YYYY-MM-DD).`);
    await refused(s, report({ cst_rpt_fltrs: [{ field: 'stud_gnd', value: 'Unknown' }] }), "Filter 'stud_gnd': 'Gender' must be one of Male, Female, Other.");
    await refused(s, report({ cst_rpt_fltrs: [{ field: 'cls_cd', value: 'abc' }] }), "Filter 'cls_cd': 'Class' is not a valid choice.");
    await refused(s, report({ cst_rpt_fltrs: [{ field: 'stud_ph', value: '' }] }), "Filter 'stud_ph' needs a value.");
    await refused(s, report({ cst_rpt_fltrs: [{ field: 'cls_cd', value: cls1 }, { field: 'cls_cd', value: cls1 }] }), "Filter 'cls_cd' is given twice.");
  });

  it("refuses a report on an entity whose page the user cannot open, on create and on update", async () => {
    const s = reports(teacher);
    await refused(s, report({ cst_rpt_entity: 'expense', cst_rpt_cols: ['exp_desc', 'exp_amt'], cst_rpt_fltrs: [], cst_rpt_sort: null }), 'You cannot build a report on Income / Expense: you are not allowed to open its page.');
    // Not a reportable entity at all: the declared options refuse it before anything else.
    const perm = await call(srv.app, s, 'POST', API, report({ cst_rpt_entity: 'user_permission' }));
    expect(perm.statusCode).toBe(400);

    const own = await call(srv.app, s, 'POST', API, report());
    expect(own.statusCode, own.body).toBe(201);
    const row = own.json<Row>();
    // Moving it to another entity is checked as the whole row: the student columns are not the religion's.
    const moved = await call(srv.app, reports(admin), 'PUT', `${API}${row.cst_rpt_cd}`, { cst_rpt_entity: 'religion', row_ver: row.row_ver });
    expect(moved.statusCode, moved.body).toBe(400);
    expect(moved.json<{ message: string }>().message).toBe("Column 'stud_fs_nm' is not a field of Religion.");
    const renamed = await call(srv.app, s, 'PUT', `${API}${row.cst_rpt_cd}`, { cst_rpt_nm: `Renamed ${next()}`, row_ver: row.row_ver });
    expect(renamed.statusCode, renamed.body).toBe(200);
  });

  it("runs as the entity's own list call: the teacher sees only his students, the admin all of them", async () => {
    const saved = (await call(srv.app, reports(admin), 'POST', API, report({ cst_rpt_q: tag }))).json<Row>();
    const def = (await call(srv.app, reports(teacher), 'GET', `${API}${saved.cst_rpt_cd}`)).json<Row>();
    const query = new URLSearchParams({ q: String(def.cst_rpt_q), sort: String(def.cst_rpt_sort), dir: String(def.cst_rpt_dir), page: '1', size: '50' });
    for (const f of def.cst_rpt_fltrs as { field: string; value: string }[]) query.set(`f_${f.field}`, f.value);
    const run = (s: Session) => call(srv.app, as(s, 'student', 'profile'), 'GET', `/api/student/?${query.toString()}`);

    const mine = await run(teacher);
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json<{ rows: Row[] }>().rows.map((r) => r.stud_cd)).toEqual([studA]);
    const all = await run(admin);
    // Sorted as saved: name descending puts 'Own' before 'Other'.
    expect(all.json<{ rows: Row[] }>().rows.map((r) => r.stud_cd)).toEqual([studA, studB]);
    // Without a page of the entity there is nothing to run it with.
    const noPage = await call(srv.app, as(teacher, 'reports', 'custom_report'), 'GET', '/api/expense/?size=5');
    expect(noPage.statusCode).toBe(403);
  });
});

describe.each(backends)("the demo school's saved reports on %s", (backend) => {
  let srv: TestServer;
  let admin: Session;
  beforeAll(async () => {
    srv = await startTestServer(backend, {}, { demo: true });
    admin = await login(srv.app);
  });
  afterAll(async () => srv?.close());

  it('are definitions the hook accepts, and each runs and finds rows', async () => {
    const s: Session = { ...admin, modulename: 'reports', pagename: 'custom_report' };
    const saved = (await call(srv.app, s, 'GET', `${API}?size=50`)).json<{ rows: Row[] }>().rows;
    expect(saved.map((r) => r.cst_rpt_nm)).toEqual(expect.arrayContaining(['VIII class list', 'Tamil medium girls', 'Electricity bills', 'Payment modes turned off']));
    for (const r of saved) {
      // A change makes the hook check the whole stored definition again.
      const again = await call(srv.app, s, 'PUT', `${API}${r.cst_rpt_cd}`, { cst_rpt_dscr: `${String(r.cst_rpt_dscr)}.`, row_ver: r.row_ver });
      expect(again.statusCode, `${String(r.cst_rpt_nm)}: ${again.body}`).toBe(200);
      const base = entity(String(r.cst_rpt_entity));
      const query = new URLSearchParams({ sort: String(r.cst_rpt_sort), dir: String(r.cst_rpt_dir) });
      for (const f of r.cst_rpt_fltrs as { field: string; value: string }[]) query.set(`f_${f.field}`, f.value);
      const run = await call(srv.app, s, 'GET', `${apiPath(base)}?${query.toString()}`);
      expect(run.statusCode, `${String(r.cst_rpt_nm)}: ${run.body}`).toBe(200);
      expect(run.json<{ total: number }>().total, String(r.cst_rpt_nm)).toBeGreaterThan(0);
    }
  });
});
