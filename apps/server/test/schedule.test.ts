import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeExams } from './exam-fixture';
import { makeFixture, type Fixture, type Row } from './student-workflow-fixture';
import { backends, call, startTestServer, type Session, type TestServer } from './test-server';

interface Ev {
  id: string;
  kind: string;
  key: number;
  keys: number[];
  detail: string | null;
  title: string;
  start: string;
  end: string;
  link: string | null;
  rowVer: number | null;
  allDay: boolean;
  startTime: string | null;
}

/** An employee must hold some page to be saved; this one decides nothing the schedule shows. */
const classView = [{ module: 'class_section', page: 'class', buttons: 'view' }];

describe.each(backends)('schedule (%s)', (backend) => {
  let srv: TestServer;
  let f: Fixture;
  let exams: { examA: number; examB: number };
  let holiday: number;
  beforeAll(async () => {
    srv = await startTestServer(backend);
    f = await makeFixture(srv);
    exams = await makeExams(f, `S${Date.now().toString(36)}`);
    holiday = await f.created(f.as(f.admin, 'institute', 'holiday'), '/api/holiday/', { hly_nm: 'Gandhi Jayanthi', hly_frm_dt: '2025-10-02', hly_to_dt: '2025-10-02', hly_typ: 'Public' }, 'hly_cd');
  }, 120_000);
  afterAll(async () => srv?.close());

  const range = (s: Session, from: string, to: string) => call(srv.app, s, 'GET', `/api/schedule/?from=${from}&to=${to}`);
  const events = async (s: Session, from: string, to: string): Promise<Ev[]> => {
    const res = await range(s, from, to);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ events: Ev[] }>().events;
  };

  it('refuses a range past three months, a reversed one and a non-date with 400', async () => {
    const long = await range(f.admin, '2025-06-01', '2025-09-30');
    expect(long.statusCode).toBe(400);
    expect(long.json<{ message: string }>().message).toContain('at most 93 days');
    expect((await range(f.admin, '2025-10-31', '2025-10-01')).statusCode).toBe(400);
    expect((await range(f.admin, '2025-02-30', '2025-03-10')).statusCode).toBe(400);
    expect((await call(srv.app, f.admin, 'GET', '/api/schedule/')).statusCode).toBe(400);
    // Six weeks, as a month view asks: fine.
    expect((await range(f.admin, '2025-09-01', '2025-10-12')).statusCode).toBe(200);
  });

  it('needs a signed-in user', async () => {
    const res = await srv.app.inject({ method: 'GET', url: '/api/schedule/?from=2025-09-01&to=2025-09-30' });
    expect(res.statusCode).toBe(401);
  });

  it('shows the admin the holiday and both exams, each linked to its view page', async () => {
    const list = await events(f.admin, '2025-09-01', '2025-10-12');
    const h = list.find((e) => e.id === `holiday-${holiday}`);
    expect(h).toMatchObject({ kind: 'holiday', title: 'Gandhi Jayanthi', start: '2025-10-02', end: '2025-10-02', link: `/sms/institute/holiday/view/${holiday}` });
    // Both sections sit the same exam type on the same dates: one entry for the two, opening the type's list.
    const exm = list.filter((e) => e.kind === 'exam' && e.keys.includes(exams.examA));
    expect(exm).toHaveLength(1);
    expect([...exm[0].keys].sort()).toEqual([exams.examA, exams.examB].sort());
    expect(exm[0]).toMatchObject({ start: '2025-09-15', end: '2025-09-20', title: expect.stringContaining('Quarterly') });
    expect(exm[0].link).toMatch(/^\/sms\/exam\/exam\/table\?f_exmtyp_cd=\d+$/);
    expect(exm[0].detail).toContain('Quarterly B');
    // Outside the range: nothing.
    expect((await events(f.admin, '2025-11-01', '2025-11-30')).filter((e) => e.kind !== 'own')).toEqual([]);
  });

  it("shows a teacher under 'his students only' the exams of their own sections only", async () => {
    const teacher = await f.employee([{ module: 'exam', page: 'exam', buttons: 'view' }], true, [f.secA]);
    const list = await events(teacher, '2025-09-01', '2025-10-12');
    const exm = list.filter((e) => e.kind === 'exam');
    expect(exm.flatMap((e) => e.keys)).toContain(exams.examA);
    expect(exm.flatMap((e) => e.keys)).not.toContain(exams.examB);
    // One section's exam opens its own view page.
    expect(exm.find((e) => e.keys.includes(exams.examA))?.link).toBe(`/sms/exam/exam/view/${exams.examA}`);
    // Holidays are the whole institute's: shown, without a link for one who cannot open the holiday page.
    expect(list.find((e) => e.id === `holiday-${holiday}`)?.link).toBeNull();
    // A teacher without the exam page still sees their own sections' exams, and no others.
    const plain = await f.employee(classView, false, [f.secB]);
    const mine = (await events(plain, '2025-09-01', '2025-10-12')).filter((e) => e.kind === 'exam');
    expect(mine.flatMap((e) => e.keys)).toEqual([exams.examB]);
    expect(mine[0].link).toBeNull();
  });

  it("keeps a user's own entries their own: never listed to, moved or deleted by another user", async () => {
    const owner = await f.employee(classView, false);
    const other = await f.employee(classView, false);
    const made = await call(srv.app, owner, 'POST', '/api/schedule/event/', { sch_evt_ttl: 'Parents meeting', sch_evt_frm_dt: '2025-09-10', sch_evt_to_dt: '2025-09-10' });
    expect(made.statusCode, made.body).toBe(201);
    const ev = made.json<Ev>();
    expect(ev).toMatchObject({ kind: 'own', title: 'Parents meeting', start: '2025-09-10', allDay: true });
    expect((await events(owner, '2025-09-01', '2025-09-30')).map((e) => e.id)).toContain(ev.id);
    expect((await events(other, '2025-09-01', '2025-09-30')).map((e) => e.id)).not.toContain(ev.id);
    expect((await events(f.admin, '2025-09-01', '2025-09-30')).map((e) => e.id)).not.toContain(ev.id);

    const move = { sch_evt_frm_dt: '2025-09-12', sch_evt_to_dt: '2025-09-12', row_ver: ev.rowVer };
    const stolen = await call(srv.app, other, 'PUT', `/api/schedule/event/${ev.key}`, move);
    expect(stolen.statusCode).toBe(404);
    expect((await call(srv.app, f.admin, 'PUT', `/api/schedule/event/${ev.key}`, move)).statusCode).toBe(404);
    expect((await call(srv.app, other, 'DELETE', `/api/schedule/event/${ev.key}`)).statusCode).toBe(404);
    expect((await events(owner, '2025-09-10', '2025-09-10')).map((e) => e.id)).toContain(ev.id);

    const moved = await call(srv.app, owner, 'PUT', `/api/schedule/event/${ev.key}`, move);
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json<Ev>().start).toBe('2025-09-12');
    // The old row_ver is stale now: a second move with it is refused.
    expect((await call(srv.app, owner, 'PUT', `/api/schedule/event/${ev.key}`, move)).statusCode).toBe(409);
    expect((await call(srv.app, owner, 'DELETE', `/api/schedule/event/${ev.key}`)).statusCode).toBe(200);
    expect((await events(owner, '2025-09-01', '2025-09-30')).map((e) => e.id)).not.toContain(ev.id);
  });

  it('refuses an entry without a title, ending before it starts, or with one time only, writing nothing', async () => {
    const owner = await f.employee(classView, false);
    const post = (body: Row) => call(srv.app, owner, 'POST', '/api/schedule/event/', body);
    expect((await post({ sch_evt_frm_dt: '2025-09-10', sch_evt_to_dt: '2025-09-10' })).statusCode).toBe(400);
    expect((await post({ sch_evt_ttl: 'X', sch_evt_frm_dt: '2025-09-10', sch_evt_to_dt: '2025-09-09' })).statusCode).toBe(400);
    expect((await post({ sch_evt_ttl: 'X', sch_evt_frm_dt: '2025-09-10', sch_evt_to_dt: '2025-09-10', sch_evt_frm_tm: '10:00' })).statusCode).toBe(400);
    expect((await post({ sch_evt_ttl: 'X', sch_evt_frm_dt: '2025-09-10', sch_evt_to_dt: '2025-09-10', sch_evt_frm_tm: '10:00', sch_evt_to_tm: '09:00' })).statusCode).toBe(400);
    expect((await events(owner, '2025-09-01', '2025-09-30')).filter((e) => e.kind === 'own')).toEqual([]);
    const timed = await post({ sch_evt_ttl: 'Staff meeting', sch_evt_frm_dt: '2025-09-10', sch_evt_to_dt: '2025-09-10', sch_evt_frm_tm: '15:30', sch_evt_to_tm: '16:30' });
    expect(timed.statusCode, timed.body).toBe(201);
    expect(timed.json<Ev>()).toMatchObject({ allDay: false, startTime: '15:30:00' });
  });
});
