import type { Config } from '../../config';
import type { RequestContext } from '../../access/request-context';
import { rows, sql, type Db, type DbOrTx } from '../../db/client';
import { badRequest, conflict, notFound } from '../../lib/http-error';
import { MAIL_DISABLED, mailEnabled, sendMail } from './mail.service';

/** How a message reaches a family. E-mail is the first; an SMS or app-push channel plugs in beside it. */
export interface DeliveryChannel {
  name: string;
  /** The family's address on this channel, from the student's record (null: none on record). */
  addressOf(student: { stud_eml: string | null }): string | null;
  /** The reason recorded when a student has no address on this channel. */
  noAddress: string;
  deliver(cfg: Config, address: string, subject: string, text: string): Promise<{ ok: true } | { ok: false; reason: string }>;
}

export const emailChannel: DeliveryChannel = {
  name: 'email',
  addressOf: (s) => (s.stud_eml && s.stud_eml.trim() !== '' ? s.stud_eml.trim() : null),
  noAddress: 'no e-mail address',
  async deliver(cfg, address, subject, text) {
    if (!mailEnabled(cfg)) return { ok: false, reason: MAIL_DISABLED };
    const r = await sendMail(cfg, { to: [address], subject, text });
    return r.sent.length > 0 ? { ok: true } : { ok: false, reason: r.failed[0]?.reason ?? 'refused' };
  },
};

export const deliveryChannels: readonly DeliveryChannel[] = [emailChannel];

export interface SendTarget {
  audience: 'Class' | 'Section' | 'Student';
  cls_cd: number;
  sec_cd?: number | null;
  stud_cd?: number | null;
}

interface NotificationRow {
  mob_ntf_dtl_cd: number;
  mob_ntf_dtl_sub: string;
  mob_ntf_dtl_msg: string;
  mob_ntf_dtl_sts: string;
  inst_cd: number;
}

async function notificationOf(db: Db, instCd: number, id: number): Promise<NotificationRow> {
  const [n] = await rows<NotificationRow>(
    db,
    sql`SELECT mob_ntf_dtl_cd, mob_ntf_dtl_sub, mob_ntf_dtl_msg, mob_ntf_dtl_sts, inst_cd FROM mob_notification
        WHERE mob_ntf_dtl_cd = ${id} AND inst_cd = ${instCd}`,
  );
  if (!n) throw notFound('This mobile notification is not there any more.');
  return n;
}

/**
 * The families a send reaches: this year's students of the class, the section or the one student, in the
 * request's institute; under 'his students only', only the user's own sections.
 */
async function recipients(db: Db, ctx: RequestContext, t: SendTarget): Promise<{ stud_cd: number; stud_eml: string | null }[]> {
  if (ctx.acdmCd === null) throw badRequest('Choose an academic year first.');
  const mine = ctx.dataChk
    ? sql`AND EXISTS (SELECT 1 FROM subject_detail d WHERE d.sec_cd = s.sec_cd AND d.usr_cd = ${ctx.user.usr_cd}
                      AND d.inst_cd = ${ctx.instCd} AND d.acdm_cd = ${ctx.acdmCd})`
    : sql``;
  let which;
  if (t.audience === 'Class') which = sql`s.cls_cd = ${t.cls_cd}`;
  else if (t.audience === 'Section') {
    if (!t.sec_cd) throw badRequest("Choose the section: 'Section' is required for a section.");
    which = sql`s.cls_cd = ${t.cls_cd} AND s.sec_cd = ${t.sec_cd}`;
  } else {
    if (!t.stud_cd) throw badRequest("Choose the student: 'Student' is required for one student.");
    which = sql`s.stud_cd = ${t.stud_cd}`;
  }
  return rows(
    db,
    sql`SELECT s.stud_cd, s.stud_eml FROM student s
        WHERE s.inst_cd = ${ctx.instCd} AND s.acdm_cd = ${ctx.acdmCd} AND ${which} ${mine}
        ORDER BY s.stud_cd`,
  );
}

/** Count and status from the deliveries (the grid's columns), written back on the notification. */
export async function recomputeNotification(db: DbOrTx, id: number): Promise<{ total: number; sent: number; failed: number; queued: number; status: string }> {
  const [c] = await rows<{ total: number; sent: number; failed: number; queued: number }>(
    db,
    sql`SELECT count(*)::int AS total,
               count(*) FILTER (WHERE mnd_sts = 'Sent')::int AS sent,
               count(*) FILTER (WHERE mnd_sts = 'Failed')::int AS failed,
               count(*) FILTER (WHERE mnd_sts IN ('Queued', 'Sending'))::int AS queued
        FROM mob_notification_delivery WHERE mob_ntf_dtl_cd = ${id}`,
  );
  const status = c.queued > 0 ? 'Sending' : c.failed === 0 ? 'Sent' : c.sent === 0 ? 'Failed' : 'Partly sent';
  if (c.total > 0) {
    const reasons = await rows<{ mnd_reason: string; n: number }>(
      db,
      sql`SELECT coalesce(mnd_reason, 'failed') AS mnd_reason, count(*)::int AS n FROM mob_notification_delivery
          WHERE mob_ntf_dtl_cd = ${id} AND mnd_sts = 'Failed' GROUP BY 1 ORDER BY 2 DESC, 1`,
    );
    const parts = [`${c.sent} sent`, ...(c.failed ? [`${c.failed} failed`] : []), ...(c.queued ? [`${c.queued} waiting`] : [])];
    const why = reasons.length ? ` (${reasons.map((r) => `${r.mnd_reason}: ${r.n}`).join('; ')})` : '';
    const summary = `${c.total} ${c.total === 1 ? 'family' : 'families'}: ${parts.join(', ')}${why}`.slice(0, 400);
    await db.execute(sql`UPDATE mob_notification SET mob_ntf_dtl_cnt = ${c.total}, mob_ntf_dtl_sts = ${status}, mob_ntf_dtl_dlv = ${summary},
                                row_ver = row_ver + 1
                         WHERE mob_ntf_dtl_cd = ${id}`);
  }
  return { ...c, status };
}

/** 'Send to Parents': one delivery per family on each channel, queued; the job does the sending. */
export async function planSend(db: Db, cfg: Config, ctx: RequestContext, id: number, target: SendTarget): Promise<{ recipients: number }> {
  if (!mailEnabled(cfg)) throw conflict(MAIL_DISABLED);
  const n = await notificationOf(db, ctx.instCd, id);
  if (n.mob_ntf_dtl_sts !== 'Draft' && n.mob_ntf_dtl_sts !== 'Ready') {
    throw conflict(`'${n.mob_ntf_dtl_sub}' is ${n.mob_ntf_dtl_sts.toLowerCase()}: only a draft or ready message can be sent.`);
  }
  const list = await recipients(db, ctx, target);
  if (list.length === 0) throw badRequest('No student of this year matches the choice: nobody would receive the message.');
  await db.transaction(async (tx) => {
    for (const ch of deliveryChannels) {
      for (const s of list) {
        await tx.execute(sql`INSERT INTO mob_notification_delivery (mob_ntf_dtl_cd, inst_cd, stud_cd, mnd_channel, mnd_address, mnd_sts)
                             VALUES (${id}, ${ctx.instCd}, ${s.stud_cd}, ${ch.name}, ${ch.addressOf(s)}, 'Queued')
                             ON CONFLICT (mob_ntf_dtl_cd, stud_cd, mnd_channel) DO NOTHING`);
      }
    }
    await recomputeNotification(tx, id);
  });
  return { recipients: list.length };
}

/** 'Retry Failed': the failed deliveries are queued again (their attempts kept). */
export async function planRetry(db: Db, cfg: Config, ctx: RequestContext, id: number): Promise<{ recipients: number }> {
  if (!mailEnabled(cfg)) throw conflict(MAIL_DISABLED);
  const n = await notificationOf(db, ctx.instCd, id);
  // The address is read again from the student's record: the office fixes a missing or wrong e-mail, then retries.
  const failed = await rows<{ mnd_cd: number; mnd_channel: string; stud_eml: string | null }>(
    db,
    sql`SELECT d.mnd_cd, d.mnd_channel, s.stud_eml FROM mob_notification_delivery d JOIN student s ON s.stud_cd = d.stud_cd
        WHERE d.mob_ntf_dtl_cd = ${id} AND d.inst_cd = ${ctx.instCd} AND d.mnd_sts = 'Failed' ORDER BY d.mnd_cd`,
  );
  if (failed.length === 0) throw conflict(`'${n.mob_ntf_dtl_sub}' has no failed delivery to try again.`);
  await db.transaction(async (tx) => {
    for (const f of failed) {
      const ch = deliveryChannels.find((c) => c.name === f.mnd_channel);
      const address = ch ? ch.addressOf(f) : null;
      await tx.execute(sql`UPDATE mob_notification_delivery SET mnd_sts = 'Queued', mnd_reason = NULL, mnd_address = ${address}
                           WHERE mnd_cd = ${f.mnd_cd} AND mnd_sts = 'Failed'`);
    }
  });
  const again = failed;
  await recomputeNotification(db, id);
  return { recipients: again.length };
}

export interface MobNotificationJobData {
  mob_ntf_dtl_cd: number;
  requestedBy?: number;
}

/** The job's work: every queued delivery tried once; the notification's count and status recomputed. */
export async function deliverQueued(db: Db, cfg: Config, data: MobNotificationJobData): Promise<{ sent: number; failed: number; subject: string; total: number; tried: number }> {
  const [n] = await rows<NotificationRow>(
    db,
    sql`SELECT mob_ntf_dtl_cd, mob_ntf_dtl_sub, mob_ntf_dtl_msg, mob_ntf_dtl_sts, inst_cd FROM mob_notification WHERE mob_ntf_dtl_cd = ${data.mob_ntf_dtl_cd}`,
  );
  if (!n) return { sent: 0, failed: 0, subject: '', total: 0, tried: 0 };
  // Queued ones, and any a crashed run left 'Sending' for over ten minutes.
  const queued = await rows<{ mnd_cd: number; mnd_channel: string; mnd_address: string | null }>(
    db,
    sql`SELECT mnd_cd, mnd_channel, mnd_address FROM mob_notification_delivery
        WHERE mob_ntf_dtl_cd = ${n.mob_ntf_dtl_cd}
          AND (mnd_sts = 'Queued' OR (mnd_sts = 'Sending' AND mnd_last_tried < now() - interval '10 minutes'))
        ORDER BY mnd_cd`,
  );
  let tried = 0;
  for (const d of queued) {
    // Claimed one at a time: a second run of the same notification (a retry pressed while this one works)
    // skips what this one has taken, so no family gets the message twice.
    const [claimed] = await rows<{ mnd_cd: number }>(
      db,
      sql`UPDATE mob_notification_delivery SET mnd_sts = 'Sending', mnd_last_tried = now()
          WHERE mnd_cd = ${d.mnd_cd} AND (mnd_sts = 'Queued' OR (mnd_sts = 'Sending' AND mnd_last_tried < now() - interval '10 minutes'))
          RETURNING mnd_cd`,
    );
    if (!claimed) continue;
    tried++;
    const ch = deliveryChannels.find((c) => c.name === d.mnd_channel);
    let result: { ok: true } | { ok: false; reason: string };
    if (!ch) result = { ok: false, reason: `unknown channel ${d.mnd_channel}` };
    else if (!d.mnd_address) result = { ok: false, reason: ch.noAddress };
    else {
      try {
        result = await ch.deliver(cfg, d.mnd_address, n.mob_ntf_dtl_sub, n.mob_ntf_dtl_msg);
      } catch (err) {
        result = { ok: false, reason: err instanceof Error ? err.message.slice(0, 290) : 'could not be sent' };
      }
    }
    await db.execute(sql`UPDATE mob_notification_delivery
                         SET mnd_sts = ${result.ok ? 'Sent' : 'Failed'}, mnd_reason = ${result.ok ? null : result.reason.slice(0, 300)},
                             mnd_attempts = mnd_attempts + 1, mnd_last_tried = now()
                         WHERE mnd_cd = ${d.mnd_cd}`);
  }
  const c = await recomputeNotification(db, n.mob_ntf_dtl_cd);
  return { sent: c.sent, failed: c.failed, subject: n.mob_ntf_dtl_sub, total: c.total, tried };
}
