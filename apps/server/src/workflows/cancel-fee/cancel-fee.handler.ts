import { apiUrl } from '@campus/entities/define';
import { entity } from '@campus/entities/registry';
import type { FastifyInstance } from 'fastify';
import { mustCtx, type RequestContext } from '../../access/request-context';
import { rows, sql, type Db, type Tx } from '../../db/client';
import { writeAudit } from '../../engine/audit';
import { getRow } from '../../engine/crud.service';
import { localDateTime } from '../../lib/clock';
import { badRequest, conflict } from '../../lib/http-error';
import { toPaise } from '../../lib/paise';
import { billReceipt, studentFor, type Receipt } from '../collect-fee/collect-fee.handler';
import { studentDues } from '../collect-fee/fee-dues';
import { creditCancelledBill, debitRestoredBill } from '../collect-fee/wallet-tender';
import { lockPaymentOfBill, relinkPaymentOfBill, reopenPaymentOfBill } from '../online-payment/payment-transaction';
import { cancelBillSchema, undoCancelSchema } from './cancel-fee.schema';

const billEntity = entity('collected_fee');
const cancelEntity = entity('cancel_fee');
const collectedPages = [{ module: 'fee', page: 'fee_collected' }] as const;

/**
 * The bill locked for a status change, after its online payment if it has one and its student (the order
 * accepting a payment and collecting use, so a cancel never waits on either crosswise).
 */
async function lockedBill(tx: Tx, ctx: RequestContext, feeCollCd: number) {
  const peek = await getRow(tx, billEntity, ctx, feeCollCd);
  const payment = await lockPaymentOfBill(tx, ctx, feeCollCd);
  await studentFor(tx, { ...ctx, dataChk: false }, Number(peek.stud_cd), true);
  return { bill: await getRow(tx, billEntity, ctx, feeCollCd, true), payment };
}

/** Cancel: the bill and its lines turn Cancelled (their amounts are due again) and a cancel_fee row records why. */
export async function cancelBill(db: Db, ctx: RequestContext, feeCollCd: number, reason: string): Promise<Receipt> {
  return db.transaction(async (tx) => {
    const { bill, payment } = await lockedBill(tx, ctx, feeCollCd);
    if (bill.fee_coll_sts === 'Cancelled') throw conflict(`Bill ${String(bill.fee_coll_bill_no)} is already cancelled.`);
    await tx.execute(sql`UPDATE fee_collection_bill SET fee_coll_sts = 'Cancelled', row_ver = row_ver + 1, updt_by = ${ctx.user.usr_cd}, updt_dt = now() WHERE fee_coll_cd = ${feeCollCd}`);
    await tx.execute(sql`UPDATE fee_collection_line SET fee_coll_dtl_sts = 'Cancelled', row_ver = row_ver + 1, updt_by = ${ctx.user.usr_cd}, updt_dt = now() WHERE fee_coll_cd = ${feeCollCd}`);
    const today = localDateTime().date;
    const [{ id }] = await rows<{ id: number }>(
      tx,
      sql`INSERT INTO cancel_fee (fee_cncl_fee_cd, fee_cncl_stud_cd, fee_cncl_tot_amt, bill_by, fee_cncl_bill_dt, cncl_by, fee_cncl_dt, fee_cncl_rsn, inst_cd, acdm_cd, crt_by)
          VALUES (${feeCollCd}, ${Number(bill.stud_cd)}, ${String(bill.fee_coll_amt)}, ${bill.fee_coll_by as string | null}, ${bill.fee_coll_crt_dt as string | null},
                  ${ctx.user.usr_full_nm}, ${today}, ${reason}, ${ctx.instCd}, ${Number(bill.acdm_cd ?? ctx.acdmCd)}, ${ctx.user.usr_cd})
          RETURNING fee_cncl_cd AS id`,
    );
    // Paid from the wallet: the money goes back into it with the cancellation (student, bill, then wallet locked).
    await creditCancelledBill(tx, ctx, { fee_coll_cd: feeCollCd, bill_no: Number(bill.fee_coll_bill_no) });
    // Accepted online: the payment is back to Pending, to be accepted again (or rejected), never stranded.
    await reopenPaymentOfBill(tx, ctx, payment, feeCollCd);
    const after = await billReceipt(tx, { ...ctx, dataChk: false }, feeCollCd);
    await writeAudit(tx, ctx, billEntity, 'CANCEL', feeCollCd, bill, after.bill);
    await writeAudit(tx, ctx, cancelEntity, 'POST', Number(id), null, { fee_cncl_fee_cd: feeCollCd, fee_cncl_rsn: reason });
    return after;
  });
}

/**
 * Undo: only while every line of the bill is still payable (nobody collected it again meanwhile). The
 * cancel_fee row stays as history, marked undone.
 */
export async function undoCancel(db: Db, ctx: RequestContext, feeCollCd: number): Promise<Receipt> {
  return db.transaction(async (tx) => {
    const { bill, payment } = await lockedBill(tx, ctx, feeCollCd);
    if (bill.fee_coll_sts !== 'Cancelled') throw conflict(`Bill ${String(bill.fee_coll_bill_no)} is not cancelled.`);
    // First, for the clearer refusal: a payment accepted again since would otherwise be billed twice.
    await relinkPaymentOfBill(tx, ctx, payment, bill);
    const dues = await studentDues(tx, ctx.instCd, Number(ctx.acdmCd), Number(bill.stud_cd));
    const lines = await rows<{ fee_cd: number | null; fee_grp_cd: number; kind: string; amt: string }>(
      tx,
      sql`SELECT fee_cd, fee_grp_cd, fee_coll_dtl_kind AS kind, fee_coll_dtl_amt::text AS amt FROM fee_collection_line WHERE fee_coll_cd = ${feeCollCd}`,
    );
    for (const l of lines) {
      const due =
        l.kind === 'Late Fee'
          ? dues.lines.find((d) => d.kind === 'Late Fee' && d.fee_grp_cd === Number(l.fee_grp_cd))
          : dues.lines.find((d) => d.kind === 'Fee' && d.fee_cd === Number(l.fee_cd));
      if (!due || toPaise(due.due) < toPaise(l.amt)) {
        const what = due ? (due.kind === 'Late Fee' ? `Late Fee (${due.fee_grp_nm})` : `${due.feetyp_nm} (${due.fee_grp_nm})`) : 'a fee of this bill';
        throw conflict(`Bill ${String(bill.fee_coll_bill_no)} cannot be restored: '${what}' has been collected again since it was cancelled.`);
      }
    }
    await tx.execute(sql`UPDATE fee_collection_bill SET fee_coll_sts = 'Active', row_ver = row_ver + 1, updt_by = ${ctx.user.usr_cd}, updt_dt = now() WHERE fee_coll_cd = ${feeCollCd}`);
    await tx.execute(sql`UPDATE fee_collection_line SET fee_coll_dtl_sts = 'Active', row_ver = row_ver + 1, updt_by = ${ctx.user.usr_cd}, updt_dt = now() WHERE fee_coll_cd = ${feeCollCd}`);
    await tx.execute(
      sql`UPDATE cancel_fee SET fee_cncl_undo_dt = ${localDateTime().date}, fee_cncl_undo_by = ${ctx.user.usr_full_nm}, row_ver = row_ver + 1, updt_by = ${ctx.user.usr_cd}, updt_dt = now()
          WHERE fee_cncl_cd = (SELECT max(fee_cncl_cd) FROM cancel_fee WHERE fee_cncl_fee_cd = ${feeCollCd} AND fee_cncl_undo_dt IS NULL)`,
    );
    // Paid from the wallet: restoring the bill takes the money again, refused when the balance is short now.
    await debitRestoredBill(tx, ctx, { fee_coll_cd: feeCollCd, bill_no: Number(bill.fee_coll_bill_no), paise: toPaise(String(bill.fee_coll_amt)) });
    const after = await billReceipt(tx, { ...ctx, dataChk: false }, feeCollCd);
    await writeAudit(tx, ctx, billEntity, 'UNDO', feeCollCd, bill, after.bill);
    return after;
  });
}

export function registerCancelFeeRoutes(app: FastifyInstance, db: Db): void {
  const tags = ['Fee Collection'];
  app.post(
    apiUrl(billEntity, 'cancel'),
    { config: { access: { kind: 'page', pages: collectedPages, button: 'cancel_bill' } }, schema: { tags, summary: 'Cancel a bill (its amounts fall due again)' } },
    async (req) => {
      const p = cancelBillSchema.safeParse(req.body);
      if (!p.success) throw badRequest(p.error.issues[0]?.message ?? 'Invalid request.');
      return cancelBill(db, mustCtx(req), p.data.fee_coll_cd, p.data.reason);
    },
  );
  app.post(
    apiUrl(billEntity, 'undo-cancel'),
    { config: { access: { kind: 'page', pages: collectedPages, button: 'undo_cancel' } }, schema: { tags, summary: 'Undo the cancellation of a bill' } },
    async (req) => {
      const p = undoCancelSchema.safeParse(req.body);
      if (!p.success) throw badRequest(p.error.issues[0]?.message ?? 'Invalid request.');
      return undoCancel(db, mustCtx(req), p.data.fee_coll_cd);
    },
  );
}
