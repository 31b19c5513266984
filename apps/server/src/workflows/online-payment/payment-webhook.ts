import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { rows, sql, type Db, type Tx } from '../../db/client';
import { HttpError, badRequest, unauthorized } from '../../lib/http-error';
import { toPaise } from '../../lib/paise';
import { studentDues } from '../collect-fee/fee-dues';
import { settingValue } from '../setting/institute-setting';
import { webhookSchema } from './online-payment.schema';
import { lockTransactionId, sameTransaction } from './payment-transaction';

export const SIGNATURE_HEADER = 'x-campus-signature';
const BAD_SIGNATURE = "The notification's signature is not valid.";
const NOT_SET_UP = 'Online payment notifications are not set up for this institute.';

/** 'sha256=<hex>' of the body's exact bytes with the institute's secret, compared in constant time. */
export function signatureOk(raw: Buffer, secret: string, header: string | undefined): boolean {
  const m = /^sha256=([0-9a-f]{64})$/i.exec((header ?? '').trim());
  if (!m) return false;
  const want = createHmac('sha256', secret).update(raw).digest();
  const got = Buffer.from(m[1], 'hex');
  return got.length === want.length && timingSafeEqual(got, want);
}

export function signatureOf(raw: Buffer | string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;
}

/**
 * The child's row the payment is recorded on, among every active year (two are active while the new year
 * starts and last year's arrears are still collected): the oldest year whose dues cover the payment (arrears
 * are paid first, as the counter pays the oldest dues first); else the newest year with any dues; else the
 * newest year the child is in (accepting it will then say by how much it is more than the dues).
 */
async function studentForPayment(tx: Tx, instCd: number, admNo: string, paise: number): Promise<{ stud_cd: number; acdm_cd: number } | undefined> {
  const found = await rows<{ stud_cd: number; acdm_cd: number }>(
    tx,
    sql`SELECT DISTINCT ON (a.acdm_strt_yr, a.acdm_cd) s.stud_cd, s.acdm_cd FROM student s JOIN academic a ON a.acdm_cd = s.acdm_cd
        WHERE s.inst_cd = ${instCd} AND a.acdm_sts AND lower(s.stud_adm_cd) = lower(${admNo})
        ORDER BY a.acdm_strt_yr, a.acdm_cd, s.stud_cd`,
  );
  let newestWithDues: { stud_cd: number; acdm_cd: number } | undefined;
  for (const f of found) {
    const dues = await studentDues(tx, instCd, Number(f.acdm_cd), Number(f.stud_cd));
    const due = dues.lines.reduce((sum, l) => sum + toPaise(l.due), 0);
    if (due >= paise) return { stud_cd: Number(f.stud_cd), acdm_cd: Number(f.acdm_cd) };
    if (due > 0) newestWithDues = { stud_cd: Number(f.stud_cd), acdm_cd: Number(f.acdm_cd) };
  }
  const newest = newestWithDues ?? found.at(-1);
  return newest && { stud_cd: Number(newest.stud_cd), acdm_cd: Number(newest.acdm_cd) };
}

/**
 * POST /api/online_payment/webhook: a payment gateway's notification of a payment, without a session or an
 * XSRF token (access 'public'); the signature is its credential. Its own plugin keeps the body as bytes, since
 * the signature covers them exactly as sent (a re-serialised JSON would not match).
 */
export function registerWebhookRoute(app: FastifyInstance, db: Db): void {
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 64 * 1024 }, (_req, body, done) => done(null, body));
    scope.post(
      '/api/online_payment/webhook',
      {
        config: { access: { kind: 'public' } },
        schema: { tags: ['Online Payment'], summary: "A payment gateway's signed notification: a Pending online payment request" },
      },
      async (req, reply) => {
        const raw = req.body;
        if (!Buffer.isBuffer(raw)) throw badRequest('The notification must be JSON.');
        let json: unknown;
        try {
          json = JSON.parse(raw.toString('utf8'));
        } catch {
          throw badRequest('The notification is not valid JSON.');
        }
        // The institute names whose secret signs the body; nothing else is read before the signature holds.
        const instCd = Number((json as { institute?: unknown } | null)?.institute);
        if (!Number.isInteger(instCd) || instCd <= 0 || instCd > 2147483647) throw unauthorized(BAD_SIGNATURE);
        const [inst] = await rows<{ inst_cd: number }>(db, sql`SELECT inst_cd FROM institute WHERE inst_cd = ${instCd}`);
        if (!inst) throw unauthorized(BAD_SIGNATURE);
        const secret = (await settingValue(db, instCd, 'PAY_WEBHOOK_SECRET')).trim();
        if (!secret) throw unauthorized(NOT_SET_UP);
        const header = req.headers[SIGNATURE_HEADER];
        if (!signatureOk(raw, secret, Array.isArray(header) ? header[0] : header)) throw unauthorized(BAD_SIGNATURE);

        const parsed = webhookSchema.safeParse(json);
        if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'The notification is not valid.');
        const n = parsed.data;
        // Only a completed payment is money in the bank; failures and pending notices are acknowledged and dropped.
        if (n.status.toLowerCase() !== 'success') return { result: 'ignored', message: `A payment with status '${n.status}' is not recorded.` };

        const made = await db.transaction(async (tx) => {
          // Every writer of a transaction id takes its lock: two deliveries at once, or a clerk typing the
          // same id in any year, find each other here.
          await lockTransactionId(tx, instCd, n.transaction_id);
          const [seen] = await sameTransaction(tx, instCd, n.transaction_id, null);
          if (seen) return { duplicate: Number(seen.oln_pay_cd) };
          const student = await studentForPayment(tx, instCd, n.admission_no, toPaise(n.amount));
          if (!student) throw new HttpError(422, `No student has the admission number '${n.admission_no}' in an active academic year.`);
          const [row] = await rows<{ oln_pay_cd: number }>(
            tx,
            sql`INSERT INTO online_payment_request (stud_cd, oln_pay_txn_id, oln_pay_txn_dt, oln_pay_tot_amt, oln_pay_acpt_sts, oln_pay_src, inst_cd, acdm_cd)
                VALUES (${student.stud_cd}, ${n.transaction_id}, ${n.date}, ${n.amount}, 'Pending', 'Gateway', ${instCd}, ${student.acdm_cd})
                RETURNING oln_pay_cd`,
          );
          return { created: Number(row.oln_pay_cd) };
        });
        if ('duplicate' in made) return { result: 'duplicate', oln_pay_cd: made.duplicate };
        reply.code(201);
        return { result: 'created', oln_pay_cd: made.created };
      },
    );
  });
}
