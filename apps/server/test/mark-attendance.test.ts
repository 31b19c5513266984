import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows, sql } from '../src/db/client';
import { localDateTime } from '../src/lib/clock';
import { makeFixture, type Fixture, type Row } from './student-workflow-fixture';
import { backends, call, startTestServer, type Session, type TestServer } from './test-server';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const addDays = (d: string, n: number): string => {
  const t = new Date(`${d}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() + n);
  return t.toISOString().slice(0, 10);
};

interface Sheet {
  cls_nm: string;
  sec_nm: string;
  sunday: boolean;
  refusal: string | null;
  saved: boolean;
  marked_by: string | null;
  rows: { stud_cd: number; stud_fs_nm: string; status: string; remarks: string; on_leave: boolean; saved: boolean }[];
}

describe.each(backends)('marking attendance on %s', (backend) => {
  let srv: TestServer;
  let f: Fixture;
  let admin: Session;
  const today = localDateTime().date;
  /** Days of the active year up to today, newest first: the sheet refuses the future and other years. */
  let days: string[] = [];

  const sheetOf = (s: Session, sec: number, day: string, cls = f.cls1) =>
    call(srv.app, f.as(s, 'student', 'attendance'), 'GET', `/api/student_attendance/sheet?cls_cd=${cls}&sec_cd=${sec}&date=${day}`);
  const save = (s: Session, sec: number, day: string, marks: [number, string, string?][], cls = f.cls1) =>
    call(srv.app, f.as(s, 'student', 'attendance'), 'POST', '/api/student_attendance/sheet', {
      cls_cd: cls,
      sec_cd: sec,
      date: day,
      rows: marks.map(([stud_cd, status, remarks]) => ({ stud_cd, status, remarks })),
    });
  const summaries = async (sec: number, day: string): Promise<Row[]> => {
    const res = await call(srv.app, f.as(admin, 'student', 'daywise_attendance'), 'GET', `/api/student_daywise_attendance_summary/?f_sec_cd=${sec}&f_stud_attn_sum_day=${day}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ rows: Row[] }>().rows;
  };
  const stored = async (sec: number, day: string) =>
    rows<{ stud_cd: number; stud_attn_sts: string; stud_attn_rmks: string | null }>(
      srv.database.db,
      sql`SELECT stud_cd, stud_attn_sts, stud_attn_rmks FROM student_attendance WHERE sec_cd = ${sec} AND stud_attn_dt = ${day} ORDER BY stud_cd`,
    );

  beforeAll(async () => {
    srv = await startTestServer(backend);
    f = await makeFixture(srv);
    admin = f.admin;
    const [y] = await rows<{ acdm_strt_yr: number; acdm_strt_mn: string; acdm_end_yr: number; acdm_end_mn: string }>(
      srv.database.db,
      sql`SELECT acdm_strt_yr, acdm_strt_mn, acdm_end_yr, acdm_end_mn FROM academic WHERE acdm_cd = ${f.year}`,
    );
    const from = new Date(Date.UTC(y.acdm_strt_yr, MONTHS.indexOf(y.acdm_strt_mn), 1)).toISOString().slice(0, 10);
    const to = new Date(Date.UTC(y.acdm_end_yr, MONTHS.indexOf(y.acdm_end_mn) + 1, 0)).toISOString().slice(0, 10);
    for (let k = 0; k < 90 && days.length < 6; k++) {
      const d = addDays(today, -k);
      if (d >= from && d <= to) days.push(d);
    }
    expect(days.length, 'the test needs a few days of the active year before today').toBeGreaterThanOrEqual(4);
  });
  afterAll(async () => srv?.close());

  it('saves a sheet: one row per student, and the day\'s summary counts them', async () => {
    const [a1, a2, a3] = f.studA;
    const res = await save(admin, f.secA, days[1], [
      [a1, 'Present'],
      [a2, 'Absent', 'Fever'],
      [a3, 'OD', 'District sports meet'],
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Row>()).toMatchObject({ saved: 3, changed: 3, present: 1, absent: 1, od: 1 });
    expect((await stored(f.secA, days[1])).map((r) => [r.stud_cd, r.stud_attn_sts, r.stud_attn_rmks])).toEqual(
      [
        [a1, 'Present', null],
        [a2, 'Absent', 'Fever'],
        [a3, 'OD', 'District sports meet'],
      ].sort((x, y) => Number(x[0]) - Number(y[0])),
    );
    const sum = await summaries(f.secA, days[1]);
    expect(sum).toHaveLength(1);
    expect(sum[0]).toMatchObject({ cls_cd: f.cls1, stud_attn_sum_psnt_cnt: 1, stud_attn_sum_absnt_cnt: 1, stud_attn_sum_od_cnt: 1 });

    // The sheet reads back in register order with the saved marks.
    const sheet = await sheetOf(admin, f.secA, days[1]);
    expect(sheet.statusCode, sheet.body).toBe(200);
    const body = sheet.json<Sheet>();
    expect(body.rows.map((r) => [r.stud_cd, r.status, r.remarks, r.saved])).toEqual([
      [a1, 'Present', '', true],
      [a2, 'Absent', 'Fever', true],
      [a3, 'OD', 'District sports meet', true],
    ]);
    expect(body).toMatchObject({ saved: true, refusal: null, marked_by: 'Administrator' });
  });

  it('replaces on a re-save: the counts follow, nothing is duplicated, even when saved twice at once', async () => {
    const [a1, a2, a3] = f.studA;
    const marks: [number, string][] = [
      [a1, 'Present'],
      [a2, 'Present'],
      [a3, 'Absent'],
    ];
    const again = await save(admin, f.secA, days[1], marks);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json<Row>()).toMatchObject({ saved: 3, changed: 2, present: 2, absent: 1, od: 0 });
    const both = await Promise.all([save(admin, f.secA, days[1], marks), save(admin, f.secA, days[1], marks)]);
    for (const r of both) expect(r.statusCode, r.body).toBe(200);
    expect(await stored(f.secA, days[1])).toHaveLength(3);
    const sum = await summaries(f.secA, days[1]);
    expect(sum).toHaveLength(1);
    expect(sum[0]).toMatchObject({ stud_attn_sum_psnt_cnt: 2, stud_attn_sum_absnt_cnt: 1, stud_attn_sum_od_cnt: 0 });
    // The summary is computed, never typed: no generic write route.
    const post = await call(srv.app, f.as(admin, 'student', 'daywise_attendance'), 'POST', '/api/student_daywise_attendance_summary/', {});
    expect(post.statusCode).toBe(404);
  });

  it('starts a new sheet with everyone present, except an approved leave (absent, on leave)', async () => {
    const [a1, a2, a3] = f.studA;
    const types = await call(srv.app, f.as(admin, 'master', 'leave_type'), 'GET', '/api/leavetype/?size=1');
    const leav_typ_cd = types.json<{ rows: Row[] }>().rows[0].leav_typ_cd;
    const leave = (stud_cd: number, sts: string) =>
      f.created(
        f.as(admin, 'student', 'leave_request'),
        '/api/student_leave/',
        { stud_cd, leav_typ_cd, stud_leav_frm_dt: days[3], stud_leav_to_dt: days[2], stud_leav_rsn: 'Family function', stud_leav_sts: sts },
        'stud_leav_cd',
      );
    await leave(a2, 'Approved');
    await leave(a3, 'Pending');
    const sheet = (await sheetOf(admin, f.secA, days[2])).json<Sheet>();
    expect(sheet.saved).toBe(false);
    expect(sheet.rows.map((r) => [r.stud_cd, r.status, r.remarks, r.on_leave])).toEqual([
      [a1, 'Present', '', false],
      [a2, 'Absent', 'On leave', true],
      [a3, 'Present', '', false],
    ]);
  });

  it("refuses a student of another section, naming him, and saves nothing", async () => {
    const res = await save(admin, f.secA, days[2], [
      [f.studA[0], 'Present'],
      [f.studB[0], 'Present'],
    ]);
    expect(res.statusCode, res.body).toBe(400);
    const sheet = (await sheetOf(admin, f.secA, days[2])).json<Sheet>();
    expect(res.json<{ message: string }>().message).toBe(`${f.names.get(f.studB[0])} is not a student of ${sheet.cls_nm} A this year.`);
    expect(await stored(f.secA, days[2])).toHaveLength(0);
    // A section of another class is refused before any student is looked at.
    const wrongClass = await save(admin, f.secC, days[2], [[f.studC[0], 'Present']], f.cls1);
    expect(wrongClass.statusCode).toBe(400);
    expect(wrongClass.json<{ message: string }>().message).toBe("Section 'C' is not a section of the chosen class.");
  });

  it('refuses a future date and a holiday, and says so on the sheet', async () => {
    const future = await save(admin, f.secA, addDays(today, 1), [[f.studA[0], 'Present']]);
    expect(future.statusCode).toBe(400);
    expect(future.json<{ message: string }>().message).toBe('Attendance cannot be marked for a future date.');

    const day = days[3];
    await f.created(f.as(admin, 'institute', 'holiday'), '/api/holiday/', { hly_nm: `Local festival ${day}`, hly_frm_dt: day, hly_to_dt: day, hly_typ: 'Festival' }, 'hly_cd');
    const holiday = await save(admin, f.secA, day, [[f.studA[0], 'Present']]);
    expect(holiday.statusCode).toBe(400);
    const message = `${day} is a holiday (Local festival ${day}): attendance is not marked on holidays.`;
    expect(holiday.json<{ message: string }>().message).toBe(message);
    expect((await sheetOf(admin, f.secA, day)).json<Sheet>().refusal).toBe(message);
    expect(await stored(f.secA, day)).toHaveLength(0);
  });

  it("keeps a teacher restricted to his students to his own sections' sheets", async () => {
    const teacher = await f.employee([{ module: 'student', page: 'attendance', buttons: 'view,create' }], true, [f.secA]);
    const foreignRead = await sheetOf(teacher, f.secB, days[0]);
    expect(foreignRead.statusCode).toBe(403);
    const foreign = await save(teacher, f.secB, days[0], [[f.studB[0], 'Present']]);
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json<{ message: string }>().message).toBe('You can only mark the attendance of your own sections.');
    const sections = await call(srv.app, f.as(teacher, 'student', 'attendance'), 'GET', '/api/student_attendance/sections');
    expect(sections.json<{ sec_cd: number }[]>().map((s) => s.sec_cd)).toEqual([f.secA]);

    const own = await save(teacher, f.secA, days[0], f.studA.map((s) => [s, 'Present'] as [number, string]));
    expect(own.statusCode, own.body).toBe(200);
    // Correcting the sheet of the day it was saved is part of marking; an earlier saved day needs 'edit'.
    const fix = await save(teacher, f.secA, days[0], f.studA.map((s, i) => [s, i === 0 ? 'Absent' : 'Present'] as [number, string]));
    if (days[0] === today) expect(fix.statusCode, fix.body).toBe(200);
    const older = await save(teacher, f.secA, days[1], f.studA.map((s) => [s, 'Present'] as [number, string]));
    expect(older.statusCode).toBe(403);
    expect(older.json<{ message: string }>().message).toBe("You do not have the 'edit' permission on this page.");

    // His grid holds his sections' rows only.
    const list = await call(srv.app, f.as(teacher, 'student', 'attendance'), 'GET', '/api/student_attendance/?size=500');
    expect(list.statusCode, list.body).toBe(200);
    const listed = list.json<{ rows: Row[] }>().rows;
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((r) => r.sec_cd === f.secA)).toBe(true);
  });

  it('refuses a user without the page, and one without create', async () => {
    const clerk = await f.employee([{ module: 'student', page: 'profile', buttons: 'view' }], false);
    expect((await sheetOf(clerk, f.secA, days[0])).statusCode).toBe(403);
    expect((await save(clerk, f.secA, days[0], [[f.studA[0], 'Present']])).statusCode).toBe(403);
    const viewer = await f.employee([{ module: 'student', page: 'attendance', buttons: 'view' }], false);
    expect((await sheetOf(viewer, f.secA, days[0])).statusCode).toBe(200);
    const res = await save(viewer, f.secA, days[0], [[f.studA[0], 'Present']]);
    expect(res.statusCode).toBe(403);
    expect(res.json<{ message: string }>().message).toBe("You do not have the 'create' permission on this page.");
  });

  it('moves a student\'s mark with him when he is marked in his new section the same day', async () => {
    const day = days[4];
    const [a1, a2, a3] = f.studA;
    expect((await save(admin, f.secA, day, [[a1, 'Present'], [a2, 'Present'], [a3, 'Absent']])).statusCode).toBe(200);
    const moved = await call(srv.app, f.as(admin, 'student', 'interchange'), 'POST', '/api/student_interchange/move', {
      cls_cd: f.cls1,
      frm_sec_cd: f.secA,
      to_sec_cd: f.secB,
      stud_cds: [a3],
      reason: 'Rebalancing',
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const b = await save(admin, f.secB, day, [[f.studB[0], 'Present'], [a3, 'Present']]);
    expect(b.statusCode, b.body).toBe(200);
    expect((await summaries(f.secA, day))[0]).toMatchObject({ stud_attn_sum_psnt_cnt: 2, stud_attn_sum_absnt_cnt: 0 });
    expect((await summaries(f.secB, day))[0]).toMatchObject({ stud_attn_sum_psnt_cnt: 2, stud_attn_sum_absnt_cnt: 0 });
    expect(await stored(f.secA, day)).toHaveLength(2);
    // Back where he was, for the other tests' sake.
    const back = await call(srv.app, f.as(admin, 'student', 'interchange'), 'POST', '/api/student_interchange/move', {
      cls_cd: f.cls1,
      frm_sec_cd: f.secB,
      to_sec_cd: f.secA,
      stud_cds: [a3],
      reason: 'Back',
    });
    expect(back.statusCode, back.body).toBe(200);
  });
});

