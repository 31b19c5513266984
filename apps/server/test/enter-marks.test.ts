import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows, sql } from '../src/db/client';
import { makeExams, type ExamFixture } from './exam-fixture';
import { makeFixture, type Fixture } from './student-workflow-fixture';
import { backends, call, startTestServer, type Session, type TestServer } from './test-server';

interface Sheet {
  exm_nm: string;
  sub_nm: string;
  mrk_max_mrk: number;
  mrk_min_mrk: number;
  saved: boolean;
  rows: { stud_cd: number; stud_fs_nm: string; marks: string | null; absent: boolean; remarks: string | null; saved: boolean }[];
}
type Entry = { stud_cd: number; marks?: number | string | null; absent?: boolean; remarks?: string | null };

describe.each(backends)('entering marks on %s', (backend) => {
  let srv: TestServer;
  let f: Fixture;
  let x: ExamFixture;
  let admin: Session;
  const tag = `M${Date.now().toString(36).toUpperCase()}`;

  const page = (s: Session) => f.as(s, 'exam', 'mark_list');
  const sheetOf = (s: Session, mrk: number) => call(srv.app, page(s), 'GET', `/api/student_mark/sheet?mrk_cd=${mrk}`);
  const save = (s: Session, mrk: number, entries: Entry[]) => call(srv.app, page(s), 'POST', '/api/student_mark/sheet', { mrk_cd: mrk, rows: entries });
  const stored = (mrk: number) =>
    rows<{ stud_cd: number; marks: string | null; absent: boolean; sec_cd: number; exm_cd: number; sub_cd: number }>(
      srv.database.db,
      sql`SELECT stud_cd, stud_mrk_obt::text AS marks, stud_mrk_abs AS absent, sec_cd, exm_cd, sub_cd FROM student_mark WHERE mrk_cd = ${mrk} ORDER BY stud_cd`,
    );

  beforeAll(async () => {
    srv = await startTestServer(backend);
    f = await makeFixture(srv);
    admin = f.admin;
    x = await makeExams(f, tag);
  });
  afterAll(async () => srv?.close());

  it("opens a subject's sheet with the exam section's students in register order, maximum and pass mark", async () => {
    const res = await sheetOf(admin, x.marksA[0]);
    expect(res.statusCode, res.body).toBe(200);
    const sheet = res.json<Sheet>();
    expect(sheet).toMatchObject({ sub_nm: `Maths ${tag}`, mrk_max_mrk: 100, mrk_min_mrk: 35, saved: false });
    expect(sheet.rows.map((r) => r.stud_cd)).toEqual(f.studA);
    expect(sheet.rows.every((r) => r.marks === null && !r.absent && !r.saved)).toBe(true);
    const subjects = await call(srv.app, page(admin), 'GET', `/api/student_mark/subjects?exm_cd=${x.examA}`);
    expect(subjects.json<{ sub_nm: string }[]>().map((s) => s.sub_nm)).toEqual([`Maths ${tag}`, `Science ${tag}`]);
  });

  it('saves a sheet in one go and re-saves it without duplicates; a correction needs edit', async () => {
    const [a1, a2, a3] = f.studA;
    const mrk = x.marksA[1];
    const first = await save(admin, mrk, [{ stud_cd: a1, marks: 45.5 }, { stud_cd: a2, marks: '17' }, { stud_cd: a3, absent: true, remarks: 'Fever' }]);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ saved: 3, added: 3, changed: 0 });
    const again = await save(admin, mrk, [{ stud_cd: a1, marks: '45.50' }, { stud_cd: a2, marks: 17 }, { stud_cd: a3, absent: true, remarks: 'Fever' }]);
    expect(again.json()).toMatchObject({ saved: 3, added: 0, changed: 0 });
    expect(await stored(mrk)).toEqual(
      [
        { stud_cd: a1, marks: '45.50', absent: false },
        { stud_cd: a2, marks: '17.00', absent: false },
        { stud_cd: a3, marks: null, absent: true },
      ].map((r) => ({ ...r, sec_cd: f.secA, exm_cd: x.examA, sub_cd: x.science })).sort((p, q) => p.stud_cd - q.stud_cd),
    );
    const sheet = (await sheetOf(admin, mrk)).json<Sheet>();
    expect(sheet.saved).toBe(true);
    expect(sheet.rows.find((r) => r.stud_cd === a3)).toMatchObject({ marks: null, absent: true, remarks: 'Fever', saved: true });

    // Someone who may only enter: new marks yes, changing saved ones no.
    const clerk = await f.employee([{ module: 'exam', page: 'mark_list', buttons: 'view,create' }], false);
    const change = await save(clerk, mrk, [{ stud_cd: a2, marks: 19 }]);
    expect(change.statusCode).toBe(403);
    expect(change.json<{ message: string }>().message).toBe("You do not have the 'edit' permission on this page.");
    const fresh = await save(clerk, x.marksA[0], [{ stud_cd: a1, marks: 88 }]);
    expect(fresh.statusCode, fresh.body).toBe(200);
    // The admin corrects a mark and clears one: the cleared row goes, nothing doubles.
    const fix = await save(admin, mrk, [{ stud_cd: a2, marks: 19 }, { stud_cd: a1, marks: null }]);
    expect(fix.json()).toMatchObject({ changed: 1, cleared: 1 });
    expect((await stored(mrk)).map((r) => [r.stud_cd, r.marks])).toEqual([[a2, '19.00'], [a3, null]].sort((p, q) => Number(p[0]) - Number(q[0])));
  });

  it('refuses marks above the maximum, odd fractions and marks for an absent student, naming the student', async () => {
    const [a1] = f.studA;
    const name = f.names.get(a1);
    const above = await save(admin, x.marksA[1], [{ stud_cd: a1, marks: 50.5 }]);
    expect(above.statusCode).toBe(400);
    expect(above.json<{ message: string }>().message).toBe(`Marks of ${name} cannot be more than the maximum mark 50.`);
    const odd = await save(admin, x.marksA[1], [{ stud_cd: a1, marks: '12.25' }]);
    expect(odd.statusCode).toBe(400);
    expect(odd.json<{ message: string }>().message).toBe(`Marks of ${name} must be a whole or half mark (such as 45 or 45.5).`);
    const negative = await save(admin, x.marksA[1], [{ stud_cd: a1, marks: -1 }]);
    expect(negative.statusCode).toBe(400);
    const absent = await save(admin, x.marksA[1], [{ stud_cd: a1, marks: 10, absent: true }]);
    expect(absent.json<{ message: string }>().message).toBe(`${name} is marked absent: leave the marks empty.`);
    const full = await save(admin, x.marksA[1], [{ stud_cd: a1, marks: 50 }]);
    expect(full.statusCode, full.body).toBe(200);
  });

  it("refuses a student of another section, and saves nothing of that sheet", async () => {
    const [b1] = f.studB;
    const before = await stored(x.marksA[0]);
    const res = await save(admin, x.marksA[0], [{ stud_cd: f.studA[2], marks: 70 }, { stud_cd: b1, marks: 60 }]);
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toMatch(new RegExp(`^${f.names.get(b1)} is not a student of .+ A this year\\.$`));
    expect(await stored(x.marksA[0])).toEqual(before);
  });

  it('keeps a teacher with his students only to the subjects he teaches in his own sections (403)', async () => {
    const teacher = await f.employee([{ module: 'exam', page: 'mark_list', buttons: 'view,create,edit' }], true);
    await f.created(f.as(admin, 'subject', 'subject_detail'), '/api/subjectDetail/', { cls_cd: f.cls1, sec_cd: f.secA, sub_cd: x.maths, usr_cd: teacher.usr_cd }, 'sub_dtl_cd');
    expect((await sheetOf(teacher, x.marksA[0])).statusCode).toBe(200);
    const ok = await save(teacher, x.marksA[0], [{ stud_cd: f.studA[1], marks: 64 }]);
    expect(ok.statusCode, ok.body).toBe(200);
    const otherSubject = await save(teacher, x.marksA[1], [{ stud_cd: f.studA[1], marks: 30 }]);
    expect(otherSubject.statusCode).toBe(403);
    expect(otherSubject.json<{ message: string }>().message).toBe('You can only enter the marks of the subjects you teach in your own sections.');
    const otherSection = await save(teacher, x.marksB[0], [{ stud_cd: f.studB[0], marks: 30 }]);
    expect(otherSection.statusCode).toBe(403);
    expect((await sheetOf(teacher, x.marksB[0])).statusCode).toBe(403);
    // What he may pick: his sections' exams, his subjects; and the stored marks he lists are his sections'.
    const exams = (await call(srv.app, page(teacher), 'GET', '/api/student_mark/exams')).json<{ exm_cd: number }[]>().map((e) => e.exm_cd);
    expect(exams).toContain(x.examA);
    expect(exams).not.toContain(x.examB);
    const subjects = (await call(srv.app, page(teacher), 'GET', `/api/student_mark/subjects?exm_cd=${x.examA}`)).json<{ mrk_cd: number }[]>();
    expect(subjects.map((s) => s.mrk_cd)).toEqual([x.marksA[0]]);
    await save(admin, x.marksB[0], [{ stud_cd: f.studB[0], marks: 55 }]);
    const listed = (await call(srv.app, page(teacher), 'GET', '/api/student_mark/?size=500')).json<{ rows: { sec_cd: number }[] }>().rows;
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((r) => r.sec_cd === f.secA)).toBe(true);
  });

  it('refuses a user without the page (403) and has no generic write route', async () => {
    const outsider = await f.employee([{ module: 'student', page: 'profile', buttons: 'view' }], false);
    expect((await sheetOf(outsider, x.marksA[0])).statusCode).toBe(403);
    expect((await save(outsider, x.marksA[0], [{ stud_cd: f.studA[0], marks: 10 }])).statusCode).toBe(403);
    const viewer = await f.employee([{ module: 'exam', page: 'mark_list', buttons: 'view' }], false);
    expect((await save(viewer, x.marksA[0], [{ stud_cd: f.studA[0], marks: 10 }])).statusCode).toBe(403);
    expect((await call(srv.app, page(admin), 'POST', '/api/student_mark/', { stud_cd: f.studA[0] })).statusCode).toBe(404);
  });
});
