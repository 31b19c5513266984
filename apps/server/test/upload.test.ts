import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sniffFile } from '../src/workflows/file-upload/file-sniff';
import { sweepUploads } from '../src/workflows/file-upload/file-upload.handler';
import { backends, call, login, startTestServer, type Session, type TestServer } from './test-server';

type Row = Record<string, unknown>;

const PWD = 'Clerk-Pass-2026';
const IMAGE_MESSAGE = 'Please upload only image file';

// Smallest real files of each kind: the server decides by these bytes, never by the name.
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4c50000000049454e44ae426082', 'hex');
const JPEG = Buffer.concat([Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex'), Buffer.alloc(32, 1), Buffer.from('ffd9', 'hex')]);
const GIF = Buffer.from('47494638396101000100800000000000ffffff2c00000000010001000002024401003b', 'hex');
const ICO = (() => {
  const b = Buffer.alloc(6 + 16 + 40);
  b.writeUInt16LE(1, 2);
  b.writeUInt16LE(1, 4);
  b.writeUInt32LE(40, 6 + 8);
  b.writeUInt32LE(22, 6 + 12);
  return b;
})();
const BMP = (() => {
  const b = Buffer.alloc(58);
  b.write('BM', 0, 'ascii');
  b.writeUInt32LE(58, 2);
  b.writeUInt32LE(54, 10);
  b.writeUInt32LE(40, 14);
  return b;
})();
const SVG = Buffer.from('<?xml version="1.0"?>\n<!-- logo -->\n<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><script>alert(1)</script></svg>');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');
const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(62), Buffer.from('This program cannot be run in DOS mode.')]);
const TEXT = Buffer.from('just some text pretending to be a picture');
const HTML = Buffer.from('<html><body><svg></svg></body></html>');

describe('file sniffing', () => {
  it('knows each accepted kind by its bytes and nothing else', () => {
    expect(sniffFile(PNG)?.mime).toBe('image/png');
    expect(sniffFile(JPEG)?.mime).toBe('image/jpeg');
    expect(sniffFile(GIF)?.mime).toBe('image/gif');
    expect(sniffFile(ICO)?.mime).toBe('image/x-icon');
    expect(sniffFile(BMP)?.mime).toBe('image/bmp');
    expect(sniffFile(SVG)?.mime).toBe('image/svg+xml');
    expect(sniffFile(PDF)?.mime).toBe('application/pdf');
    for (const bad of [EXE, TEXT, HTML, Buffer.from('BMsome text'), Buffer.alloc(0), Buffer.from([0, 0, 1, 0, 0, 0])]) expect(sniffFile(bad)).toBeNull();
  });
});

describe.each(backends)('uploads on %s', (backend) => {
  let srv: TestServer;
  let admin: Session;
  let uploadDir: string;
  let webDist: string;
  let counter = 0;

  beforeAll(async () => {
    uploadDir = mkdtempSync(join(tmpdir(), 'campus-uploads-'));
    webDist = mkdtempSync(join(tmpdir(), 'campus-web-'));
    srv = await startTestServer(backend, { uploadDir, webDist });
    admin = await login(srv.app);
  });
  afterAll(async () => {
    await srv?.close();
    rmSync(uploadDir, { recursive: true, force: true });
    rmSync(webDist, { recursive: true, force: true });
  });

  const as = (s: Session, module: string, page: string): Session => ({ ...s, modulename: module, pagename: page });
  const unique = (prefix: string): string => `${prefix}${Date.now().toString(36).toUpperCase()}${counter++}`;
  const profile = (s: Session): Session => as(s, 'employee', 'profile');

  function multipart(filename: string, content: Buffer): { payload: Buffer; headers: Record<string, string> } {
    const boundary = `----campus${counter++}`;
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: image/png\r\n\r\n`),
      content,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
  }

  function send(s: Session, entity: string, field: string, filename: string, content: Buffer) {
    const m = multipart(filename, content);
    return call(srv.app, s, 'POST', `/api/fileupload/?entity=${entity}&field=${field}`, m.payload, { headers: m.headers });
  }

  async function fileId(s: Session, entity: string, field: string, filename: string, content: Buffer): Promise<string> {
    const res = await send(s, entity, field, filename, content);
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json<{ file_id: string }>().file_id;
    expect(id).toMatch(/^[\w-]{20,40}$/);
    return id;
  }

  async function roleId(name: string, instCd = 1): Promise<number> {
    const res = await call(srv.app, { ...profile(admin), instCd }, 'GET', `/api/role/?f_rl_nm=${encodeURIComponent(name)}`);
    return Number(res.json<{ rows: Row[] }>().rows[0].rl_cd);
  }

  async function newEmployee(s: Session, extra: Row = {}, instCd = 1): Promise<Row> {
    const usr_nm = unique('UPL');
    const res = await call(srv.app, { ...profile(s), instCd }, 'POST', '/api/employee/', {
      usr_nm,
      usr_full_nm: `Staff ${usr_nm}`,
      usr_typ: await roleId('OFFICE CLERK', instCd),
      usr_is_lgn: true,
      usr_pwd: PWD,
      ...extra,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<Row>();
  }

  async function staff(grants: { module: string; page: string; btns: string }[], instCd = 1): Promise<Session> {
    const row = await newEmployee(admin, {}, instCd);
    if (grants.length) {
      const saved = await call(
        srv.app,
        { ...as(admin, 'user_permission', 'permission'), instCd },
        'POST',
        '/api/user_permission/?usrNeedDataChk=0',
        grants.map((g) => ({ usr_prms_usr_cd: row.usr_cd, usr_prms_mdl: g.module, usr_prms_page: g.page, usr_prms_is_alw: 1, usr_prms_btns: g.btns })),
      );
      expect(saved.statusCode, saved.body).toBe(200);
    }
    return login(srv.app, String(row.usr_nm), PWD);
  }

  const getFile = (s: Session, usrCd: unknown) => call(srv.app, profile(s), 'GET', `/api/file/employee/${String(usrCd)}/usr_photo`);

  it('accepts PNG, JPEG, GIF, ICO, BMP and SVG by content, whatever their names', async () => {
    for (const [name, bytes] of [
      ['a.png', PNG],
      ['b.jpg', JPEG],
      ['c.gif', GIF],
      ['d.ico', ICO],
      ['e.bmp', BMP],
      ['f.svg', SVG],
      ['no-extension', PNG],
    ] as const) {
      await fileId(profile(admin), 'employee', 'usr_photo', name, bytes);
    }
  });

  it('refuses a .png-named text or EXE with the spec message, and a PDF where only images are allowed', async () => {
    for (const bytes of [TEXT, EXE, HTML, PDF]) {
      const res = await send(profile(admin), 'employee', 'usr_photo', 'photo.png', bytes);
      expect(res.statusCode).toBe(400);
      expect(res.json<Row>().message).toBe(IMAGE_MESSAGE);
    }
  });

  it('takes a PDF where the field allows it (circular attachment) and still refuses an EXE there', async () => {
    const circ = as(admin, 'institute', 'circular');
    const id = await fileId(circ, 'circular', 'crlr_atch', 'notice.pdf', PDF);
    const exe = await send(circ, 'circular', 'crlr_atch', 'notice.pdf', EXE);
    expect(exe.statusCode).toBe(400);
    const created = await call(srv.app, circ, 'POST', '/api/circular/', { crlr_sub: 'Sports day', crlr_dt: '2026-01-10', crlr_atch: id });
    expect(created.statusCode, created.body).toBe(201);
    const row = created.json<Row>();
    expect(row.crlr_atch).toBe('notice.pdf');
    const res = await call(srv.app, circ, 'GET', `/api/file/circular/${String(row.crlr_cd)}/crlr_atch`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(/^inline;/);
    expect(res.rawPayload.equals(PDF)).toBe(true);
  });

  it('refuses unknown fields and non-file fields', async () => {
    expect((await send(profile(admin), 'employee', 'usr_full_nm', 'a.png', PNG)).statusCode).toBe(400);
    expect((await send(profile(admin), 'nothing', 'usr_photo', 'a.png', PNG)).statusCode).toBe(400);
    expect((await send(profile(admin), 'employee', '__proto__', 'a.png', PNG)).statusCode).toBe(400);
  });

  it('creates a row with a file_id and serves the bytes with the safety headers', async () => {
    const id = await fileId(profile(admin), 'employee', 'usr_photo', 'face.png', PNG);
    const row = await newEmployee(admin, { usr_photo: id });
    expect(row.usr_photo).toBe('face.png');
    const res = await getFile(admin, row.usr_cd);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.rawPayload.equals(PNG)).toBe(true);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-disposition']).toBe(`inline; filename="face.png"; filename*=UTF-8''face.png`);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBe('sandbox');

    // The same file_id cannot be claimed twice.
    const again = await call(srv.app, profile(admin), 'POST', '/api/employee/', {
      usr_nm: unique('UPL'),
      usr_full_nm: 'Second',
      usr_typ: await roleId('OFFICE CLERK'),
      usr_photo: id,
    });
    expect(again.statusCode).toBe(400);
    expect(again.json<{ details: Row[] }>().details[0].field).toBe('usr_photo');
  });

  it('serves an SVG as an attachment, never inline', async () => {
    const id = await fileId(profile(admin), 'employee', 'usr_photo', 'logo.svg', SVG);
    const row = await newEmployee(admin, { usr_photo: id });
    const res = await getFile(admin, row.usr_cd);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.headers['content-disposition']).toMatch(/^attachment;/);
    expect(res.headers['content-security-policy']).toBe('sandbox');
  });

  it('refuses an unknown file_id, one of another user, another field or another institute', async () => {
    const unknown = await call(srv.app, profile(admin), 'POST', '/api/employee/', {
      usr_nm: unique('UPL'),
      usr_full_nm: 'X',
      usr_typ: await roleId('OFFICE CLERK'),
      usr_photo: 'no-such-file-id-000000000',
    });
    expect(unknown.statusCode).toBe(400);

    const clerk = await staff([
      { module: 'employee', page: 'profile', btns: 'create,edit' },
      { module: 'institute', page: 'circular', btns: 'create,edit' },
    ]);
    const clerkFile = await fileId(profile(clerk), 'employee', 'usr_photo', 'c.png', PNG);
    const target = await newEmployee(admin);
    const put = (s: Session, value: string) => call(srv.app, profile(s), 'PUT', `/api/employee/${String(target.usr_cd)}`, { usr_photo: value, row_ver: target.row_ver });
    expect((await put(admin, clerkFile)).statusCode).toBe(400);

    const circularFile = await fileId(as(admin, 'institute', 'circular'), 'circular', 'crlr_atch', 'p.png', PNG);
    expect((await put(admin, circularFile)).statusCode).toBe(400);

    const collegeFile = await fileId({ ...profile(admin), instCd: 2 }, 'employee', 'usr_photo', 'p.png', PNG);
    expect((await put(admin, collegeFile)).statusCode).toBe(400);

    // The clerk's own upload works for the clerk.
    const ok = await put(clerk, clerkFile);
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('lets only users who may see the row have its file', async () => {
    const row = await newEmployee(admin, { usr_photo: await fileId(profile(admin), 'employee', 'usr_photo', 'x.png', PNG) });
    expect((await getFile(admin, row.usr_cd)).statusCode).toBe(200);
    // Without the page (and not their own row).
    const outsider = await staff([{ module: 'master', page: 'religion', btns: '' }]);
    expect((await getFile(outsider, row.usr_cd)).statusCode).toBe(403);
    // With the page in another institute: the row is not theirs to see.
    const college = await staff([{ module: 'employee', page: 'profile', btns: 'create,edit' }], 2);
    expect([403, 404]).toContain((await getFile(college, row.usr_cd)).statusCode);
    expect((await getFile({ ...admin, instCd: 2 }, row.usr_cd)).statusCode).toBe(404);
    // Upload needs the page's create or edit button.
    const viewer = await staff([{ module: 'employee', page: 'profile', btns: '' }]);
    expect((await send(profile(viewer), 'circular', 'crlr_atch', 'a.png', PNG)).statusCode).toBe(403);
  });

  it("lets a user change their own photo without the page (self-service), and no one else's", async () => {
    const me = await staff([{ module: 'master', page: 'religion', btns: '' }]);
    const id = await fileId(profile(me), 'employee', 'usr_photo', 'me.png', PNG);
    const mine = await call(srv.app, profile(me), 'GET', `/api/employee/${me.usr_cd}`);
    const put = await call(srv.app, profile(me), 'PUT', `/api/employee/${me.usr_cd}`, { usr_photo: id, row_ver: mine.json<Row>().row_ver });
    expect(put.statusCode, put.body).toBe(200);
    expect((await getFile(me, me.usr_cd)).rawPayload.equals(PNG)).toBe(true);
    expect((await send(profile(me), 'employee', 'usr_full_nm', 'me.png', PNG)).statusCode).toBe(400);
    expect((await send(as(me, 'institute', 'circular'), 'circular', 'crlr_atch', 'me.png', PNG)).statusCode).toBe(403);
  });

  it('stores files outside the web app under generated names; a replaced or cleared file is swept', async () => {
    const first = await fileId(profile(admin), 'employee', 'usr_photo', 'first-secret-name.png', PNG);
    const row = await newEmployee(admin, { usr_photo: first });
    const stored = readdirSync(uploadDir);
    expect(stored.length).toBeGreaterThan(0);
    for (const n of stored) expect(n).toMatch(/^[0-9a-f]{32}$/);
    expect(readdirSync(webDist)).toEqual([]);

    const before = new Set(readdirSync(uploadDir));
    const second = await fileId(profile(admin), 'employee', 'usr_photo', 'second.gif', GIF);
    const replaced = await call(srv.app, profile(admin), 'PUT', `/api/employee/${String(row.usr_cd)}`, { usr_photo: second, row_ver: row.row_ver });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json<Row>().usr_photo).toBe('second.gif');
    const got = await getFile(admin, row.usr_cd);
    expect(got.rawPayload.equals(GIF)).toBe(true);

    await sweepUploads(srv.database.db, uploadDir);
    const after = new Set(readdirSync(uploadDir));
    const removed = [...before].filter((n) => !after.has(n));
    expect(removed.length).toBe(1);
    expect(readFileSync(join(uploadDir, [...after].find((n) => !before.has(n))!)).equals(GIF)).toBe(true);

    const cleared = await call(srv.app, profile(admin), 'PUT', `/api/employee/${String(row.usr_cd)}`, { usr_photo: null, row_ver: replaced.json<Row>().row_ver });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect((await getFile(admin, row.usr_cd)).statusCode).toBe(404);
    await sweepUploads(srv.database.db, uploadDir);
    expect(readdirSync(uploadDir).length).toBe(after.size - 1);
    expect(existsSync(join(webDist, 'uploads'))).toBe(false);
  });
});
