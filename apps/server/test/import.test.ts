import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, call, login, startTestServer, type Session, type TestServer } from './test-server';

type Row = Record<string, unknown>;

function multipart(fileName: string, content: Buffer): { payload: Buffer; headers: Record<string, string> } {
  const boundary = '----campusTestBoundary';
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, content, tail]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe.each(backends)('spreadsheet import on %s', (backend) => {
  let srv: TestServer;
  let s: Session;
  beforeAll(async () => {
    srv = await startTestServer(backend);
    s = { ...(await login(srv.app)), pagename: 'designation', modulename: 'master' };
  });
  afterAll(async () => srv?.close());

  const upload = (name: string, buf: Buffer, dryRun: boolean) => {
    const m = multipart(name, buf);
    return call(srv.app, s, 'POST', `/api/designation/import${dryRun ? '?dryRun=1' : ''}`, m.payload, { headers: m.headers });
  };
  const count = async (q: string) => (await call(srv.app, s, 'GET', `/api/designation/?q=${encodeURIComponent(q)}`)).json<{ total: number }>().total;

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

  it('refuses a file that is not what its name says', async () => {
    const res = await upload('fake.xlsx', Buffer.from('not a zip'), true);
    expect(res.statusCode).toBe(400);
    expect(res.json<Row>().message).toBe('The file is not a valid .xlsx workbook.');
  });
});
