import { isLastAttempt, type JobDefinition } from '../../jobs/job-definition';
import { MAIL_DISABLED, mailEnabled, sendMail, type MailSendData } from './mail.service';
import { deliverQueued, type MobNotificationJobData } from './mob-notification.service';

const MAIL_RETRIES = 3;

/**
 * 'mail-send': one e-mail to a list of addresses (resolved from records by whoever queued it). An unreachable
 * SMTP server fails the run (the queue retries with backoff); the asker hears the result on the last outcome.
 */
export const mailSendJob: JobDefinition<MailSendData> = {
  name: 'mail-send',
  label: 'Send e-mail',
  retryLimit: MAIL_RETRIES,
  // It needs the addresses and the text: a circular's 'Send by E-mail' queues it.
  runNow: false,
  startedFrom: "Send by E-mail on a circular, or a notification's daily e-mail",
  retryDelaySeconds: 30,
  retryBackoff: true,
  async run(data, ctx) {
    const what = data.what ?? `'${data.subject}'`;
    const tell = (isSuccess: boolean, msg: string) => {
      if (data.requestedBy) ctx.events.toUsers([data.requestedBy], 'mailSent', { isSuccess, msg });
    };
    if (!mailEnabled(ctx.cfg)) {
      // Not worth retrying: nothing changes until the server is configured and restarted.
      tell(false, MAIL_DISABLED);
      return { sent: 0, failed: data.to.length, reason: MAIL_DISABLED };
    }
    try {
      const r = await sendMail(ctx.cfg, data);
      const failed = r.failed.length;
      if (r.sent.length === 0 && failed > 0) tell(false, `${what} could not be e-mailed: ${r.failed[0].reason}.`);
      else tell(failed === 0, failed === 0 ? `${what} was e-mailed to ${r.sent.length}.` : `${what} was e-mailed to ${r.sent.length}; ${failed} could not be reached.`);
      return { sent: r.sent.length, failed: r.failed };
    } catch (err) {
      if (isLastAttempt(ctx)) tell(false, `${what} could not be e-mailed: the mail server could not be reached.`);
      throw err;
    }
  },
};

/** 'mob-notification-send': every queued delivery of one mobile notification, then the sender is told. */
export const mobNotificationSendJob: JobDefinition<MobNotificationJobData> = {
  name: 'mob-notification-send',
  label: 'Send a message to parents',
  // It needs the notification: 'Send to Parents' / 'Retry Failed' on the mobile notification queue it.
  runNow: false,
  startedFrom: 'Send to Parents on a mobile notification',
  retryLimit: 2,
  retryDelaySeconds: 60,
  retryBackoff: true,
  async run(data, ctx) {
    let r: Awaited<ReturnType<typeof deliverQueued>>;
    try {
      r = await deliverQueued(ctx.db, ctx.cfg, data);
    } catch (err) {
      // An unreachable mail server fails single deliveries (they show Failed); a throw here is the run itself
      // breaking (the database): the sender hears it once the queue has no try left.
      if (data.requestedBy && isLastAttempt(ctx)) {
        ctx.events.toUsers([data.requestedBy], 'notificationSent', { isSuccess: false, msg: 'The message to parents could not be sent: see Background jobs for the reason.' });
      }
      throw err;
    }
    // A run that found nothing to send (a duplicate, or one retried after its work was done) stays quiet.
    if (data.requestedBy && r.tried > 0) {
      const isSuccess = r.failed === 0;
      const msg = isSuccess
        ? `'${r.subject}' reached ${r.sent} of ${r.total} families.`
        : `'${r.subject}' reached ${r.sent} of ${r.total} families; ${r.failed} failed (see the deliveries, then Retry Failed).`;
      ctx.events.toUsers([data.requestedBy], 'notificationSent', { isSuccess, msg });
    }
    return r;
  },
};

export const messagingJobs: readonly JobDefinition[] = [mailSendJob as JobDefinition, mobNotificationSendJob as JobDefinition];
