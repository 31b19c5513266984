import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeFixture, type Fixture, type Row } from './student-workflow-fixture';
import { backends, call, startTestServer, type Session, type TestServer } from './test-server';

describe.each(backends)('interchanging students between sections on %s', (backend) => {
  let srv: TestServer;
  let f: Fixture;
  let admin: Session;

  const move = (s: Session, body: Row) => call(srv.app, f.as(s, 'student', 'interchange'), 'POST', '/api/student_interchange/move', body);
  const sectionOf = async (stud: number): Promise<Row> => (await call(srv.app, f.as(admin, 'student', 'profile'), 'GET', `/api/student/${stud}`)).json<Row>();
  const history = async (s: Session): Promise<Row[]> => {
    const res = await call(srv.app, f.as(s, 'student', 'interchange'), 'GET', '/api/student_interchange/?size=100');
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ rows: Row[] }>().rows;
  };

  beforeAll(async () => {
    srv = await startTestServer(backend);
    f = await makeFixture(srv);
    admin = f.admin;
  });
  afterAll(async () => srv?.close());

  it('moves students to another section of their class and records each move', async () => {
    const [a1, a2] = f.studA;
    const before = await sectionOf(a1);
    const res = await move(admin, { cls_cd: f.cls1, frm_sec_cd: f.secA, to_sec_cd: f.secB, stud_cds: [a1, a2], reason: 'Rebalancing A and B' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ frm_sec_nm: string; to_sec_nm: string; moved: { stud_cd: number }[] }>();
    expect(body).toMatchObject({ frm_sec_nm: 'A', to_sec_nm: 'B' });
    expect(body.moved.map((m) => m.stud_cd).sort()).toEqual([a1, a2].sort());

    const after = await sectionOf(a1);
    expect(after).toMatchObject({ sec_cd: f.secB, sec_nm: 'B', cls_cd: f.cls1, row_ver: Number(before.row_ver) + 1 });
    expect((await sectionOf(a2)).sec_cd).toBe(f.secB);
    expect((await sectionOf(f.studA[2])).sec_cd).toBe(f.secA);

    const records = (await history(admin)).filter((r) => [a1, a2].includes(Number(r.stud_cd)));
    expect(records).toHaveLength(2);
    expect(records[0]).toMatchObject({ cls_cd: f.cls1, frm_sec_cd: f.secA, frm_sec_nm: 'A', to_sec_cd: f.secB, to_sec_nm: 'B', stud_intchg_rsn: 'Rebalancing A and B', stud_intchg_by: 'Administrator' });
    expect(records[0].stud_intchg_dt).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // A record, not a form.
    expect((await call(srv.app, f.as(admin, 'student', 'interchange'), 'POST', '/api/student_interchange/', {})).statusCode).toBe(404);
  });

  it('refuses a student who is not in the from-section, and moves no one', async () => {
    const [, , a3] = f.studA;
    const res = await move(admin, { cls_cd: f.cls1, frm_sec_cd: f.secA, to_sec_cd: f.secB, stud_cds: [a3, f.studB[0]], reason: 'Mistake' });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toMatch(new RegExp(`^${f.names.get(f.studB[0])} is not in .+ A this year\\.$`));
    expect((await sectionOf(a3)).sec_cd).toBe(f.secA);
    expect((await history(admin)).some((r) => r.stud_intchg_rsn === 'Mistake')).toBe(false);
  });

  it('refuses a section of another class, and the same section twice', async () => {
    const other = await move(admin, { cls_cd: f.cls1, frm_sec_cd: f.secA, to_sec_cd: f.secC, stud_cds: [f.studA[2]], reason: 'Wrong class' });
    expect(other.statusCode).toBe(400);
    expect(other.json<{ message: string }>().message).toBe("Section 'C' is not a section of the chosen class.");
    const same = await move(admin, { cls_cd: f.cls1, frm_sec_cd: f.secA, to_sec_cd: f.secA, stud_cds: [f.studA[2]], reason: 'Nowhere' });
    expect(same.statusCode).toBe(400);
    expect(same.json<{ message: string }>().message).toBe('Choose a different section to move the students to.');
    const noReason = await move(admin, { cls_cd: f.cls1, frm_sec_cd: f.secA, to_sec_cd: f.secB, stud_cds: [f.studA[2]], reason: '  ' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json<{ message: string }>().message).toBe("Please enter the 'Reason'.");
    expect((await sectionOf(f.studA[2])).sec_cd).toBe(f.secA);
  });

  it('lets a restricted teacher move only between his own sections, and a user without create not at all', async () => {
    const teacher = await f.employee([{ module: 'student', page: 'interchange', buttons: 'view,create' }], true, [f.secA]);
    const foreign = await move(teacher, { cls_cd: f.cls1, frm_sec_cd: f.secA, to_sec_cd: f.secB, stud_cds: [f.studA[2]], reason: 'Teacher move' });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json<{ message: string }>().message).toBe('You can only move students between your own sections.');
    const pick = await call(srv.app, f.as(teacher, 'student', 'interchange'), 'GET', `/api/student_interchange/students?cls_cd=${f.cls1}&sec_cd=${f.secB}`);
    expect(pick.statusCode).toBe(403);

    const both = await f.employee([{ module: 'student', page: 'interchange', buttons: 'view,create' }], true, [f.secA, f.secB]);
    const list = await call(srv.app, f.as(both, 'student', 'interchange'), 'GET', `/api/student_interchange/students?cls_cd=${f.cls1}&sec_cd=${f.secA}`);
    expect(list.json<{ stud_cd: number }[]>().map((s) => s.stud_cd)).toEqual([f.studA[2]]);
    const ok = await move(both, { cls_cd: f.cls1, frm_sec_cd: f.secA, to_sec_cd: f.secB, stud_cds: [f.studA[2]], reason: 'Teacher move' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await sectionOf(f.studA[2])).sec_cd).toBe(f.secB);

    const viewer = await f.employee([{ module: 'student', page: 'interchange', buttons: 'view' }], false);
    const denied = await move(viewer, { cls_cd: f.cls1, frm_sec_cd: f.secB, to_sec_cd: f.secA, stud_cds: [f.studA[2]], reason: 'Viewer' });
    expect(denied.statusCode).toBe(403);
    const noPage = await f.employee([{ module: 'student', page: 'profile', buttons: 'view' }], false);
    expect((await move(noPage, { cls_cd: f.cls1, frm_sec_cd: f.secB, to_sec_cd: f.secA, stud_cds: [f.studA[2]], reason: 'No page' })).statusCode).toBe(403);
    expect((await sectionOf(f.studA[2])).sec_cd).toBe(f.secB);
  });
});
