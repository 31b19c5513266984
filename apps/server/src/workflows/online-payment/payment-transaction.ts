import { entity } from '@campus/entities/registry';
import type { RequestContext } from '../../access/request-context';
import { rows, sql, type Tx } from '../../db/client';
import { writeAudit } from '../../engine/audit';
import { getRow } from '../../engine/crud.service';
import type { Row } from '../../engine/entity-hooks';
import { HttpError, conflict } from '../../lib/http-error';

const requestEntity = entity('online_payment_request');

/** The name of the tender accepted online payments are billed under; its reference is the transaction id. */
export const ONLINE_TENDER = 'Online';

/**
 * One bank payment is one transaction id in the whole institute, whatever the year: the unique index is per
 * year, so every writer of a transaction id (create, edit, webhook, accept) takes this lock first and then
 * looks institute-wide. Locked on the id as PostgreSQL lower-cases it, like the index compares it.
 */
export async function lockTransactionId(tx: Tx, instCd: number, txnId: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended('online-payment-txn:' || ${instCd}::text || ':' || lower(${txnId}), 0))`);
}

interface SameTransaction {
  oln_pay_cd: number;
  acdm_cd: number;
  sts: string;
  bill_no: string | null;
}

/** The institute's other requests with this transaction id (call lockTransactionId first). */
export function sameTransaction(tx: Tx, instCd: number, txnId: string, exceptCd: number | null): Promise<SameTransaction[]> {
  return rows<SameTransaction>(
    tx,
    sql`SELECT oln_pay_cd, acdm_cd, oln_pay_acpt_sts AS sts, oln_pay_bill_no AS bill_no FROM online_payment_request
        WHERE inst_cd = ${instCd} AND lower(oln_pay_txn_id) = lower(${txnId}) AND oln_pay_cd <> ${exceptCd ?? 0}
        ORDER BY oln_pay_cd`,
  );
}

/** Create and edit: a transaction id another request of the institute holds (in any year) is refused. */
export async function refuseTakenTransactionId(tx: Tx, ctx: RequestContext, txnId: string, selfCd: number | null): Promise<void> {
  await lockTransactionId(tx, ctx.instCd, txnId);
  const [other] = await sameTransaction(tx, ctx.instCd, txnId, selfCd);
  if (!other) return;
  const message = Number(other.acdm_cd) === ctx.acdmCd ? `Transaction Id '${txnId}' already exists.` : `Transaction Id '${txnId}' already exists in another academic year.`;
  throw new HttpError(409, message, [{ field: 'oln_pay_txn_id', message }]);
}

interface LinkedRequest {
  oln_pay_cd: number;
  sts: string;
  txn: string;
  fee_coll_cd: number | null;
}

/**
 * The online payment a bill was written for: the request linked to it (a request keeps the link to its
 * cancelled bill while Pending), else the one whose transaction id the bill carries under the Online tender
 * (the request was accepted again on another bill, or a clerk billed that payment at the counter). Locked,
 * and looked up before the student and the bill are locked: the order accepting uses.
 */
export async function lockPaymentOfBill(tx: Tx, ctx: RequestContext, feeCollCd: number): Promise<LinkedRequest | undefined> {
  const [found] = await rows<LinkedRequest>(
    tx,
    sql`SELECT r.oln_pay_cd, r.oln_pay_acpt_sts AS sts, r.oln_pay_txn_id AS txn, r.fee_coll_cd FROM online_payment_request r
          WHERE r.inst_cd = ${ctx.instCd}
            AND (r.fee_coll_cd = ${feeCollCd}
                 OR EXISTS (SELECT 1 FROM fee_collection_bill b JOIN tender_type t ON t.tnd_typ_cd = b.tnd_typ_cd
                            WHERE b.fee_coll_cd = ${feeCollCd} AND lower(t.tnd_typ_nm) = lower(${ONLINE_TENDER})
                              AND b.fee_coll_ref IS NOT NULL AND lower(b.fee_coll_ref) = lower(r.oln_pay_txn_id)))
          ORDER BY (r.fee_coll_cd = ${feeCollCd}) DESC NULLS LAST, r.oln_pay_cd
          FOR UPDATE OF r`,
  );
  return found;
}

/** Cancelling the bill an acceptance wrote puts its payment back to Pending (no bill number), to be acted on again. */
export async function reopenPaymentOfBill(tx: Tx, ctx: RequestContext, req: LinkedRequest | undefined, feeCollCd: number): Promise<void> {
  if (!req || req.sts !== 'Accepted' || Number(req.fee_coll_cd) !== feeCollCd) return;
  const before = await getRow(tx, requestEntity, { ...ctx, dataChk: false }, Number(req.oln_pay_cd));
  await tx.execute(
    sql`UPDATE online_payment_request SET oln_pay_acpt_sts = 'Pending', oln_pay_bill_no = NULL, oln_pay_actn_by = NULL,
          row_ver = row_ver + 1, updt_by = ${ctx.user.usr_cd}, updt_dt = now()
        WHERE oln_pay_cd = ${Number(req.oln_pay_cd)}`,
  );
  const after = await getRow(tx, requestEntity, { ...ctx, dataChk: false }, Number(req.oln_pay_cd));
  await writeAudit(tx, ctx, requestEntity, 'REOPEN', Number(req.oln_pay_cd), before, after);
}

/**
 * Restoring a cancelled bill restores its payment's acceptance, but only while that payment is still Pending
 * and still this bill's: once it was accepted on another bill, rejected, or is another pending request,
 * restoring would bill the bank payment twice (or bill a refused one), so the undo is refused.
 */
export async function relinkPaymentOfBill(tx: Tx, ctx: RequestContext, req: LinkedRequest | undefined, bill: Row): Promise<void> {
  if (!req) return;
  const feeCollCd = Number(bill.fee_coll_cd);
  const billNo = String(bill.fee_coll_bill_no);
  if (req.sts !== 'Pending' || Number(req.fee_coll_cd) !== feeCollCd) {
    const now = req.sts === 'Accepted' ? 'has been accepted on another bill' : req.sts === 'Rejected' ? 'has been rejected' : 'is waiting on Online Pay Request';
    throw conflict(`Bill ${billNo} cannot be restored: its online payment ${req.txn} ${now}.`);
  }
  const before = await getRow(tx, requestEntity, { ...ctx, dataChk: false }, Number(req.oln_pay_cd));
  await tx.execute(
    sql`UPDATE online_payment_request SET oln_pay_acpt_sts = 'Accepted', oln_pay_bill_no = ${billNo}, fee_coll_cd = ${feeCollCd},
          oln_pay_rjct_rsn = NULL, oln_pay_actn_by = ${ctx.user.usr_full_nm}, row_ver = row_ver + 1, updt_by = ${ctx.user.usr_cd}, updt_dt = now()
        WHERE oln_pay_cd = ${Number(req.oln_pay_cd)}`,
  );
  const after = await getRow(tx, requestEntity, { ...ctx, dataChk: false }, Number(req.oln_pay_cd));
  await writeAudit(tx, ctx, requestEntity, 'ACCEPT', Number(req.oln_pay_cd), before, after);
}
