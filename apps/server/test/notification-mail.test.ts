import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows, sql } from '../src/db/client';
import type { JobContext, JobQueue } from '../src/jobs/job-definition';
import type { RealtimeEvents } from '../src/realtime-events';
import { notificationDailyJob } from '../src/workflows/notification-rules/notification-rule.jobs';
import { sleep, startSmtp, type TestSmtp } from './messaging-fixture';
import { makeFixture, type Fixture, type Row } from './student-workflow-fixture';
import { backends, call, type Session, type TestServer, startTestServer } from './test-server';

const quietLog = { info() {}, warn() {}, error() {}, debug() {}, child: () => quietLog } as unknown as FastifyBaseLogger;
const noEvents: RealtimeEvents = { toUsers: () => undefined, toInstitute: () => undefined, attach: () => undefined };

/*
 * Issue 12, e-mail: a notification mapping may also e-mail the user's notification. The daily run e-mails
 * each newly stored notification once, to the employee's own address on record, through the 'mail-send'
 * job and a real (in-process) SMTP server; without SMTP_URL nothing is queued.
 */
describe.each(backends)('notification rules by e-mail on %s', (backend) => {
  let srv: TestServer;
  let smtp: TestSmtp;
  let f: Fixture;
  let teacher: Session;
  let quiet: Session;
  let noAddress: Session;
  let ntfId: number;
  const ruleName = `Class list ${Date.now()}`;
  const queued: { name: string; data: Row }[] = [];
  const rulePage = (s: Session): Session => ({ ...s, modulename: 'features', pagename: 'notification' });
  // The real queue (jobs/), so 'mail-send' runs as in production; every send is noted first.
  const queue = (): JobQueue => ({
    send: async (name, data, options) => {
      queued.push({ name, data: data as Row });
      return srv.app.jobs.send(name, data, options);
    },
    schedule: async () => undefined,
    unschedule: async () => undefined,
  });
  const jobCtx = (cfg = srv.cfg): JobContext => ({ db: srv.database.db, cfg, log: quietLog, events: noEvents, queue: queue(), jobId: 'test' });
  const teacherAddress = () => `teacher.${teacher.usr_cd}@school.example`;

  beforeAll(async () => {
    smtp = await startSmtp();
    srv = await startTestServer(backend, { smtpUrl: smtp.url, mailFrom: 'Campus Office <office@school.example>' });
    // The queue's workers, as main.ts starts them: queued mail-send jobs run in this process.
    await (srv.app.jobs as unknown as { start?: () => Promise<void> }).start?.();
    f = await makeFixture(srv);
    const grants = [
      { module: 'features', page: 'notification', buttons: 'view' },
      { module: 'student', page: 'profile', buttons: 'view' },
    ];
    teacher = await f.employee(grants, true, [f.secA]);
    quiet = await f.employee(grants, false);
    noAddress = await f.employee(grants, false);
    const db = srv.database.db;
    await db.execute(sql`UPDATE employee SET usr_eml = ${teacherAddress()} WHERE usr_cd = ${teacher.usr_cd}`);
    await db.execute(sql`UPDATE employee SET usr_eml = ${`quiet.${quiet.usr_cd}@school.example`} WHERE usr_cd = ${quiet.usr_cd}`);
    await db.execute(sql`UPDATE employee SET usr_eml = NULL WHERE usr_cd = ${noAddress.usr_cd}`);

    const made = await call(srv.app, rulePage(f.admin), 'POST', '/api/notification/', {
      ntf_cd: `M${Date.now().toString(36).toUpperCase()}`,
      ntf_nm: ruleName,
      ntf_qry: { entity: 'student', columns: ['stud_fs_nm', 'sec_cd'] },
      ntf_qry_whr_clmn: [{ field: 'cls_cd', op: 'in', value: [f.cls1, f.cls2] }],
      ntf_qry_ord_clmn: [{ field: 'stud_fs_nm', dir: 'asc' }],
    });
    expect(made.statusCode, made.body).toBe(201);
    ntfId = Number(made.json<Row>().ntf_id);
  }, 120_000);
  afterAll(async () => {
    await srv?.close();
    await smtp?.close();
  });

  it('saves and lists the e-mail choice of a mapping (off unless asked; kept when a re-save leaves it out)', async () => {
    const saved = await call(srv.app, rulePage(f.admin), 'POST', '/api/notification/mapping/', [
      { ntf_id: ntfId, ntf_mapp_usr_cd: teacher.usr_cd, ntf_mapp_day: 'Every day', ntf_mapp_eml: true },
      { ntf_id: ntfId, ntf_mapp_usr_cd: quiet.usr_cd, ntf_mapp_day: 'Every day' },
      { ntf_id: ntfId, ntf_mapp_usr_cd: noAddress.usr_cd, ntf_mapp_day: 'Every day', ntf_mapp_eml: true },
    ]);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<{ rows: Row[] }>().rows.map((r) => r.ntf_mapp_eml)).toEqual([true, false, true]);
    // The editor changes the day only: e-mail stays on.
    await call(srv.app, rulePage(f.admin), 'POST', '/api/notification/mapping/', { ntf_id: ntfId, ntf_mapp_usr_cd: teacher.usr_cd, ntf_mapp_day: 'Every day', ntf_mapp_odr: 2 });
    const listed = (await call(srv.app, rulePage(f.admin), 'GET', `/api/notification/mapping/?ntf_id=${ntfId}`)).json<{ rows: Row[] }>().rows;
    const byUser = new Map(listed.map((r) => [Number(r.ntf_mapp_usr_cd), r]));
    expect(byUser.get(teacher.usr_cd)).toMatchObject({ ntf_mapp_eml: true, usr_has_eml: true, ntf_mapp_odr: 2 });
    expect(byUser.get(quiet.usr_cd)).toMatchObject({ ntf_mapp_eml: false, usr_has_eml: true });
    expect(byUser.get(noAddress.usr_cd)).toMatchObject({ ntf_mapp_eml: true, usr_has_eml: false });
    // The address itself is not listed.
    expect(JSON.stringify(listed)).not.toContain('@school.example');
  });

  it('without SMTP_URL the daily run stores the notifications but queues no e-mail', async () => {
    queued.length = 0;
    const r = await notificationDailyJob.run({ day: '2026-11-23' }, jobCtx({ ...srv.cfg, smtpUrl: undefined }));
    expect(r).toMatchObject({ stored: 3, mailed: 0 });
    expect(queued).toEqual([]);
  });

  it('e-mails the mapped user who asked for it, with the count and the rows of their own scope, once per day', async () => {
    queued.length = 0;
    const sentBefore = smtp.received.length;
    const first = await notificationDailyJob.run({ day: '2026-11-24' }, jobCtx());
    expect(first).toMatchObject({ stored: 3, mailed: 1, noAddress: 1 });
    expect(queued.map((q) => q.name)).toEqual(['mail-send']);
    await expect.poll(() => smtp.received.length - sentBefore, { timeout: 30_000, interval: 200 }).toBe(1);
    const got = smtp.received[sentBefore];
    expect(got.envelopeTo).toEqual([teacherAddress()]);
    expect(got.to).toBe(teacherAddress());
    expect(got.subject).toBe(ruleName);
    expect(got.from).toContain('office@school.example');
    // The teacher's scope: his section's three students, not the other sections'.
    expect(got.text).toContain(`Records: ${f.studA.length}`);
    for (const s of f.studA) expect(got.text).toContain(`Student Name: ${f.names.get(s)}; Section: A`);
    for (const s of [...f.studB, ...f.studC]) expect(got.text).not.toContain(f.names.get(s));
    expect(got.text).toContain('Date: 2026-11-24');
    expect(got.text).toMatch(/Open it in Campus \(signed in\): \/sms\/student\/profile\/table\?rule=/);

    // A second run the same day (a retry, 'Run now', another process) sends nothing more.
    const again = await notificationDailyJob.run({ day: '2026-11-24' }, jobCtx());
    expect(again).toMatchObject({ stored: 0, existing: 3, mailed: 0 });
    expect(queued).toHaveLength(1);
    await sleep(1500);
    expect(smtp.received.length - sentBefore).toBe(1);
    expect(smtp.received.some((m) => m.envelopeTo.some((a) => a.startsWith('quiet.')))).toBe(false);
    const stamped = await rows<{ usr_cd: number; mailed: boolean }>(
      srv.database.db,
      sql`SELECT usr_cd, usr_ntf_eml_at IS NOT NULL AS mailed FROM user_notification WHERE ntf_id = ${ntfId} AND usr_ntf_dt = ${'2026-11-24'} ORDER BY usr_cd`,
    );
    expect(new Map(stamped.map((s) => [s.usr_cd, s.mailed]))).toEqual(
      new Map([
        [teacher.usr_cd, true],
        [quiet.usr_cd, false],
        [noAddress.usr_cd, false],
      ]),
    );
  });

  it('a notification stored while e-mail was off is e-mailed once by a later run that day, after SMTP is set up', async () => {
    queued.length = 0;
    const sentBefore = smtp.received.length;
    // 2026-11-23 was stored above without SMTP_URL.
    const r = await notificationDailyJob.run({ day: '2026-11-23' }, jobCtx());
    expect(r).toMatchObject({ stored: 0, existing: 3, mailed: 1 });
    await expect.poll(() => smtp.received.length - sentBefore, { timeout: 30_000, interval: 200 }).toBe(1);
    expect(smtp.received[sentBefore]).toMatchObject({ to: teacherAddress(), subject: ruleName });
    expect(smtp.received[sentBefore].text).toContain('Date: 2026-11-23');
  });
});
