import type { FastifyBaseLogger } from 'fastify';
import { createServer, type AddressInfo } from 'node:net';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows, sql } from '../src/db/client';
import type { JobContext, JobQueue } from '../src/jobs/job-definition';
import { attachRealtime, type Realtime } from '../src/realtime';
import type { RealtimeEvent, RealtimeEvents } from '../src/realtime-events';
import { MAIL_DISABLED } from '../src/workflows/messaging/mail.service';
import { mailSendJob, mobNotificationSendJob } from '../src/workflows/messaging/messaging.jobs';
import { collect, connectSocket, sleep, startSmtp, type TestSmtp } from './messaging-fixture';
import { makeFixture, type Fixture, type Row } from './student-workflow-fixture';
import { backends, call, type Session, type TestServer, startTestServer } from './test-server';

/** Events a job raised, for a job run directly (not through the queue). */
function recordingEvents(): RealtimeEvents & { seen: { to: number[]; event: RealtimeEvent; payload: unknown }[] } {
  const seen: { to: number[]; event: RealtimeEvent; payload: unknown }[] = [];
  return {
    seen,
    toUsers: (to, event, payload) => void seen.push({ to: [...to], event, payload }),
    toInstitute: () => undefined,
    attach: () => undefined,
  };
}

const noQueue: JobQueue = { send: async () => null, schedule: async () => undefined, unschedule: async () => undefined };
const quietLog = { info() {}, warn() {}, error() {}, debug() {}, child: () => quietLog } as unknown as FastifyBaseLogger;

for (const backend of backends) {
  describe(`messaging: direct messages, e-mail, parents' notifications (${backend})`, () => {
    let srv: TestServer;
    let realtime: Realtime;
    let url: string;
    let fx: Fixture;
    let smtp: TestSmtp;
    let teacher: Session;
    let teacherCd: number;
    const sockets: Socket[] = [];

    const jobCtx = (events: RealtimeEvents, cfg = srv.cfg): JobContext => ({ db: srv.database.db, cfg, log: quietLog, events, queue: noQueue, jobId: 'test' });

    beforeAll(async () => {
      smtp = await startSmtp();
      srv = await startTestServer(backend, { smtpUrl: smtp.url, mailFrom: 'Campus Office <office@school.example>' });
      realtime = await attachRealtime(srv.app, srv.database.db, srv.cfg);
      // The queue's workers (jobs/), as main.ts starts them: the routes' queued jobs run in this process.
      await (srv.app.jobs as unknown as { start?: () => Promise<void> }).start?.();
      await srv.app.listen({ port: 0, host: '127.0.0.1' });
      url = `http://127.0.0.1:${(srv.app.server.address() as AddressInfo).port}`;
      fx = await makeFixture(srv);
      teacher = await fx.employee([{ module: 'institute', page: 'circular', buttons: 'view' }], false);
      teacherCd = teacher.usr_cd;
    }, 120_000);
    afterAll(async () => {
      for (const s of sockets) s.close();
      realtime?.disconnectAll();
      await srv?.close();
      await realtime?.close();
      await smtp?.close();
    });

    const open = async (s: Session, instCd?: number) => {
      const socket = await connectSocket(url, s.token, instCd);
      sockets.push(socket);
      return socket;
    };
    const send = (from: Session, body: unknown) => call(srv.app, from, 'POST', '/api/message/', body);

    it('lists colleagues of the institute by name only, searchable, without the user', async () => {
      const all = await call(srv.app, fx.admin, 'GET', '/api/message/colleagues');
      expect(all.statusCode).toBe(200);
      const list = all.json<Row[]>();
      expect(list.some((c) => c.usr_cd === teacherCd)).toBe(true);
      expect(list.some((c) => c.usr_cd === fx.admin.usr_cd)).toBe(false);
      expect(Object.keys(list[0]).sort()).toEqual(['usr_cd', 'usr_full_nm']);
      const [row] = await rows<Row>(srv.database.db, sql`SELECT usr_full_nm FROM employee WHERE usr_cd = ${teacherCd}`);
      const part = String(row.usr_full_nm).slice(-5);
      const found = (await call(srv.app, fx.admin, 'GET', `/api/message/colleagues?q=${encodeURIComponent(part)}`)).json<Row[]>();
      expect(found.map((c) => c.usr_cd)).toEqual([teacherCd]);
      expect((await call(srv.app, fx.admin, 'GET', '/api/message/colleagues?q=nobody-is-called-this')).json<Row[]>()).toEqual([]);
    });

    it('refuses an empty, an over-long, a self-addressed or a stranger-addressed message, storing nothing', async () => {
      const before = await count();
      expect((await send(fx.admin, { to: teacherCd, message: '   ' })).json<Row>().message).toBe('Type the message.');
      expect((await send(fx.admin, { to: teacherCd, message: 'x'.repeat(501) })).json<Row>().message).toBe('The message can have at most 500 characters.');
      const self = await send(fx.admin, { to: fx.admin.usr_cd, message: 'hello me' });
      expect(self.statusCode).toBe(400);
      const stranger = await send(fx.admin, { to: 987654, message: 'hello?' });
      expect(stranger.statusCode).toBe(400);
      expect(stranger.json<Row>().message).toBe('The addressee is not a colleague of this institute.');
      expect((await send(fx.admin, { message: 'to nobody' })).statusCode).toBe(400);
      expect(await count()).toBe(before);
    });

    it("pushes a message to the addressee's sockets only, and stores it", async () => {
      const theirs = await open(teacher);
      const mine = await open(fx.admin);
      const got = collect(theirs, 'messageSent');
      const echoed = collect(mine, 'messageSent');
      const res = await send(fx.admin, { to: teacherCd, message: '  Please come to the office at 11.  ' });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json<Row>().delivered).toBe(true);
      await expect.poll(() => got.length).toBe(1);
      expect(got[0]).toMatchObject({ to: teacherCd, from_usr_cd: fx.admin.usr_cd, message: 'Please come to the office at 11.' });
      expect(typeof got[0].from).toBe('string');
      await sleep(200);
      expect(echoed).toEqual([]);
      const inbox = (await call(srv.app, teacher, 'GET', '/api/message/')).json<Row[]>();
      expect(inbox[0]).toMatchObject({ dm_from_usr_cd: fx.admin.usr_cd, dm_to_usr_cd: teacherCd, dm_txt: 'Please come to the office at 11.' });
      theirs.close();
      mine.close();
    });

    it('says when the addressee has no open page (stored, not delivered)', async () => {
      const res = await send(teacher, { to: fx.admin.usr_cd, message: 'Leaving early today.' });
      expect(res.statusCode).toBe(201);
      expect(res.json<Row>().delivered).toBe(false);
    });

    it('holds back a flood of messages from one sender (429), storing none of the extra', async () => {
      const other = await fx.employee([{ module: 'institute', page: 'circular', buttons: 'view' }], false);
      const codes: number[] = [];
      for (let i = 0; i < 21; i++) codes.push((await send(other, { to: teacherCd, message: `ping ${i}` })).statusCode);
      expect(codes.slice(0, 20).every((c) => c === 201)).toBe(true);
      expect(codes[20]).toBe(429);
      const [r] = await rows<{ n: number }>(srv.database.db, sql`SELECT count(*)::int AS n FROM direct_message WHERE dm_from_usr_cd = ${other.usr_cd}`);
      expect(r.n).toBe(20);
    });

    it("joins a socket to its institute's room only when the user's records hold that institute", async () => {
      const good = await open(teacher, teacher.instCd);
      const forged = await open(teacher, teacher.instCd + 1000);
      const a = collect(good, 'studentFeegroupSync');
      const b = collect(forged, 'studentFeegroupSync');
      srv.app.realtimeEvents.toInstitute(teacher.instCd, 'studentFeegroupSync', { cls_cd: 1 });
      await expect.poll(() => a.length).toBe(1);
      // A 'join' of an institute not held is refused too.
      const joined = await forged.timeout(2000).emitWithAck('join', teacher.instCd + 1000);
      expect(joined).toEqual({ ok: false });
      await sleep(200);
      expect(b).toEqual([]);
      good.close();
      forged.close();
    });

    it("'mail-send' delivers through SMTP and tells the asker", async () => {
      const events = recordingEvents();
      const out = await mailSendJob.run(
        { to: ['head@school.example', 'Clerk@School.example'], subject: 'Staff meeting', text: 'At 4 pm in the library.', requestedBy: 7, what: "Circular 'Staff meeting'" },
        jobCtx(events),
      );
      expect(out).toMatchObject({ sent: 2 });
      const mails = smtp.received.filter((m) => m.subject === 'Staff meeting');
      expect(mails.map((m) => m.to.toLowerCase()).sort()).toEqual(['clerk@school.example', 'head@school.example']);
      expect(mails[0].text.trim()).toBe('At 4 pm in the library.');
      expect(mails[0].from).toMatch(/Campus Office.*<office@school\.example>/);
      expect(events.seen).toEqual([{ to: [7], event: 'mailSent', payload: { isSuccess: true, msg: "Circular 'Staff meeting' was e-mailed to 2." } }]);
    });

    it("'mail-send' reports a refused address, and a server without SMTP_URL sends nothing", async () => {
      smtp.refuse.add('gone@school.example');
      const events = recordingEvents();
      await mailSendJob.run({ to: ['gone@school.example', 'ok@school.example'], subject: 'Partly', text: 'x', requestedBy: 7 }, jobCtx(events));
      expect(smtp.received.filter((m) => m.subject === 'Partly').map((m) => m.to)).toEqual(['ok@school.example']);
      expect(events.seen[0].payload).toEqual({ isSuccess: false, msg: "'Partly' was e-mailed to 1; 1 could not be reached." });
      const off = recordingEvents();
      const before = smtp.received.length;
      await mailSendJob.run({ to: ['ok@school.example'], subject: 'Off', text: 'x', requestedBy: 7 }, jobCtx(off, { ...srv.cfg, smtpUrl: undefined }));
      expect(smtp.received.length).toBe(before);
      expect(off.seen[0].payload).toEqual({ isSuccess: false, msg: MAIL_DISABLED });
    });

    it("'mail-send' to an unreachable mail server fails each try and tells the asker only on the last one", async () => {
      // A port nothing listens on: the connection is refused, as with a mail server that is down.
      const probe = createServer();
      await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
      const port = (probe.address() as AddressInfo).port;
      await new Promise((r) => probe.close(r));
      const down = { ...srv.cfg, smtpUrl: `smtp://127.0.0.1:${port}` };
      const data = { to: ['head@school.example'], subject: 'Fees due', text: 'x', requestedBy: 7, what: "Circular 'Fees due'" };
      const early = recordingEvents();
      await expect(mailSendJob.run(data, { ...jobCtx(early, down), retryCount: 1, retryLimit: 3 })).rejects.toThrow();
      expect(early.seen).toEqual([]);
      const last = recordingEvents();
      await expect(mailSendJob.run(data, { ...jobCtx(last, down), retryCount: 3, retryLimit: 3 })).rejects.toThrow();
      expect(last.seen).toEqual([{ to: [7], event: 'mailSent', payload: { isSuccess: false, msg: "Circular 'Fees due' could not be e-mailed: the mail server could not be reached." } }]);
      expect(mailSendJob.retryLimit).toBe(3);
    });

    it("the jobs page may not run the jobs that need a record: no Run now, and the server refuses with a sentence", async () => {
      const list = await call(srv.app, fx.admin, 'GET', '/api/job/');
      expect(list.statusCode, list.body).toBe(200);
      const kinds = list.json<{ jobs: { name: string; runNow: boolean }[] }>().jobs;
      expect(kinds.filter((k) => k.name === 'mail-send' || k.name === 'mob-notification-send')).toEqual([
        expect.objectContaining({ name: 'mail-send', runNow: false }),
        expect.objectContaining({ name: 'mob-notification-send', runNow: false }),
      ]);
      expect(kinds.find((k) => k.name === 'notification-daily')?.runNow).toBe(true);
      const mail = await call(srv.app, fx.admin, 'POST', '/api/job/run/', { name: 'mail-send' });
      expect(mail.statusCode).toBe(400);
      expect(mail.json<Row>().message).toBe("'Send e-mail' cannot be run from here: it works on a record chosen on its own page (Send by E-mail on a circular, or a notification's daily e-mail).");
      const mob = await call(srv.app, fx.admin, 'POST', '/api/job/run/', { name: 'mob-notification-send' });
      expect(mob.statusCode).toBe(400);
      expect(mob.json<Row>().message).toBe("'Send a message to parents' cannot be run from here: it works on a record chosen on its own page (Send to Parents on a mobile notification).");
    });

    it('e-mails a circular to the staff on record (addresses from records), and refuses without SMTP_URL', async () => {
      await srv.database.db.execute(sql`UPDATE employee SET usr_eml = ${'teacher.one@school.example'} WHERE usr_cd = ${teacherCd}`);
      const circ = fx.as(fx.admin, 'institute', 'circular');
      const id = await fx.created(circ, '/api/circular/', { crlr_sub: 'Annual Day on Friday', crlr_dscr: 'Classes end at noon.', crlr_dt: '2026-11-20' }, 'crlr_cd');
      // Addresses in the body are not used: only the records'.
      const res = await call(srv.app, circ, 'POST', `/api/circular/${id}/mail`, { recipients: 'Staff', to: ['attacker@evil.example'] });
      expect(res.statusCode, res.body).toBe(202);
      await expect.poll(() => smtp.received.filter((m) => m.subject === 'Annual Day on Friday').map((m) => m.to), { timeout: 20_000 }).toContain('teacher.one@school.example');
      const got = smtp.received.filter((m) => m.subject === 'Annual Day on Friday');
      expect(got.map((m) => m.to)).toContain('teacher.one@school.example');
      expect(got.some((m) => m.to.includes('evil'))).toBe(false);
      expect(got[0].text).toContain('Classes end at noon.');
      // The teacher holds the page without 'send_mail'.
      expect((await call(srv.app, fx.as(teacher, 'institute', 'circular'), 'POST', `/api/circular/${id}/mail`, { recipients: 'Staff' })).statusCode).toBe(403);
      expect((await call(srv.app, circ, 'POST', `/api/circular/${id}/mail`, { recipients: 'Everyone' })).statusCode).toBe(400);
      const saved = srv.cfg.smtpUrl;
      srv.cfg.smtpUrl = undefined;
      try {
        const off = await call(srv.app, circ, 'POST', `/api/circular/${id}/mail`, { recipients: 'Staff' });
        expect(off.statusCode).toBe(409);
        expect(off.json<Row>().message).toBe(MAIL_DISABLED);
        expect((await call(srv.app, fx.admin, 'GET', '/api/message/mail-status')).json<Row>()).toEqual({ enabled: false, message: MAIL_DISABLED });
      } finally {
        srv.cfg.smtpUrl = saved;
      }
    });

    it("sends a mobile notification to a section's families with per-family status, count and retry", async () => {
      const page = fx.as(fx.admin, 'features', 'mob_notification');
      const [a1, a2, a3] = fx.studA;
      await srv.database.db.execute(sql`UPDATE student SET stud_eml = ${'meena.parent@home.example'} WHERE stud_cd = ${a1}`);
      await srv.database.db.execute(sql`UPDATE student SET stud_eml = ${'arun.parent@home.example'} WHERE stud_cd = ${a2}`);
      await srv.database.db.execute(sql`UPDATE student SET stud_eml = NULL WHERE stud_cd = ${a3}`);
      smtp.refuse.add('arun.parent@home.example');
      const id = await fx.created(page, '/api/mob_notification/', { mob_ntf_dtl_sub: 'Sports day', mob_ntf_dtl_msg: 'Sports day is on Saturday; children come in house colours.', mob_ntf_dtl_sts: 'Ready' }, 'mob_ntf_dtl_cd');
      const sender = await open(fx.admin);
      const told = collect<{ isSuccess: boolean; msg: string }>(sender, 'notificationSent');
      const bad = await call(srv.app, page, 'POST', `/api/mob_notification/${id}/send`, { audience: 'Section', cls_cd: fx.cls1 });
      expect(bad.statusCode).toBe(400);
      const res = await call(srv.app, page, 'POST', `/api/mob_notification/${id}/send`, { audience: 'Section', cls_cd: fx.cls1, sec_cd: fx.secA });
      expect(res.statusCode, res.body).toBe(202);
      expect(res.json<Row>().recipients).toBe(3);
      // The route queued the job; the queue's worker in this process runs it.
      const deliveries = async () => (await call(srv.app, page, 'GET', `/api/mob_notification/${id}/deliveries`)).json<Row[]>();
      await expect.poll(async () => (await deliveries()).filter((d) => d.mnd_sts === 'Queued' || d.mnd_sts === 'Sending').length, { timeout: 20_000 }).toBe(0);
      const byStud = new Map((await deliveries()).map((d) => [d.stud_cd, d]));
      expect(byStud.get(a1)).toMatchObject({ mnd_sts: 'Sent', mnd_address: 'meena.parent@home.example', mnd_attempts: 1 });
      expect(byStud.get(a2)).toMatchObject({ mnd_sts: 'Failed' });
      expect(byStud.get(a3)).toMatchObject({ mnd_sts: 'Failed', mnd_reason: 'no e-mail address', mnd_address: null });
      const row = (await call(srv.app, page, 'GET', `/api/mob_notification/${id}`)).json<Row>();
      expect(row).toMatchObject({ mob_ntf_dtl_cnt: 3, mob_ntf_dtl_sts: 'Partly sent' });
      expect(row.mob_ntf_dtl_dlv).toMatch(/^3 families: 1 sent, 2 failed \(.*no e-mail address: 1.*\)$/);
      const mail = smtp.received.find((m) => m.to === 'meena.parent@home.example');
      expect(mail).toMatchObject({ subject: 'Sports day' });
      expect(mail!.text).toContain('house colours');
      await expect.poll(() => told.length, { timeout: 20_000 }).toBe(1);
      expect(told[0]).toEqual({ isSuccess: false, msg: "'Sports day' reached 1 of 3 families; 2 failed (see the deliveries, then Retry Failed)." });
      // Run again by hand (as a duplicate run would): nothing is queued, so no family gets it twice.
      await mobNotificationSendJob.run({ mob_ntf_dtl_cd: id }, jobCtx(recordingEvents()));
      expect(smtp.received.filter((m) => m.to === 'meena.parent@home.example')).toHaveLength(1);
      // Already sent: a second send is refused.
      expect((await call(srv.app, page, 'POST', `/api/mob_notification/${id}/send`, { audience: 'Class', cls_cd: fx.cls1 })).statusCode).toBe(409);
      // The address is fixed and the mailbox accepts now: retry reaches Arun's family.
      smtp.refuse.delete('arun.parent@home.example');
      const retry = await call(srv.app, page, 'POST', `/api/mob_notification/${id}/retry`, {});
      expect(retry.statusCode, retry.body).toBe(202);
      expect(retry.json<Row>().recipients).toBe(2);
      await expect.poll(async () => (await deliveries()).find((d) => d.stud_cd === a2)?.mnd_sts, { timeout: 20_000 }).toBe('Sent');
      await expect.poll(async () => (await deliveries()).find((d) => d.stud_cd === a3)?.mnd_sts, { timeout: 20_000 }).toBe('Failed');
      const after = new Map((await deliveries()).map((d) => [d.stud_cd, d]));
      expect(after.get(a2)).toMatchObject({ mnd_attempts: 2 });
      expect(after.get(a3)).toMatchObject({ mnd_sts: 'Failed', mnd_attempts: 2 });
      // The office adds the missing address to the student's record: the next retry reads it and reaches them.
      await srv.database.db.execute(sql`UPDATE student SET stud_eml = ${'zara.parent@home.example'} WHERE stud_cd = ${a3}`);
      expect((await call(srv.app, page, 'POST', `/api/mob_notification/${id}/retry`, {})).statusCode).toBe(202);
      await expect.poll(async () => (await deliveries()).find((d) => d.stud_cd === a3)?.mnd_sts, { timeout: 20_000 }).toBe('Sent');
      expect(smtp.received.some((m) => m.to === 'zara.parent@home.example' && m.subject === 'Sports day')).toBe(true);
      await expect.poll(async () => (await call(srv.app, page, 'GET', `/api/mob_notification/${id}`)).json<Row>().mob_ntf_dtl_sts, { timeout: 20_000 }).toBe('Sent');
      expect((await call(srv.app, page, 'POST', `/api/mob_notification/${id}/retry`, {})).statusCode).toBe(409);
      await expect.poll(() => told.length, { timeout: 20_000 }).toBe(3);
      expect(told[2]).toEqual({ isSuccess: true, msg: "'Sports day' reached 3 of 3 families." });
      expect(told[1]).toEqual({ isSuccess: false, msg: "'Sports day' reached 2 of 3 families; 1 failed (see the deliveries, then Retry Failed)." });
      sender.close();
    });

    it("announces a fee mapping change to the institute's sockets after the write, once per class", async () => {
      const socket = await open(teacher, teacher.instCd);
      const got = collect<{ cls_cd: number; acdm_cd: number | null }>(socket, 'studentFeegroupSync');
      const grp = await fx.created(fx.as(fx.admin, 'fee', 'fee_group'), '/api/fee_group/', { fee_grp_nm: 'Sync Term', fee_grp_fee_str_dt: '2020-06-01', fee_grp_fee_exp_dt: '2099-06-30' }, 'fee_grp_cd');
      const typ = await fx.created(fx.as(fx.admin, 'fee', 'fee_type'), '/api/fee_type/', { feetyp_nm: 'Sync Tuition' }, 'feetyp_cd');
      const map = fx.as(fx.admin, 'fee', 'fee');
      const feeCd = await fx.created(map, '/api/fee/', { fee_grp_cd: grp, feetyp_cd: typ, cls_cd: fx.cls1, fee_amt: '100.00', fee_amt_aftr_prmtn: '90.00' }, 'fee_cd');
      await expect.poll(() => got.length).toBe(1);
      expect(got[0]).toEqual({ cls_cd: fx.cls1, acdm_cd: fx.year });
      // A refused write (the same class, term and fee type again) announces nothing.
      expect((await call(srv.app, map, 'POST', '/api/fee/', { fee_grp_cd: grp, feetyp_cd: typ, cls_cd: fx.cls1, fee_amt: '5.00', fee_amt_aftr_prmtn: '5.00' })).statusCode).toBe(409);
      const row = (await call(srv.app, map, 'GET', `/api/fee/${feeCd}`)).json<Row>();
      const put = await call(srv.app, map, 'PUT', `/api/fee/${feeCd}`, { fee_amt: '120.00', row_ver: row.row_ver });
      expect(put.statusCode, put.body).toBe(200);
      await expect.poll(() => got.length).toBe(2);
      expect(got[1].cls_cd).toBe(fx.cls1);
      await sleep(200);
      expect(got.length).toBe(2);
      socket.close();
    });

    async function count(): Promise<number> {
      const [r] = await rows<{ n: number }>(srv.database.db, sql`SELECT count(*)::int AS n FROM direct_message`);
      return Number(r.n);
    }
  });
}
