import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RealtimeEvent, RealtimeEvents } from '../src/realtime-events';
import { rows, sql } from '../src/db/client';
import type { JobContext } from '../src/jobs/job-definition';
import { notificationDailyJob, notificationRuleJobs } from '../src/workflows/notification-rules/notification-rule.jobs';
import { makeFixture, type Fixture, type Row } from './student-workflow-fixture';
import { backends, call, type Session, type TestServer, startTestServer } from './test-server';

/*
 * Issue 12, notification rules: a rule is a structured query checked against the registry on every save;
 * its preview and its daily run read with the recipient's own scope (a teacher under 'his students only'
 * sees his sections' students, never the others'); the daily job stores once per user, rule and day; a
 * user reads and marks only their own notifications.
 */
describe.each(backends)('notification rules on %s', (backend) => {
  let srv: TestServer;
  let f: Fixture;
  let admin: Session;
  let teacher: Session;
  const sent: { users: readonly number[]; event: RealtimeEvent }[] = [];
  const events: RealtimeEvents = {
    toUsers: (users, event) => void sent.push({ users, event }),
    toInstitute: () => undefined,
    attach: () => undefined,
  };
  const rulePage = (s: Session): Session => ({ ...s, modulename: 'features', pagename: 'notification' });
  const fixtureStudents = () => [...f.studA, ...f.studB, ...f.studC];
  // Every student of the fixture's two classes (the demo seed may hold others).
  const byClasses = () => ({ entity: 'student', columns: ['stud_fs_nm', 'sec_cd'], where: [{ field: 'cls_cd', op: 'in', value: [f.cls1, f.cls2] }], order: [{ field: 'stud_fs_nm', dir: 'asc' }] });
  let ruleSeq = 0;
  const rule = (parts: Row): Row => ({ ntf_cd: `R${Date.now().toString(36).toUpperCase()}${ruleSeq}`, ntf_nm: `Rule ${Date.now()} ${ruleSeq++}`, ...parts });
  const post = (body: Row) => call(srv.app, rulePage(admin), 'POST', '/api/notification/', body);
  const jobCtx = (): JobContext => ({ db: srv.database.db, cfg: srv.cfg, log: srv.app.log, events, queue: { send: async () => null, schedule: async () => undefined, unschedule: async () => undefined }, jobId: 'test' });

  beforeAll(async () => {
    srv = await startTestServer(backend);
    f = await makeFixture(srv);
    admin = f.admin;
    teacher = await f.employee(
      [
        { module: 'features', page: 'notification', buttons: 'view' },
        { module: 'student', page: 'profile', buttons: 'view' },
      ],
      true,
      [f.secA],
    );
  });
  afterAll(async () => srv?.close());

  it('refuses a rule over an unknown entity, field, operator or value with a 400 naming the part, and writes nothing', async () => {
    const cases: [Row, string][] = [
      [{ ntf_qry: { entity: 'no_such_thing' } }, "'no_such_thing' is not an entity."],
      [{ ntf_qry: { entity: 'student', columns: ['stud_shoe_size'] } }, "Columns: 'stud_shoe_size' is not a field of Student."],
      [{ ntf_qry: { entity: 'student' }, ntf_qry_whr_clmn: [{ field: 'stud_shoe_size', op: 'eq', value: 1 }] }, "Condition 1: 'stud_shoe_size' is not a field of Student."],
      [{ ntf_qry: { entity: 'student' }, ntf_qry_whr_clmn: [{ field: 'cls_cd', op: 'drop table', value: 1 }] }, "Condition 1: 'drop table' is not an operator"],
      [{ ntf_qry: { entity: 'student' }, ntf_qry_whr_clmn: [{ field: 'stud_fs_nm', op: 'gt', value: 'A' }] }, "Condition 1: 'gt' does not apply to 'stud_fs_nm' of Student."],
      [{ ntf_qry: { entity: 'student' }, ntf_qry_whr_clmn: [{ field: 'cls_cd', op: 'eq', value: 'abc' }] }, 'Condition 1:'],
      [{ ntf_qry: { entity: 'student' }, ntf_dt_fltr: { field: 'stud_fs_nm', from: 0, to: 3 } }, "Date filter: 'stud_fs_nm' of Student is not a date."],
      [{ ntf_qry: 'select * from employee' }, "The notification's query is not valid JSON."],
      [{}, 'A notification needs a query'],
    ];
    for (const [parts, message] of cases) {
      const body = rule(parts);
      const res = await post(body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json<{ message: string }>().message).toContain(message);
      const listed = await call(srv.app, rulePage(admin), 'GET', `/api/notification/?f_ntf_cd=${String(body.ntf_cd)}`);
      expect(listed.json<{ rows: Row[] }>().rows).toEqual([]);
    }
  });

  it('stores a valid rule in its normal form, and refuses an update that breaks it, leaving it as it was', async () => {
    const res = await post(rule({ ntf_qry: JSON.stringify({ entity: 'student', columns: ['stud_fs_nm'] }), ntf_dt_fltr: { field: 'stud_dob', from: 0, to: 3 }, ntf_qry_lmt_clmn: 10 }));
    expect(res.statusCode, res.body).toBe(201);
    const made = res.json<Row>();
    expect(made.ntf_qry).toEqual({ entity: 'student', columns: ['stud_fs_nm'] });
    expect(made.ntf_dt_fltr).toEqual({ field: 'stud_dob', from: 0, to: 3 });
    const bad = await call(srv.app, rulePage(admin), 'PUT', `/api/notification/${String(made.ntf_id)}`, { ntf_qry_whr_clmn: [{ field: 'stud_fs_nm', op: 'like', value: 'x' }], row_ver: made.row_ver });
    expect(bad.statusCode, bad.body).toBe(400);
    expect(bad.json<{ message: string }>().message).toContain("'like' is not an operator");
    const still = await call(srv.app, rulePage(admin), 'GET', `/api/notification/${String(made.ntf_id)}`);
    expect(still.json<Row>().ntf_qry_whr_clmn).toBeNull();
  });

  it("previews a query with the caller's scope: the teacher sees only his section's students", async () => {
    const url = `/api/notification/fetchQuery/?ntf=${encodeURIComponent(JSON.stringify(byClasses()))}`;
    const all = await call(srv.app, rulePage(admin), 'GET', url);
    expect(all.statusCode, all.body).toBe(200);
    const a = all.json<{ rows: Row[]; count: number }>();
    expect(a.count).toBe(fixtureStudents().length);
    expect(a.rows.map((r) => Number(r.stud_cd)).sort()).toEqual(fixtureStudents().sort());

    const mine = await call(srv.app, rulePage(teacher), 'GET', url);
    expect(mine.statusCode, mine.body).toBe(200);
    const m = mine.json<{ rows: Row[]; count: number }>();
    expect(m.count).toBe(f.studA.length);
    expect(m.rows.map((r) => Number(r.stud_cd)).sort()).toEqual([...f.studA].sort());
    expect(new Set(m.rows.map((r) => Number(r.sec_cd)))).toEqual(new Set([f.secA]));

    // A group counts within the same scope.
    const grouped = await call(srv.app, rulePage(teacher), 'GET', `/api/notification/fetchQuery/?ntf=${encodeURIComponent(JSON.stringify({ ...byClasses(), order: [], group: ['sec_cd'] }))}`);
    expect(grouped.json<{ rows: Row[] }>().rows).toEqual([expect.objectContaining({ sec_cd: f.secA, n: f.studA.length })]);

    const badOp = await call(srv.app, rulePage(admin), 'GET', `/api/notification/fetchQuery/?ntf=${encodeURIComponent(JSON.stringify({ entity: 'student', where: [{ field: 'cls_cd', op: 'regex', value: 1 }] }))}`);
    expect(badOp.statusCode).toBe(400);
    expect((await call(srv.app, rulePage(admin), 'GET', '/api/notification/fetchQuery/?ntf=%7Bnot%20json')).statusCode).toBe(400);
  });

  it("the entity's list takes a rule's filter (rule=), with the list's own scope, and refuses unknown fields", async () => {
    const profile = (sess: Session): Session => ({ ...sess, modulename: 'student', pagename: 'profile' });
    const ruleParam = encodeURIComponent(JSON.stringify({ where: byClasses().where }));
    const all = await call(srv.app, profile(admin), 'GET', `/api/student/?rule=${ruleParam}&size=100`);
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json<{ rows: Row[] }>().rows.map((r) => Number(r.stud_cd)).sort()).toEqual(fixtureStudents().sort());
    const mine = await call(srv.app, profile(teacher), 'GET', `/api/student/?rule=${ruleParam}&size=100`);
    expect(mine.json<{ rows: Row[] }>().rows.map((r) => Number(r.stud_cd)).sort()).toEqual([...f.studA].sort());
    // A date window: nobody in the fixture was born in the next three days.
    const born = encodeURIComponent(JSON.stringify({ where: byClasses().where, dateFilter: { field: 'stud_dob', from: 0, to: 3 } }));
    expect((await call(srv.app, profile(admin), 'GET', `/api/student/?rule=${born}`)).json<{ total: number }>().total).toBe(0);
    const bad = await call(srv.app, profile(admin), 'GET', `/api/student/?rule=${encodeURIComponent(JSON.stringify({ where: [{ field: 'usr_pwd', op: 'eq', value: 'x' }] }))}`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toBe("Condition 1: 'usr_pwd' is not a field of Student.");
  });

  it('the daily job stores each mapped user their own answer once per day, even run twice, and tells them', async () => {
    const made = await post(rule({ ntf_qry: { entity: 'student', columns: ['stud_fs_nm', 'sec_cd'] }, ntf_qry_whr_clmn: byClasses().where }));
    expect(made.statusCode, made.body).toBe(201);
    const ntfId = Number(made.json<Row>().ntf_id);
    const mapped = await call(srv.app, rulePage(admin), 'POST', '/api/notification/mapping/', [
      { ntf_id: ntfId, ntf_mapp_usr_cd: teacher.usr_cd, ntf_mapp_day: 'Every day', ntf_mapp_odr: 1 },
      { ntf_id: ntfId, ntf_mapp_usr_cd: admin.usr_cd, ntf_mapp_day: 'Wednesday', ntf_mapp_odr: 1 },
    ]);
    expect(mapped.statusCode, mapped.body).toBe(200);
    const listed = await call(srv.app, rulePage(admin), 'GET', `/api/notification/mapping/?ntf_mapp_usr_cd=${teacher.usr_cd}`);
    expect(listed.json<{ rows: Row[] }>().rows.map((r) => [Number(r.ntf_id), r.ntf_mapp_day])).toEqual([[ntfId, 'Every day']]);

    expect(notificationRuleJobs.map((j) => [j.name, j.cron])).toEqual([['notification-daily', '0 6 * * *']]);
    // 2026-11-24 is a Tuesday: the admin's Wednesday mapping does not run, the teacher's every-day one does.
    sent.length = 0;
    const first = await notificationDailyJob.run({ day: '2026-11-24' }, jobCtx());
    expect(first).toMatchObject({ stored: 1, existing: 0 });
    expect(sent).toEqual([{ users: [teacher.usr_cd], event: 'updateNotification' }]);
    const again = await notificationDailyJob.run({ day: '2026-11-24' }, jobCtx());
    expect(again).toMatchObject({ stored: 0, existing: 1 });
    expect(sent).toHaveLength(1);
    // Wednesday: both; the admin's count is every student, the teacher's his section's.
    await notificationDailyJob.run({ day: '2026-11-25' }, jobCtx());
    const stored = await rows<{ usr_cd: number; usr_ntf_dt: string; usr_ntf_cnt: number }>(
      srv.database.db,
      sql`SELECT usr_cd, to_char(usr_ntf_dt, 'YYYY-MM-DD') AS usr_ntf_dt, usr_ntf_cnt FROM user_notification WHERE ntf_id = ${ntfId} ORDER BY usr_ntf_dt, usr_cd`,
    );
    expect(stored).toEqual(
      [
        { usr_cd: teacher.usr_cd, usr_ntf_dt: '2026-11-24', usr_ntf_cnt: f.studA.length },
        { usr_cd: admin.usr_cd, usr_ntf_dt: '2026-11-25', usr_ntf_cnt: fixtureStudents().length },
        { usr_cd: teacher.usr_cd, usr_ntf_dt: '2026-11-25', usr_ntf_cnt: f.studA.length },
      ].sort((x, y) => x.usr_ntf_dt.localeCompare(y.usr_ntf_dt) || x.usr_cd - y.usr_cd),
    );
  });

  it("lists only the caller's own notifications (403 for another user's), and marks them read", async () => {
    const own = await call(srv.app, teacher, 'GET', `/api/notification/userNotification/${teacher.usr_cd}`);
    expect(own.statusCode, own.body).toBe(200);
    const body = own.json<{ rows: Row[]; unread: number }>();
    expect(body.unread).toBe(2);
    expect(body.rows.map((r) => r.usr_ntf_dt)).toEqual(['2026-11-25', '2026-11-24']);
    // A rule's run says so (the bell opens its list page); a security alarm would say 'security'.
    expect(body.rows[0]).toMatchObject({ usr_ntf_kind: 'rule', usr_ntf_ref: null, usr_ntf_cnt: f.studA.length, usr_ntf_is_read: false, entity: 'student' });
    const preview = body.rows[0].usr_ntf_rows as Row[];
    expect(preview.map((r) => Number(r.stud_cd)).sort()).toEqual([...f.studA].sort());

    const other = await call(srv.app, teacher, 'GET', `/api/notification/userNotification/${admin.usr_cd}`);
    expect(other.statusCode).toBe(403);
    // Another user's notification cannot be marked by the teacher either.
    const adminsOwn = (await call(srv.app, admin, 'GET', `/api/notification/userNotification/${admin.usr_cd}`)).json<{ rows: Row[] }>().rows;
    expect((await call(srv.app, teacher, 'PUT', `/api/notification/userNotification/${String(adminsOwn[0].usr_ntf_cd)}/read`)).statusCode).toBe(404);

    const read = await call(srv.app, teacher, 'PUT', `/api/notification/userNotification/${String(body.rows[0].usr_ntf_cd)}/read`);
    expect(read.statusCode, read.body).toBe(200);
    expect((await call(srv.app, teacher, 'GET', `/api/notification/userNotification/${teacher.usr_cd}`)).json<{ unread: number }>().unread).toBe(1);
    const all = await call(srv.app, teacher, 'PUT', '/api/notification/userNotification/readAll');
    expect(all.json<{ read: number }>().read).toBe(1);
    expect((await call(srv.app, teacher, 'GET', `/api/notification/userNotification/${teacher.usr_cd}`)).json<{ unread: number }>().unread).toBe(0);
    expect((await call(srv.app, admin, 'GET', `/api/notification/userNotification/${admin.usr_cd}`)).json<{ unread: number }>().unread).toBe(1);
  });

  it('deletes a rule by its ntf_id (spec body), with its mappings and stored notifications', async () => {
    const made = await post(rule({ ntf_qry: { entity: 'student' }, ntf_qry_whr_clmn: byClasses().where }));
    const ntfId = Number(made.json<Row>().ntf_id);
    await call(srv.app, rulePage(admin), 'POST', '/api/notification/mapping/', { ntf_id: ntfId, ntf_mapp_usr_cd: admin.usr_cd, ntf_mapp_day: 'Every day' });
    await notificationDailyJob.run({ day: '2026-11-20' }, jobCtx());
    const del = await call(srv.app, rulePage(admin), 'DELETE', '/api/notification/', { ntf_id: ntfId });
    expect(del.statusCode, del.body).toBe(200);
    expect(del.json()).toEqual({ deleted: 1 });
    const left = await rows<{ n: number }>(srv.database.db, sql`SELECT (SELECT count(*) FROM user_notification WHERE ntf_id = ${ntfId}) + (SELECT count(*) FROM notification_mapping WHERE ntf_id = ${ntfId}) AS n`);
    expect(Number(left[0].n)).toBe(0);
  });

  it("lists the rules one user created (spec: ?ntf_crt_cd, and ?ntf_id&ntf_crt_cd for one of them)", async () => {
    const made = await post(rule({ ntf_qry: byClasses() }));
    expect(made.statusCode, made.body).toBe(201);
    const ntfId = Number(made.json<Row>().ntf_id);
    const list = async (query: string) => {
      const res = await call(srv.app, rulePage(admin), 'GET', `/api/notification/?${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ rows: Row[] }>().rows.map((r) => Number(r.ntf_id));
    };
    const mine = await list(`ntf_crt_cd=${admin.usr_cd}&size=500`);
    expect(mine).toContain(ntfId);
    expect(await list(`ntf_crt_cd=${teacher.usr_cd}`)).not.toContain(ntfId);
    expect(await list(`ntf_id=${ntfId}&ntf_crt_cd=${admin.usr_cd}`)).toEqual([ntfId]);
    expect(await list(`ntf_id=${ntfId}&ntf_crt_cd=${teacher.usr_cd}`)).toEqual([]);
    const bad = await call(srv.app, rulePage(admin), 'GET', '/api/notification/?ntf_crt_cd=someone');
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toBe("'ntf_crt_cd' must be a user code.");
  });
});
