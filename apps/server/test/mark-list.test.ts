import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeExams, type ExamFixture } from './exam-fixture';
import { makeFixture, type Fixture } from './student-workflow-fixture';
import { backends, call, startTestServer, type Session, type TestServer } from './test-server';

interface ListRow {
  stud_cd: number;
  stud_roll_nmb: number | null;
  marks: Record<string, { marks: string | null; absent: boolean }>;
  total: string;
  max_total: number;
  percentage: string | null;
  result: string | null;
  rank: number | null;
}
interface MarkList {
  exam: { exm_cd: number; sec_cd: number };
  subjects: { mrk_cd: number; sub_nm: string; mrk_max_mrk: number; mrk_min_mrk: number }[];
  rows: ListRow[];
}

describe.each(backends)('the mark list on %s', (backend) => {
  let srv: TestServer;
  let f: Fixture;
  let x: ExamFixture;
  let admin: Session;
  const tag = `L${Date.now().toString(36).toUpperCase()}`;
  /** Section A's students: the fixture's three (roll 1-3) and three more (roll 4-6). */
  let s: number[] = [];

  const page = (u: Session) => f.as(u, 'exam', 'mark_list');
  const list = (u: Session, exm: number) => call(srv.app, page(u), 'POST', '/api/mark/list', { exm_cd: exm });
  const save = async (mrk: number, entries: { stud_cd: number; marks?: number | null; absent?: boolean }[]) => {
    const res = await call(srv.app, page(admin), 'POST', '/api/student_mark/sheet', { mrk_cd: mrk, rows: entries });
    expect(res.statusCode, res.body).toBe(200);
  };

  beforeAll(async () => {
    srv = await startTestServer(backend);
    f = await makeFixture(srv);
    admin = f.admin;
    x = await makeExams(f, tag);
    const more = [];
    for (const roll of [4, 5, 6]) {
      more.push(await f.created(f.as(admin, 'student', 'profile'), '/api/student/', { stud_fs_nm: `Extra ${roll} ${tag}`, stud_adm_cd: `X${roll}${tag}`, stud_roll_nmb: roll, cls_cd: f.cls1, sec_cd: f.secA }, 'stud_cd'));
    }
    s = [...f.studA, ...more];
    // Maths out of 100 (pass 35), Science out of 50 (pass 18): 150 in all.
    await save(x.marksA[0], [
      { stud_cd: s[0], marks: 90 },
      { stud_cd: s[1], marks: 30 },
      { stud_cd: s[2], marks: 80 },
      { stud_cd: s[3], marks: 90 },
      { stud_cd: s[4], marks: 50 },
      { stud_cd: s[5], marks: 99 },
    ]);
    await save(x.marksA[1], [
      { stud_cd: s[0], marks: 45.5 },
      { stud_cd: s[1], marks: 40 },
      { stud_cd: s[2], absent: true },
      { stud_cd: s[3], marks: 45.5 },
      { stud_cd: s[4], marks: 20 },
      // s[5]: Science not entered yet.
    ]);
  });
  afterAll(async () => srv?.close());

  it('totals, percentages (exact, 2 decimals), results and dense ranks among those who passed', async () => {
    const res = await list(admin, x.examA);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<MarkList>();
    expect(body.subjects.map((j) => [j.mrk_cd, j.mrk_max_mrk, j.mrk_min_mrk])).toEqual([
      [x.marksA[0], 100, 35],
      [x.marksA[1], 50, 18],
    ]);
    expect(body.rows.map((r) => r.stud_cd)).toEqual(s);
    const summary = body.rows.map((r) => [r.total, r.max_total, r.percentage, r.result, r.rank]);
    expect(summary).toEqual([
      ['135.50', 150, '90.33', 'Pass', 1],
      // 70 / 150 = 46.666...: rounded half up once, in SQL numeric.
      ['70.00', 150, '46.67', 'Fail', null],
      // Absent in Science: failed whatever the Maths mark.
      ['80.00', 150, '53.33', 'Fail', null],
      ['135.50', 150, '90.33', 'Pass', 1],
      ['70.00', 150, '46.67', 'Pass', 2],
      ['99.00', 150, '66.00', 'Incomplete', null],
    ]);
    expect(body.rows[2].marks[String(x.marksA[1])]).toEqual({ marks: null, absent: true });
    expect(body.rows[0].marks[String(x.marksA[1])]).toEqual({ marks: '45.50', absent: false });
    expect(body.rows[5].marks[String(x.marksA[1])]).toBeUndefined();
  });

  it('answers GET /api/mark/list?exm_cd= with the same list as the POST (not as the record "list")', async () => {
    const get = await call(srv.app, page(admin), 'GET', `/api/mark/list?exm_cd=${x.examA}`);
    expect(get.statusCode, get.body).toBe(200);
    expect(get.json<MarkList>()).toEqual((await list(admin, x.examA)).json<MarkList>());
    const none = await call(srv.app, page(admin), 'GET', '/api/mark/list');
    expect(none.statusCode).toBe(400);
    expect(none.json<{ message: string }>().message).toBe("Please select the 'Exam'.");
    const teacher = await f.employee([{ module: 'exam', page: 'mark_list', buttons: 'view' }], true, [f.secA]);
    expect((await call(srv.app, page(teacher), 'GET', `/api/mark/list?exm_cd=${x.examB}`)).statusCode).toBe(403);
  });

  it('lists an exam without marks yet with every student and no result', async () => {
    const body = (await list(admin, x.examB)).json<MarkList>();
    expect(body.rows.map((r) => r.stud_cd)).toEqual(f.studB);
    expect(body.rows[0]).toMatchObject({ total: '0.00', max_total: 150, percentage: '0.00', result: 'Incomplete', rank: null });
  });

  it("keeps a teacher with his students only to his sections' exams (403), and refuses a user without the page", async () => {
    const teacher = await f.employee([{ module: 'exam', page: 'mark_list', buttons: 'view' }], true, [f.secA]);
    expect((await list(teacher, x.examA)).statusCode).toBe(200);
    const other = await list(teacher, x.examB);
    expect(other.statusCode).toBe(403);
    expect(other.json<{ message: string }>().message).toBe('You can only see the marks of your own sections.');
    const outsider = await f.employee([{ module: 'exam', page: 'mark', buttons: 'view' }], false);
    expect((await list(outsider, x.examA)).statusCode).toBe(403);
    const bad = await list(admin, 99_999_999);
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toBe("'Exam' is not a valid choice.");
    const missing = await call(srv.app, page(admin), 'POST', '/api/mark/list', {});
    expect(missing.json<{ message: string }>().message).toBe("Please select the 'Exam'.");
  });
});
