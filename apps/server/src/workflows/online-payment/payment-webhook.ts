import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { rows, sql, type Db } from '../../db/client';
import { HttpError, badRequest, unauthorized } from '../../lib/http-error';
import { settingValue } from '../setting/institute-setting';
import { webhookSchema } from './online-payment.schema';

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

        const [seen] = await rows<{ oln_pay_cd: number }>(
          db,
          sql`SELECT oln_pay_cd FROM online_payment_request WHERE inst_cd = ${instCd} AND lower(oln_pay_txn_id) = lower(${n.transaction_id}) ORDER BY oln_pay_cd LIMIT 1`,
        );
        if (seen) return { result: 'duplicate', oln_pay_cd: Number(seen.oln_pay_cd) };
        const [year] = await rows<{ acdm_cd: number }>(db, sql`SELECT acdm_cd FROM academic WHERE inst_cd = ${instCd} AND acdm_sts ORDER BY acdm_strt_yr DESC LIMIT 1`);
        if (!year) throw new HttpError(422, 'The institute has no active academic year.');
        const [student] = await rows<{ stud_cd: number }>(
          db,
          sql`SELECT stud_cd FROM student WHERE inst_cd = ${instCd} AND acdm_cd = ${year.acdm_cd} AND lower(stud_adm_cd) = lower(${n.admission_no}) ORDER BY stud_cd LIMIT 1`,
        );
        if (!student) throw new HttpError(422, `No student has the admission number '${n.admission_no}' in the current academic year.`);
        // Two deliveries of one notification at once: the unique transaction id lets one row in.
        const [made] = await rows<{ oln_pay_cd: number }>(
          db,
          sql`INSERT INTO online_payment_request (stud_cd, oln_pay_txn_id, oln_pay_txn_dt, oln_pay_tot_amt, oln_pay_acpt_sts, oln_pay_src, inst_cd, acdm_cd)
              VALUES (${Number(student.stud_cd)}, ${n.transaction_id}, ${n.date}, ${n.amount}, 'Pending', 'Gateway', ${instCd}, ${Number(year.acdm_cd)})
              ON CONFLICT DO NOTHING
              RETURNING oln_pay_cd`,
        );
        if (!made) {
          const [again] = await rows<{ oln_pay_cd: number }>(
            db,
            sql`SELECT oln_pay_cd FROM online_payment_request WHERE inst_cd = ${instCd} AND lower(oln_pay_txn_id) = lower(${n.transaction_id}) LIMIT 1`,
          );
          return { result: 'duplicate', oln_pay_cd: Number(again?.oln_pay_cd) };
        }
        reply.code(201);
        return { result: 'created', oln_pay_cd: Number(made.oln_pay_cd) };
      },
    );
  });
}
