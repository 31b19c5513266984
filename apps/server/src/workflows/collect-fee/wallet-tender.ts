import type { RequestContext } from '../../access/request-context';
import { rows, sql, type DbOrTx, type Tx } from '../../db/client';
import { conflict } from '../../lib/http-error';
import { fromPaise, toPaise } from '../../lib/paise';
import { moveWallet } from '../wallet/wallet-ledger';

/** The tender whose bills are paid out of the student's wallet (matched by name, as the office types it). */
export const WALLET_TENDER = 'Wallet';

export const isWalletTender = (name: string | null | undefined): boolean => (name ?? '').trim().toLowerCase() === WALLET_TENDER.toLowerCase();

/** The student's wallet of that year and its balance, as the counter shows it; null without a wallet. */
export async function walletBalance(db: DbOrTx, instCd: number, studCd: number): Promise<{ wlt_cd: number; balance: string } | null> {
  const [w] = await rows<{ wlt_cd: number; amt: string | null }>(db, sql`SELECT wlt_cd, wlt_amt::text AS amt FROM wallet WHERE stud_cd = ${studCd} AND inst_cd = ${instCd}`);
  return w ? { wlt_cd: Number(w.wlt_cd), balance: fromPaise(toPaise(w.amt ?? '0')) } : null;
}

const billReason = (billNo: number): string => `Bill no. ${billNo}`;

/**
 * A bill paid from the wallet: the debit is written in the bill's transaction, after the student's row lock
 * (collect-fee's order: student, then wallet). A short balance is the ledger's 409 and rolls the bill back.
 */
export async function payBillFromWallet(tx: Tx, ctx: RequestContext, studCd: number, bill: { fee_coll_cd: number; bill_no: number; paise: number }): Promise<void> {
  const w = await walletBalance(tx, ctx.instCd, studCd);
  if (!w) throw conflict('This student has no wallet to pay from.');
  await moveWallet(tx, ctx, { wltCd: w.wlt_cd, type: 'Fee Payment', paise: -bill.paise, reason: billReason(bill.bill_no), feeCollCd: bill.fee_coll_cd });
}

/** The wallet a bill was paid from and what the bill's movements add up to now (negative while it is paid). */
async function walletOfBill(tx: Tx, feeCollCd: number): Promise<{ wlt_cd: number; net: number } | null> {
  const [m] = await rows<{ wlt_cd: number; net: string }>(
    tx,
    sql`SELECT min(wlt_cd) AS wlt_cd, sum(wlt_txn_amt)::text AS net FROM wallet_transaction WHERE fee_coll_cd = ${feeCollCd} HAVING count(*) > 0`,
  );
  return m ? { wlt_cd: Number(m.wlt_cd), net: toPaise(m.net) } : null;
}

/** Cancelling a bill paid from the wallet puts its amount back (the caller holds the student's and the bill's locks). */
export async function creditCancelledBill(tx: Tx, ctx: RequestContext, bill: { fee_coll_cd: number; bill_no: number }): Promise<void> {
  const paid = await walletOfBill(tx, bill.fee_coll_cd);
  if (!paid || paid.net >= 0) return;
  await moveWallet(tx, ctx, { wltCd: paid.wlt_cd, type: 'Fee Cancelled', paise: -paid.net, reason: billReason(bill.bill_no), feeCollCd: bill.fee_coll_cd });
}

/** Restoring it takes the amount again: refused (the ledger's 409) when the balance no longer covers it. */
export async function debitRestoredBill(tx: Tx, ctx: RequestContext, bill: { fee_coll_cd: number; bill_no: number; paise: number }): Promise<void> {
  const paid = await walletOfBill(tx, bill.fee_coll_cd);
  if (!paid || paid.net < 0) return;
  await moveWallet(tx, ctx, { wltCd: paid.wlt_cd, type: 'Fee Payment', paise: -bill.paise, reason: billReason(bill.bill_no), feeCollCd: bill.fee_coll_cd });
}
