import type { AnyEntity } from '@campus/entities/define';
import { entities, entity, ownershipIssues } from '@campus/entities/registry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, call, login, startTestServer, type Session, type TestServer, multipartFile } from './test-server';
import { staffAccount } from './staff-account';

type Row = Record<string, unknown>;

const NOT_OWN = 'You can only add or change students of your own sections.';

describe('ownership through another entity, as declared', () => {
  it('holds for every registered entity', () => {
    expect(ownershipIssues(entities)).toEqual([]);
  });

  it('refuses an unknown entity, unknown fields and a user field that is not an employee link', () => {
    const student = entity('student');
    const broken = (ownership: AnyEntity['ownership']): AnyEntity => ({ ...student, name: 'broken_student', ownership });
    const issues = (o: AnyEntity['ownership']) => ownershipIssues([...entities, broken(o)]);
    expect(issues({ through: 'subjectdetail', match: { sec_cd: 'sec_cd' }, user: 'usr_cd' })).toEqual([
      "broken_student: ownership through 'subjectdetail' is not another registered entity",
    ]);
    expect(issues({ through: 'subject_detail', match: { sec_cd: 'section_cd' }, user: 'usr_cd' })).toEqual([
      "broken_student: ownership match 'section_cd' is not a field of subject_detail",
    ]);
    expect(issues({ through: 'subject_detail', match: { no_such: 'sec_cd' }, user: 'usr_cd' })).toEqual([
      "broken_student: ownership match field 'no_such' is not a field",
    ]);
    expect(issues({ through: 'subject_detail', match: { sec_cd: 'sec_cd' }, user: 'sub_cd' })).toEqual([
      "broken_student: ownership user 'sub_cd' is not a link of subject_detail to employee",
    ]);
    expect(issues({ via: 'stud_fs_nm' })).toEqual(["broken_student: ownership via 'stud_fs_nm' is not a link field"]);
    expect(issues({ via: 'rgn_cd' })).toEqual(["broken_student: ownership via 'rgn_cd' reaches religion, which has no ownership"]);
    // A year's row owned through an institute-wide one would ignore the year.
    expect(issues({ through: 'section', match: { sec_cd: 'sec_cd' }, user: 'cls_cd' })).toContain(
      "broken_student: ownership through 'section' needs both in the same institute or academic-year scope",
    );
  });
});

/*
 * 'Access his students only' (data_chk) for a teacher: the students of the sections the subject mapping
 * gives them in the request's year, on every path, reads and writes alike.
 */
describe.each(backends)("a teacher's own students, on %s", (backend) => {
  let srv: TestServer;
  let admin: Session;
  let own: Session; // data_chk on, mapped to section A of class 1 this year
  let all: Session; // the same page without data_chk
  let thisYear = 0;
  let lastYear = 0;
  let cls1 = 0;
  let cls2 = 0;
  let secA = 0;
  let secB = 0;
  let secC2 = 0;
  let studA = 0;
  let studB = 0;
  const tag = `Z${Date.now().toString(36).toUpperCase()}`;
  let counter = 0;
  const next = (): string => `${tag}${counter++}`;

  const as = (s: Session, module: string, page: string, acdmCd = thisYear): Session => ({ ...s, modulename: module, pagename: page, acdmCd });
  const studentPage = (s: Session): Session => as(s, 'student', 'profile');

  async function created(s: Session, url: string, body: Row, key: string): Promise<number> {
    const res = await call(srv.app, s, 'POST', url, body);
    expect(res.statusCode, `${url}: ${res.body}`).toBe(201);
    return Number(res.json<Row>()[key]);
  }

  async function teacher(dataChk: boolean): Promise<Session> {
    const { session } = await staffAccount(srv.app, admin, { 'student/profile': 'view,create,edit,delete,import,export' }, dataChk);
    return { ...session, acdmCd: thisYear };
  }

  const student = (sec: number, cls = cls1, name = `Student ${next()}`): Row => ({ stud_fs_nm: name, stud_adm_cd: `ADM${next()}`, cls_cd: cls, sec_cd: sec });
  const ids = (res: { json<T>(): T }) => res.json<{ rows: Row[] }>().rows.map((r) => Number(r.stud_cd));

  beforeAll(async () => {
    srv = await startTestServer(backend);
    admin = await login(srv.app);
    const years = (await call(srv.app, as(admin, 'institute', 'academic', 0), 'GET', '/api/academic/?size=50')).json<{ rows: Row[] }>().rows;
    thisYear = Number(years.find((y) => y.acdm_sts === true)?.acdm_cd);
    lastYear = Number(years.find((y) => y.acdm_sts === false)?.acdm_cd);
    expect(thisYear).toBeGreaterThan(0);
    expect(lastYear).toBeGreaterThan(0);

    const cls = as(admin, 'class_section', 'class');
    cls1 = await created(cls, '/api/class/', { cls_nm: `Class ${next()}` }, 'cls_cd');
    cls2 = await created(cls, '/api/class/', { cls_nm: `Class ${next()}` }, 'cls_cd');
    const sec = as(admin, 'class_section', 'section');
    secA = await created(sec, '/api/section/', { sec_nm: 'A', cls_cd: cls1 }, 'sec_cd');
    secB = await created(sec, '/api/section/', { sec_nm: 'B', cls_cd: cls1 }, 'sec_cd');
    secC2 = await created(sec, '/api/section/', { sec_nm: 'A', cls_cd: cls2 }, 'sec_cd');
    const subCd = await created(as(admin, 'subject', 'subject'), '/api/subject/', { sub_nm: `Maths ${next()}` }, 'sub_cd');

    own = await teacher(true);
    all = await teacher(false);
    // This year: section A. Last year the same teacher had section B, which must not count now.
    await created(as(admin, 'subject', 'subject_detail'), '/api/subjectDetail/', { cls_cd: cls1, sec_cd: secA, sub_cd: subCd, usr_cd: own.usr_cd }, 'sub_dtl_cd');
    await created(as(admin, 'subject', 'subject_detail', lastYear), '/api/subjectDetail/', { cls_cd: cls1, sec_cd: secB, sub_cd: subCd, usr_cd: own.usr_cd }, 'sub_dtl_cd');

    studA = await created(studentPage(admin), '/api/student/', student(secA, cls1, `Own ${tag}`), 'stud_cd');
    studB = await created(studentPage(admin), '/api/student/', student(secB, cls1, `Other ${tag}`), 'stud_cd');
  });
  afterAll(async () => srv?.close());

  it("lists, searches and offers only the students of the teacher's sections", async () => {
    const s = studentPage(own);
    const list = await call(srv.app, s, 'GET', '/api/student/?size=500');
    expect(list.statusCode, list.body).toBe(200);
    expect(ids(list)).toContain(studA);
    expect(ids(list)).not.toContain(studB);
    expect(list.json<{ rows: Row[] }>().rows.every((r) => Number(r.sec_cd) === secA)).toBe(true);

    const search = await call(srv.app, s, 'GET', `/api/student/?q=${tag}`);
    expect(ids(search)).toEqual([studA]);
    expect(search.json<{ total: number }>().total).toBe(1);
    const filtered = await call(srv.app, s, 'GET', `/api/student/?f_sec_cd=${secB}`);
    expect(filtered.json<{ total: number }>().total).toBe(0);

    const opts = await call(srv.app, s, 'GET', `/api/student/options?q=${tag}`);
    expect(opts.statusCode, opts.body).toBe(200);
    expect(opts.json<{ value: number }[]>().map((o) => o.value)).toEqual([studA]);
    const byId = await call(srv.app, s, 'GET', `/api/student/options?ids=${studA},${studB}`);
    expect(byId.json<{ value: number }[]>().map((o) => o.value)).toEqual([studA]);
  });

  it("treats another section's student as not there: GET, PUT and DELETE give 404", async () => {
    const s = studentPage(own);
    expect((await call(srv.app, s, 'GET', `/api/student/${studA}`)).statusCode).toBe(200);
    expect((await call(srv.app, s, 'GET', `/api/student/${studB}`)).statusCode).toBe(404);
    expect((await call(srv.app, s, 'PUT', `/api/student/${studB}`, { stud_ph: '+91 98400 11111', row_ver: 1 })).statusCode).toBe(404);
    expect((await call(srv.app, s, 'DELETE', '/api/student/', { primids: [studB] })).statusCode).toBe(404);
    // All or nothing: an own row beside a foreign one deletes neither.
    expect((await call(srv.app, s, 'DELETE', '/api/student/', { primids: [studA, studB] })).statusCode).toBe(404);
    const still = await call(srv.app, studentPage(admin), 'GET', `/api/student/?q=${tag}`);
    expect(ids(still).sort()).toEqual([studA, studB].sort());
  });

  it('creates students in own sections only, and never moves one out of them', async () => {
    const s = studentPage(own);
    const foreign = await call(srv.app, s, 'POST', '/api/student/', student(secB));
    expect(foreign.statusCode, foreign.body).toBe(403);
    expect(foreign.json<{ message: string }>().message).toBe(NOT_OWN);

    const mine = await call(srv.app, s, 'POST', '/api/student/', student(secA));
    expect(mine.statusCode, mine.body).toBe(201);
    const row = mine.json<Row>();

    const move = await call(srv.app, s, 'PUT', `/api/student/${row.stud_cd}`, { sec_cd: secB, row_ver: row.row_ver });
    expect(move.statusCode, move.body).toBe(403);
    expect(move.json<{ message: string }>().message).toBe(NOT_OWN);
    const after = await call(srv.app, s, 'GET', `/api/student/${row.stud_cd}`);
    expect(after.json<Row>()).toMatchObject({ sec_cd: secA, row_ver: row.row_ver });

    const edit = await call(srv.app, s, 'PUT', `/api/student/${row.stud_cd}`, { stud_ph: '+91 98400 22222', row_ver: row.row_ver });
    expect(edit.statusCode, edit.body).toBe(200);
    const del = await call(srv.app, s, 'DELETE', '/api/student/', { primids: [row.stud_cd] });
    expect(del.statusCode, del.body).toBe(200);
  });

  it('imports nothing when a row falls outside the own sections', async () => {
    const s = studentPage(own);
    const csv = `stud_fs_nm,stud_adm_cd,cls_cd,sec_cd\nImported ${tag} 1,IMP${next()},${cls1},${secA}\nImported ${tag} 2,IMP${next()},${cls1},${secB}\n`;
    const m = multipartFile('students.csv', csv);
    const res = await call(srv.app, s, 'POST', '/api/student/import', m.payload, { headers: m.headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ ok: boolean; imported: number }>()).toMatchObject({ ok: false, imported: 0 });
    expect(res.body).toContain(NOT_OWN);
    const seen = await call(srv.app, studentPage(admin), 'GET', `/api/student/?q=${encodeURIComponent(`Imported ${tag}`)}`);
    expect(seen.json<{ total: number }>().total).toBe(0);
  });

  it('lets a teacher without the restriction see and change every student', async () => {
    const s = studentPage(all);
    const list = await call(srv.app, s, 'GET', `/api/student/?q=${tag}`);
    expect(ids(list).sort()).toEqual([studA, studB].sort());
    expect((await call(srv.app, s, 'GET', `/api/student/${studB}`)).statusCode).toBe(200);
    const b = await call(srv.app, s, 'POST', '/api/student/', student(secB));
    expect(b.statusCode, b.body).toBe(201);
  });

  it("does not count last year's mapping in this year", async () => {
    const lastYears = await call(srv.app, as(admin, 'subject', 'subject_detail', lastYear), 'GET', `/api/subjectDetail/?f_usr_cd=${own.usr_cd}`);
    expect(lastYears.json<{ rows: Row[] }>().rows.map((r) => Number(r.sec_cd))).toEqual([secB]);
    const list = await call(srv.app, studentPage(own), 'GET', `/api/student/?f_sec_cd=${secB}`);
    expect(list.json<{ total: number }>().total).toBe(0);
  });

  it("refuses a section of another class, on create and on update, naming the section field", async () => {
    const s = studentPage(admin);
    const bad = await call(srv.app, s, 'POST', '/api/student/', student(secC2, cls1));
    expect(bad.statusCode, bad.body).toBe(400);
    const body = bad.json<{ message: string; details: { field: string; message: string }[] }>();
    expect(body.details).toEqual([{ field: 'sec_cd', message: body.message }]);
    expect(body.message).toBe("Section 'A' is not a section of the chosen class.");

    const row = (await call(srv.app, s, 'GET', `/api/student/${studB}`)).json<Row>();
    // Only the class changes: section B of class 1 does not belong to class 2.
    const classOnly = await call(srv.app, s, 'PUT', `/api/student/${studB}`, { cls_cd: cls2, row_ver: row.row_ver });
    expect(classOnly.statusCode, classOnly.body).toBe(400);
    expect(classOnly.json<{ details: { field: string }[] }>().details[0].field).toBe('sec_cd');
    const both = await call(srv.app, s, 'PUT', `/api/student/${studB}`, { cls_cd: cls2, sec_cd: secC2, row_ver: row.row_ver });
    expect(both.statusCode, both.body).toBe(200);
    const back = await call(srv.app, s, 'PUT', `/api/student/${studB}`, { cls_cd: cls1, sec_cd: secB, row_ver: Number(row.row_ver) + 1 });
    expect(back.statusCode, back.body).toBe(200);
  });

  it("follows a row's student (ownership via a link): a wallet of his own student is his, another section's is not", async () => {
    const w = as(admin, 'student', 'wallet');
    const mine = await created(w, '/api/wallet/', { stud_cd: studA }, 'wlt_cd');
    const theirs = await created(w, '/api/wallet/', { stud_cd: studB }, 'wlt_cd');
    const grant = await call(srv.app, as(admin, 'user_permission', 'permission'), 'POST', '/api/user_permission/?usrNeedDataChk=1', [
      { usr_prms_usr_cd: own.usr_cd, usr_prms_mdl: 'student', usr_prms_page: 'wallet', usr_prms_is_alw: 1, usr_prms_btns: 'view,create,edit,export,topup' },
    ]);
    expect(grant.statusCode, grant.body).toBe(200);
    const t = as(own, 'student', 'wallet');
    const listed = (await call(srv.app, t, 'GET', '/api/wallet/?size=500')).json<{ rows: Row[] }>().rows.map((r) => Number(r.wlt_cd));
    expect(listed).toContain(mine);
    expect(listed).not.toContain(theirs);
    expect((await call(srv.app, t, 'GET', `/api/wallet/${theirs}`)).statusCode).toBe(404);
    // Nor moves its money: the ledger's routes find the wallet as a get does.
    expect((await call(srv.app, t, 'POST', `/api/wallet/${theirs}/topup`, { amount: '1.00', reason: 'Canteen', idempotency_key: 'own-topup-theirs-1' })).statusCode).toBe(404);
    // Not even a new wallet for another section's child: the row must be his once written.
    const another = await created(studentPage(admin), '/api/student/', student(secB), 'stud_cd');
    const made = await call(srv.app, t, 'POST', '/api/wallet/', { stud_cd: another });
    expect(made.statusCode, made.body).toBeGreaterThanOrEqual(400);
    expect(made.statusCode).toBeLessThan(500);
    expect((await call(srv.app, w, 'GET', `/api/wallet/?f_stud_cd=${another}`)).json<{ total: number }>().total).toBe(0);
    const topped = await call(srv.app, t, 'POST', `/api/wallet/${mine}/topup`, { amount: '600.00', reason: 'Canteen', idempotency_key: 'own-topup-mine-01' });
    expect(topped.statusCode, topped.body).toBeLessThan(300);
  });

  it('holds the same rule for every entity that declares it, e.g. a subject mapping', async () => {
    const m = as(admin, 'subject', 'subject_detail');
    const subject = await call(srv.app, as(admin, 'subject', 'subject'), 'POST', '/api/subject/', { sub_nm: 'Within Check Science' });
    expect(subject.statusCode, subject.body).toBe(201);
    const bad = await call(srv.app, m, 'POST', '/api/subjectDetail/', { cls_cd: cls1, sec_cd: secC2, sub_cd: subject.json<Row>().sub_cd });
    expect(bad.statusCode, bad.body).toBe(400);
    expect(bad.json<{ message: string }>().message).toBe("Section 'A' is not a section of the chosen class.");
  });
});
