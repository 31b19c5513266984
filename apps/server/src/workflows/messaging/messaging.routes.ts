import { apiUrl } from '@campus/entities/define';
import { entity } from '@campus/entities/registry';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { mustCtx, type RequestContext } from '../../access/request-context';
import type { Config } from '../../config';
import { rows, sql, type Db } from '../../db/client';
import type { JobQueue } from '../../jobs/job-definition';
import { badRequest, conflict, notFound } from '../../lib/http-error';
import { MAIL_DISABLED, mailEnabled, type MailSendData } from './mail.service';
import { registerFeeSync } from './fee-sync';
import { registerMessageRoutes } from './message.handler';
import { messagingJobs } from './messaging.jobs';
import { planRetry, planSend, type MobNotificationJobData } from './mob-notification.service';

const circular = entity('circular');
const mobNotification = entity('mob_notification');
const mailButton = circular.workflowButtons!.find((b) => b.path === 'mail')!;
const sendButton = mobNotification.workflowButtons!.find((b) => b.path === 'send')!;
const retryButton = mobNotification.workflowButtons!.find((b) => b.path === 'retry')!;

/**
 * The job queue (jobs/, app.jobs). A process built without it (an API test of this workflow alone) runs the
 * messaging jobs in-process right away, so a route never fails for want of a queue.
 */
export function queueOf(app: FastifyInstance, db: Db, cfg: Config): JobQueue {
  if (app.hasDecorator('jobs') && app.jobs) return app.jobs;
  const inline: JobQueue = {
    async send(name, data) {
      const def = messagingJobs.find((j) => j.name === name);
      if (!def) throw new Error(`no job ${name}`);
      const jobId = `inline-${Date.now()}`;
      setImmediate(() => {
        def.run(data, { db, cfg, log: app.log, events: app.realtimeEvents, queue: inline, jobId }).catch((err: unknown) => app.log.warn({ err, job: name }, 'inline job failed'));
      });
      return jobId;
    },
    async schedule() {},
    async unschedule() {},
  };
  return inline;
}

const idParam = (raw: string, label: string): number => {
  if (!/^\d{1,9}$/.test(raw) || Number(raw) <= 0) throw badRequest(`The ${label} code must be a number.`);
  return Number(raw);
};

const circularMailSchema = z.object({
  recipients: z.enum(['Staff', 'Parents', 'Staff and parents'], { error: "'Send To' must be Staff, Parents or Staff and parents." }),
});

/** Staff of the institute (home or active mapping) with an e-mail on their record. */
async function staffAddresses(db: Db, ctx: RequestContext): Promise<string[]> {
  const r = await rows<{ a: string }>(
    db,
    sql`SELECT DISTINCT lower(trim(e.usr_eml)) AS a FROM employee e
        WHERE coalesce(trim(e.usr_eml), '') <> ''
          AND (e.inst_cd = ${ctx.instCd}
               OR EXISTS (SELECT 1 FROM user_institute m WHERE m.usr_cd = e.usr_cd AND m.inst_cd = ${ctx.instCd} AND m.usr_inst_sts))
        ORDER BY 1`,
  );
  return r.map((x) => x.a);
}

/** Families of this year's students (their record's e-mail); under 'his students only', his sections only. */
async function parentAddresses(db: Db, ctx: RequestContext): Promise<string[]> {
  const mine = ctx.dataChk
    ? sql`AND EXISTS (SELECT 1 FROM subject_detail d WHERE d.sec_cd = s.sec_cd AND d.usr_cd = ${ctx.user.usr_cd}
                      AND d.inst_cd = ${ctx.instCd} AND d.acdm_cd = ${ctx.acdmCd ?? -1})`
    : sql``;
  const r = await rows<{ a: string }>(
    db,
    sql`SELECT DISTINCT lower(trim(s.stud_eml)) AS a FROM student s
        WHERE s.inst_cd = ${ctx.instCd} AND s.acdm_cd = ${ctx.acdmCd ?? -1} AND coalesce(trim(s.stud_eml), '') <> '' ${mine}
        ORDER BY 1`,
  );
  return r.map((x) => x.a);
}

const sendSchema = z.object({
  audience: z.enum(['Class', 'Section', 'Student'], { error: "'Send To' must be Class, Section or Student." }),
  cls_cd: z.coerce.number({ error: "'Class' is required." }).int().positive("'Class' is required."),
  sec_cd: z.coerce.number().int().positive().nullish(),
  stud_cd: z.coerce.number().int().positive().nullish(),
});

/** Direct messages, circulars by e-mail, and mobile notifications to parents. */
export function registerMessagingRoutes(app: FastifyInstance, db: Db, cfg: Config): void {
  registerMessageRoutes(app, db);
  registerFeeSync(app);

  app.get('/api/message/mail-status', { config: { access: { kind: 'signed-in' } }, schema: { tags: ['Messages'], summary: 'Whether e-mail can be sent (and why not)' } }, async () =>
    mailEnabled(cfg) ? { enabled: true } : { enabled: false, message: MAIL_DISABLED },
  );

  app.post(
    apiUrl(circular, `:crlr_cd/${mailButton.path}`),
    { config: { access: { kind: 'page', pages: [{ module: 'institute', page: 'circular' }], button: mailButton.button } }, schema: { tags: [circular.label], summary: 'E-mail a circular to staff and/or parents' } },
    async (req, reply) => {
      const ctx = mustCtx(req);
      const id = idParam((req.params as { crlr_cd: string }).crlr_cd, 'circular');
      const parsed = circularMailSchema.safeParse(req.body ?? {});
      if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'Choose who receives the circular.');
      if (!mailEnabled(cfg)) throw conflict(MAIL_DISABLED);
      const [c] = await rows<{ crlr_sub: string; crlr_dscr: string | null; crlr_dt: string }>(
        db,
        sql`SELECT crlr_sub, crlr_dscr, crlr_dt::text AS crlr_dt FROM circular
            WHERE crlr_cd = ${id} AND inst_cd = ${ctx.instCd} AND acdm_cd = ${ctx.acdmCd ?? -1}`,
      );
      if (!c) throw notFound('This circular is not there any more.');
      const who = parsed.data.recipients;
      const to = [
        ...(who !== 'Parents' ? await staffAddresses(db, ctx) : []),
        ...(who !== 'Staff' ? await parentAddresses(db, ctx) : []),
      ];
      const unique = [...new Set(to)];
      if (unique.length === 0) throw badRequest('Nobody chosen has an e-mail address on record: nothing was sent.');
      const data: MailSendData = {
        to: unique,
        subject: c.crlr_sub,
        text: `${c.crlr_sub}\n${c.crlr_dt}\n\n${c.crlr_dscr ?? ''}`.trim() + '\n',
        requestedBy: ctx.user.usr_cd,
        what: `Circular '${c.crlr_sub}'`,
      };
      await queueOf(app, db, cfg).send('mail-send', data);
      reply.code(202);
      return { queued: unique.length };
    },
  );

  const mobAccess = (button: string) => ({ access: { kind: 'page' as const, pages: [{ module: 'features' as const, page: 'mob_notification' }], button } });
  const queueSend = (id: number, usrCd: number) =>
    queueOf(app, db, cfg).send('mob-notification-send', { mob_ntf_dtl_cd: id, requestedBy: usrCd } satisfies MobNotificationJobData);

  app.post(
    apiUrl(mobNotification, `:mob_ntf_dtl_cd/${sendButton.path}`),
    { config: mobAccess(sendButton.button), schema: { tags: [mobNotification.label], summary: 'Send to the parents of a class, a section or one student (queued)' } },
    async (req, reply) => {
      const ctx = mustCtx(req);
      const id = idParam((req.params as { mob_ntf_dtl_cd: string }).mob_ntf_dtl_cd, 'mobile notification');
      const parsed = sendSchema.safeParse(req.body ?? {});
      if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'Choose who receives the message.');
      const r = await planSend(db, cfg, ctx, id, parsed.data);
      await queueSend(id, ctx.user.usr_cd);
      reply.code(202);
      return r;
    },
  );

  app.post(
    apiUrl(mobNotification, `:mob_ntf_dtl_cd/${retryButton.path}`),
    { config: mobAccess(retryButton.button), schema: { tags: [mobNotification.label], summary: 'Try the failed deliveries again (queued)' } },
    async (req, reply) => {
      const ctx = mustCtx(req);
      const id = idParam((req.params as { mob_ntf_dtl_cd: string }).mob_ntf_dtl_cd, 'mobile notification');
      const r = await planRetry(db, cfg, ctx, id);
      await queueSend(id, ctx.user.usr_cd);
      reply.code(202);
      return r;
    },
  );

  app.get(
    apiUrl(mobNotification, ':mob_ntf_dtl_cd/deliveries'),
    { config: mobAccess('view'), schema: { tags: [mobNotification.label], summary: 'Each family of a mobile notification: address, status, reason, attempts' } },
    async (req) => {
      const ctx = mustCtx(req);
      const id = idParam((req.params as { mob_ntf_dtl_cd: string }).mob_ntf_dtl_cd, 'mobile notification');
      return rows<Record<string, unknown>>(
        db,
        sql`SELECT d.mnd_cd, d.stud_cd, s.stud_fs_nm, d.mnd_channel, d.mnd_address, d.mnd_sts, d.mnd_reason, d.mnd_attempts, d.mnd_last_tried
            FROM mob_notification_delivery d JOIN student s ON s.stud_cd = d.stud_cd
            WHERE d.mob_ntf_dtl_cd = ${id} AND d.inst_cd = ${ctx.instCd}
            ORDER BY d.mnd_sts, s.stud_fs_nm`,
      );
    },
  );
}
