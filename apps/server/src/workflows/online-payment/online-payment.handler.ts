import { apiUrl } from '@campus/entities/define';
import { entity } from '@campus/entities/registry';
import type { FastifyInstance } from 'fastify';
import { mustCtx, type RequestContext } from '../../access/request-context';
import { rows, sql, type Db, type Tx } from '../../db/client';
import { writeAudit } from '../../engine/audit';
import { getRow } from '../../engine/crud.service';
import { registerHooks, type Row } from '../../engine/entity-hooks';
import { badRequest, conflict } from '../../lib/http-error';
import { fromPaise, toPaise } from '../../lib/paise';
import { billReceipt, collectFeeInTx, studentFor, type Receipt } from '../collect-fee/collect-fee.handler';
import { studentDues } from '../collect-fee/fee-dues';
import { oldestDueFirst, sumOf, type AllocatedLines } from './allocate-payment';
import { parseTakeAction, takeActionButton, type TakeActionInput } from './online-payment.schema';
import { lockTransactionId, ONLINE_TENDER, refuseTakenTransactionId, sameTransaction } from './payment-transaction';
import { registerWebhookRoute } from './payment-webhook';

const requestEntity = entity('online_payment_request');
const requestPages = [{ module: 'fee', page: 'request' }] as const;

const ONLINE_REFERENCE = 'Transaction Id';

export const ALREADY_ACCEPTED = 'This payment is already accepted.';
const ALREADY_REJECTED = 'This payment is already rejected.';
const REASON_NEEDED = 'Please give the reason for rejecting.';

/** What the gateway signed: on a 'Gateway' request the office may not change them, only accept or reject. */
const GATEWAY_FIELDS = ['stud_cd', 'oln_pay_txn_id', 'oln_pay_txn_dt', 'oln_pay_tot_amt'] as const;

export interface ActionResult {
  request: Row;
  /** The bill an acceptance wrote (null after a rejection). */
  receipt: Receipt | null;
  repeated: boolean;
}

/**
 * The institute's 'Online' tender. Made (asking for the transaction id) only when the school never set one
 * up; one that exists is the office's setting and is never changed here: turned off, or not asking for a
 * reference (the bill would lose the transaction id), it refuses the acceptance with what to fix.
 */
async function onlineTender(tx: Tx, ctx: RequestContext): Promise<number> {
  await tx.execute(
    sql`INSERT INTO tender_type (tnd_typ_nm, tnd_typ_odr, tnd_typ_fld_val, tnd_typ_dscr, tnd_typ_sts, inst_cd, crt_by)
        SELECT ${ONLINE_TENDER}, 90, ${ONLINE_REFERENCE}, 'Payments through the payment gateway, accepted on Online Pay Request', true, ${ctx.instCd}, ${ctx.user.usr_cd}
        WHERE NOT EXISTS (SELECT 1 FROM tender_type WHERE inst_cd = ${ctx.instCd} AND lower(tnd_typ_nm) = lower(${ONLINE_TENDER}))
        ON CONFLICT DO NOTHING`,
  );
  const [t] = await rows<{ tnd_typ_cd: number; nm: string; fld: string | null; active: boolean }>(
    tx,
    sql`SELECT tnd_typ_cd, tnd_typ_nm AS nm, tnd_typ_fld_val AS fld, tnd_typ_sts AS active FROM tender_type WHERE inst_cd = ${ctx.instCd} AND lower(tnd_typ_nm) = lower(${ONLINE_TENDER})`,
  );
  if (!t.active) throw conflict(`The tender type '${t.nm}' is turned off. Turn it on in Tender Type to accept online payments.`);
  if (!(t.fld ?? '').trim()) {
    throw conflict(`The tender type '${t.nm}' asks for no reference, so the bill would not show the transaction id. Fill its 'Reference Field' (for example '${ONLINE_REFERENCE}') in Tender Type.`);
  }
  return Number(t.tnd_typ_cd);
}

/** The lines the payment pays: those the clerk chose (adding up to the payment), or the oldest dues first. */
async function linesToPay(tx: Tx, ctx: RequestContext, req: Row, input: TakeActionInput): Promise<AllocatedLines> {
  const paise = toPaise(String(req.oln_pay_tot_amt));
  const chosen: AllocatedLines = { lines: input.lines ?? [], late_fees: input.late_fees ?? [] };
  if (chosen.lines.length + chosen.late_fees.length > 0) {
    const sum = sumOf(chosen);
    if (sum !== paise) throw badRequest(`The chosen lines add up to ${fromPaise(sum)}; the payment is ${fromPaise(paise)}.`);
    return chosen;
  }
  const dues = await studentDues(tx, ctx.instCd, Number(ctx.acdmCd), Number(req.stud_cd));
  return oldestDueFirst(dues.lines, paise);
}

/**
 * Accept or reject one Pending request, in one transaction. The request row is locked first, so of two
 * clerks (or one double click) the second waits and then finds it no longer Pending. Accepting bills it
 * through the counter's own ledger (collectFeeInTx: the student's lock, dues, gapless number) with the
 * dialog's key as the bill's key: the same key again answers with that bill, another key is refused.
 */
export async function takeAction(db: Db, ctx: RequestContext, olnPayCd: number, input: TakeActionInput): Promise<ActionResult> {
  if (ctx.acdmCd === null) throw badRequest('Choose an academic year first.');
  return db.transaction(async (tx) => {
    const req = await getRow(tx, requestEntity, ctx, olnPayCd, true);
    const status = String(req.oln_pay_acpt_sts);
    if (status === 'Accepted' && input.oln_pay_acpt_sts === 'Accepted' && req.fee_coll_cd !== null) {
      const [bill] = await rows<{ key: string | null }>(tx, sql`SELECT fee_coll_idem_key AS key FROM fee_collection_bill WHERE fee_coll_cd = ${Number(req.fee_coll_cd)}`);
      if (bill?.key && bill.key.toLowerCase() === input.idempotency_key.toLowerCase()) {
        return { request: req, receipt: await billReceipt(tx, { ...ctx, dataChk: false }, Number(req.fee_coll_cd)), repeated: true };
      }
    }
    if (status !== 'Pending') throw conflict(status === 'Accepted' ? ALREADY_ACCEPTED : status === 'Rejected' ? ALREADY_REJECTED : 'Only a pending payment can be accepted or rejected.');

    if (input.oln_pay_acpt_sts === 'Rejected') {
      const reason = input.reason ?? '';
      if (!reason) throw badRequest(REASON_NEEDED, [{ field: 'reason', message: REASON_NEEDED }]);
      await tx.execute(
        sql`UPDATE online_payment_request SET oln_pay_acpt_sts = 'Rejected', oln_pay_rjct_rsn = ${reason}, oln_pay_actn_by = ${ctx.user.usr_full_nm},
              row_ver = row_ver + 1, updt_by = ${ctx.user.usr_cd}, updt_dt = now()
            WHERE oln_pay_cd = ${olnPayCd}`,
      );
      const after = await getRow(tx, requestEntity, { ...ctx, dataChk: false }, olnPayCd);
      await writeAudit(tx, ctx, requestEntity, 'REJECT', olnPayCd, req, after);
      return { request: after, receipt: null, repeated: false };
    }

    // One bank payment is billed once: another request of the institute (any year) accepted with this
    // transaction id refuses this one. The lock keeps two such requests from being accepted at once.
    const txn = String(req.oln_pay_txn_id);
    await lockTransactionId(tx, ctx.instCd, txn);
    const billed = (await sameTransaction(tx, ctx.instCd, txn, olnPayCd)).find((r) => r.sts === 'Accepted');
    if (billed) throw conflict(`The transaction ${txn} is already billed (bill ${String(billed.bill_no)}); this payment cannot be accepted again.`);
    const tender = await onlineTender(tx, ctx);
    // The student's row before the dues are read, as the counter does: nobody bills this child meanwhile.
    await studentFor(tx, ctx, Number(req.stud_cd), true);
    const lines = await linesToPay(tx, ctx, req, input);
    const { receipt, repeated } = await collectFeeInTx(tx, ctx, {
      stud_cd: Number(req.stud_cd),
      tnd_typ_cd: tender,
      reference: String(req.oln_pay_txn_id),
      lines: lines.lines,
      late_fees: lines.late_fees,
      idempotency_key: input.idempotency_key,
    });
    // The key answered an earlier bill of the counter: this dialog's key is stale, nothing is accepted.
    if (repeated) throw conflict('This request key was already used. Reload the page and try again.');
    await tx.execute(
      sql`UPDATE online_payment_request SET oln_pay_acpt_sts = 'Accepted', oln_pay_bill_no = ${String(receipt.bill.fee_coll_bill_no)},
            fee_coll_cd = ${Number(receipt.bill.fee_coll_cd)}, oln_pay_rjct_rsn = NULL, oln_pay_actn_by = ${ctx.user.usr_full_nm},
            row_ver = row_ver + 1, updt_by = ${ctx.user.usr_cd}, updt_dt = now()
          WHERE oln_pay_cd = ${olnPayCd}`,
    );
    const after = await getRow(tx, requestEntity, { ...ctx, dataChk: false }, olnPayCd);
    await writeAudit(tx, ctx, requestEntity, 'ACCEPT', olnPayCd, req, after);
    return { request: after, receipt, repeated: false };
  });
}

let hooksRegistered = false;

/**
 * A request the office has acted on is history: its typed fields are no longer edited, nor is it deleted.
 * A gateway's request is the gateway's word: its student, transaction and amount are never edited. A
 * transaction id is one payment in the whole institute, whichever year it was typed in.
 */
function registerOnlinePaymentHooks(): void {
  if (hooksRegistered) return;
  hooksRegistered = true;
  registerHooks('online_payment_request', {
    async beforeCreate(tx, ctx, values) {
      await refuseTakenTransactionId(tx, ctx, String(values.oln_pay_txn_id), null);
    },
    async beforeUpdate(tx, ctx, before, changes) {
      if (before.oln_pay_acpt_sts !== 'Pending') throw conflict(`Payment ${String(before.oln_pay_txn_id)} is ${String(before.oln_pay_acpt_sts).toLowerCase()}; only a pending payment can be changed.`);
      if (before.oln_pay_src === 'Gateway' && GATEWAY_FIELDS.some((f) => f in changes)) {
        throw conflict(`Payment ${String(before.oln_pay_txn_id)} came from the payment gateway; its student, transaction id, date and amount cannot be changed. Accept or reject it.`);
      }
      if ('oln_pay_txn_id' in changes) await refuseTakenTransactionId(tx, ctx, String(changes.oln_pay_txn_id), Number(before.oln_pay_cd));
    },
    async beforeDelete(_tx, _ctx, list) {
      const done = list.find((r) => r.oln_pay_acpt_sts !== 'Pending');
      if (done) throw conflict(`Payment ${String(done.oln_pay_txn_id)} is ${String(done.oln_pay_acpt_sts).toLowerCase()}; only a pending payment can be deleted.`);
    },
  });
}

export function registerOnlinePaymentRoutes(app: FastifyInstance, db: Db): void {
  registerOnlinePaymentHooks();
  const tags = ['Online Payment'];
  app.post(
    apiUrl(requestEntity, `:oln_pay_cd/${takeActionButton.path}`),
    {
      config: { access: { kind: 'page', pages: requestPages, button: takeActionButton.button } },
      schema: { tags, summary: 'Accept (bill it through the fee ledger) or reject a pending online payment' },
    },
    async (req) => {
      const id = Number((req.params as { oln_pay_cd: string }).oln_pay_cd);
      if (!Number.isInteger(id) || id <= 0) throw badRequest('The payment code must be a number.');
      return takeAction(db, mustCtx(req), id, parseTakeAction(req.body));
    },
  );
  registerWebhookRoute(app, db);
}
