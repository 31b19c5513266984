import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, call, login, startTestServer, type Session, type TestServer, multipartFile } from './test-server';

type Row = Record<string, unknown>;

describe.each(backends)('spreadsheet import on %s', (backend) => {
  let srv: TestServer;
  let s: Session;
  beforeAll(async () => {
    srv = await startTestServer(backend);
    s = { ...(await login(srv.app)), pagename: 'designation', modulename: 'master' };
  });
  afterAll(async () => srv?.close());

  const upload = (name: string, buf: Buffer, dryRun: boolean) => {
    const m = multipartFile(name, buf);
    return call(srv.app, s, 'POST', `/api/designation/import${dryRun ? '?dryRun=1' : ''}`, m.payload, { headers: m.headers });
  };
  const count = async (q: string) => (await call(srv.app, s, 'GET', `/api/designation/?q=${encodeURIComponent(q)}`)).json<{ total: number }>().total;
  /** Import into another entity, with the page headers its permission check wants. */
  const importInto = (api: string, page: { pagename: string; modulename: string }, csv: string, dryRun: boolean) => {
    const m = multipartFile(`${api}.csv`, Buffer.from(csv));
    return call(srv.app, { ...s, ...page }, 'POST', `/api/${api}/import${dryRun ? '?dryRun=1' : ''}`, m.payload, { headers: m.headers });
  };
  const religionPage = { pagename: 'religion', modulename: 'master' };
  const employeePage = { pagename: 'profile', modulename: 'employee' };
  const totalOf = async (api: string, page: { pagename: string; modulename: string }) =>
    (await call(srv.app, { ...s, ...page }, 'GET', `/api/${api}/?size=1`)).json<{ total: number }>().total;
  type ImportBody = { ok: boolean; total: number; imported: number; errors: { row: number; field: string; message: string }[] };

  it('reports errors per row on a dry run and imports nothing while any row is wrong', async () => {
    const csv = 'Designation Name,Order,Description\nImported Clerk,10,Front desk\n,11,Missing name\nImported Clerk,12,Repeats row 2\nImported Driver,abc,Bad order\n';
    const dry = await upload('designations.csv', Buffer.from(csv), true);
    expect(dry.statusCode, dry.body).toBe(200);
    const res = dry.json<{ ok: boolean; errors: Row[] }>();
    expect(res.ok).toBe(false);
    expect(res.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ row: 3, field: 'desg_nm', message: "Please enter the 'Designation Name'." }),
        expect.objectContaining({ row: 4, field: 'desg_nm' }),
        expect.objectContaining({ row: 5, field: 'desg_odr' }),
      ]),
    );
    const commit = await upload('designations.csv', Buffer.from(csv), false);
    expect(commit.json<{ ok: boolean; imported: number }>()).toMatchObject({ ok: false, imported: 0 });
    expect(await count('Imported')).toBe(0);
  });

  it('imports every row of a clean .xlsx in one go, and refuses a clash with stored rows', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Designation');
    ws.addRow(['desg_nm', 'desg_odr', 'desg_desc']);
    ws.addRow(['Xlsx Warden', 20, 'Hostel']);
    ws.addRow(['Xlsx Counsellor', 21, 'Student welfare']);
    const buf = Buffer.from(await wb.xlsx.writeBuffer());
    const dry = await upload('designations.xlsx', buf, true);
    expect(dry.json<{ ok: boolean; total: number }>()).toMatchObject({ ok: true, total: 2 });
    expect(await count('Xlsx')).toBe(0);
    const commit = await upload('designations.xlsx', buf, false);
    expect(commit.json<{ ok: boolean; imported: number }>()).toMatchObject({ ok: true, imported: 2 });
    expect(await count('Xlsx')).toBe(2);
    const again = await upload('designations.xlsx', buf, false);
    expect(again.json<{ ok: boolean; errors: Row[] }>().ok).toBe(false);
    expect(await count('Xlsx')).toBe(2);
  });

  it('reports every row that clashes with stored rows in one dry run, not only the first', async () => {
    // Rows 2 and 3 both name religions the seed stored; the database check of row 2 must not hide row 3.
    const csv = 'Religion Name,Description\nHindu,Stored already\nMuslim,Stored already\nImported Parsi,New\n';
    const before = await totalOf('religion', religionPage);
    const dry = await importInto('religion', religionPage, csv, true);
    expect(dry.statusCode, dry.body).toBe(200);
    const res = dry.json<ImportBody>();
    expect(res).toMatchObject({ ok: false, total: 3, imported: 0 });
    expect(res.errors).toEqual([
      { row: 2, field: 'rgn_nm', message: "Religion Name 'Hindu' already exists." },
      { row: 3, field: 'rgn_nm', message: "Religion Name 'Muslim' already exists." },
    ]);
    expect(await totalOf('religion', religionPage)).toBe(before);
  });

  it('lists duplicates, unknown links and hook refusals of every row, and a commit of that file writes nothing', async () => {
    const csv = [
      'Login Id,Full Name,Employee Id,Role,Allow Login',
      'ADMIN,Second Admin,EMP9001,TEACHER,no', // Login Id stored already (unique across institutes)
      'IMPT_OK,Fine Row,EMP9002,TEACHER,no', // clean: must not be written while other rows are wrong
      'IMPT_DUPID,Dup Id,EMP0001,TEACHER,no', // Employee Id stored already
      'IMPT_BADROLE,Bad Role,EMP9003,99999,no', // a role code that does not exist: only the database knows
      'IMPT_NOPWD,No Password,EMP9004,TEACHER,yes', // the employee hook refuses login without a password
      'IMPT_NOROLE,No Role,EMP9005,Astronaut,no', // a role name that is not found (checked before the database)
    ].join('\n');
    const before = await totalOf('employee', employeePage);
    const dry = await importInto('employee', employeePage, csv, true);
    expect(dry.statusCode, dry.body).toBe(200);
    const expected = [
      { row: 2, field: 'usr_nm', message: "Login Id 'ADMIN' already exists." },
      { row: 4, field: 'usr_id', message: "Employee Id 'EMP0001' already exists." },
      { row: 5, field: 'usr_typ', message: "'Role' is not a valid choice." },
      { row: 6, field: '', message: "Please enter the 'Password' to allow login." },
      { row: 7, field: 'usr_typ', message: "'Role' 'Astronaut' was not found." },
    ];
    expect(dry.json<ImportBody>()).toMatchObject({ ok: false, total: 6, imported: 0, errors: expected });
    expect(await totalOf('employee', employeePage)).toBe(before);

    // The commit reports the same errors and, all or nothing, does not write the clean row either.
    const commit = await importInto('employee', employeePage, csv, false);
    expect(commit.statusCode, commit.body).toBe(200);
    expect(commit.json<ImportBody>()).toMatchObject({ ok: false, total: 6, imported: 0, errors: expected });
    expect(await totalOf('employee', employeePage)).toBe(before);

    // Once the bad rows are gone the same clean row commits.
    const clean = await importInto('employee', employeePage, 'Login Id,Full Name,Employee Id,Role\nIMPT_OK,Fine Row,EMP9002,TEACHER\nIMPT_OK2,Fine Too,EMP9006,OFFICE CLERK\n', false);
    expect(clean.json<ImportBody>()).toMatchObject({ ok: true, total: 2, imported: 2, errors: [] });
    expect(await totalOf('employee', employeePage)).toBe(before + 2);
  });

  it('caps the list at 500 errors and says how many more were found', async () => {
    // Every row fails in the database (unknown role code), so this also runs 510 savepoints in one transaction.
    const lines = ['Login Id,Full Name,Role'];
    for (let i = 0; i < 510; i++) lines.push(`IMPT_CAP${i},Cap ${i},99999`);
    const before = await totalOf('employee', employeePage);
    const res = (await importInto('employee', employeePage, lines.join('\n'), true)).json<ImportBody>();
    expect(res).toMatchObject({ ok: false, total: 510 });
    expect(res.errors).toHaveLength(501);
    expect(res.errors[499]).toMatchObject({ row: 501, field: 'usr_typ' });
    expect(res.errors[500]).toMatchObject({ row: 502, field: '' });
    expect(res.errors[500].message).toMatch(/^10 more problems were found/);
    expect(await totalOf('employee', employeePage)).toBe(before);
  });

  it('refuses a file that is not what its name says', async () => {
    const res = await upload('fake.xlsx', Buffer.from('not a zip'), true);
    expect(res.statusCode).toBe(400);
    expect(res.json<Row>().message).toBe('The file is not a valid .xlsx workbook.');
  });
});
