import type { RequestContext } from '../../access/request-context';
import { rows, sql, type Tx } from '../../db/client';
import { localDateTime } from '../../lib/clock';
import { conflict, notFound } from '../../lib/http-error';
import { fromPaise, toPaise } from '../../lib/paise';

/** The kinds of wallet movement, as the wallet_transaction declaration lists them. */
export type WalletTxnType = 'Top-up' | 'Spend' | 'Refund' | 'Carried Forward' | 'Fee Payment' | 'Fee Cancelled';

export interface WalletMove {
  wltCd: number;
  type: WalletTxnType;
  /** Signed whole paise: money in is positive, money out negative. */
  paise: number;
  reason: string | null;
  feeCollCd?: number | null;
  idemKey?: string | null;
}

export interface WalletMoved {
  wlt_txn_cd: number;
  wlt_cd: number;
  stud_cd: number;
  acdm_cd: number;
  /** The balance after the movement, '1234.50'. */
  balance: string;
}

interface LockedWallet {
  wlt_cd: number;
  stud_cd: number;
  acdm_cd: number;
  paise: number;
}

/**
 * The wallet row locked for a movement, in the request's institute (any of its years: a carried-forward
 * balance moves last year's wallet and this year's). Everything that changes a balance goes through here,
 * so two movements of one wallet queue up and each sees the other's balance.
 *
 * The wallet's student row is locked first. The fee counter and a cancellation lock the student and then
 * the wallet, and a movement's insert needs a key-share lock on the student (its foreign key): taking the
 * wallet first here would let a counter bill paid from the wallet and a top-up of the same child wait on
 * each other until PostgreSQL aborts one. One order everywhere, student then wallet.
 */
export async function lockWallet(tx: Tx, ctx: RequestContext, wltCd: number): Promise<LockedWallet> {
  await tx.execute(
    sql`SELECT s.stud_cd FROM student s WHERE s.stud_cd = (SELECT w.stud_cd FROM wallet w WHERE w.wlt_cd = ${wltCd} AND w.inst_cd = ${ctx.instCd}) FOR UPDATE`,
  );
  const [w] = await rows<{ wlt_cd: number; stud_cd: number; acdm_cd: number; wlt_amt: string | null }>(
    tx,
    sql`SELECT wlt_cd, stud_cd, acdm_cd, wlt_amt::text AS wlt_amt FROM wallet WHERE wlt_cd = ${wltCd} AND inst_cd = ${ctx.instCd} FOR UPDATE`,
  );
  if (!w) throw notFound('Wallet not found.');
  return { wlt_cd: Number(w.wlt_cd), stud_cd: Number(w.stud_cd), acdm_cd: Number(w.acdm_cd), paise: toPaise(w.wlt_amt ?? '0') };
}

/** The student's wallet of that year, if there is one (not locked). */
export async function walletOfStudent(tx: Tx, ctx: RequestContext, studCd: number): Promise<number | null> {
  const [w] = await rows<{ wlt_cd: number }>(tx, sql`SELECT wlt_cd FROM wallet WHERE stud_cd = ${studCd} AND inst_cd = ${ctx.instCd}`);
  return w ? Number(w.wlt_cd) : null;
}

/**
 * One movement: the wallet is locked, the new balance may not fall below zero, the transaction row and the
 * wallet's balance are written together. The caller's transaction makes it part of a bill or a promotion.
 */
export async function moveWallet(tx: Tx, ctx: RequestContext, move: WalletMove): Promise<WalletMoved> {
  if (!Number.isSafeInteger(move.paise) || move.paise === 0) throw new Error('a wallet movement needs a non-zero amount');
  const w = await lockWallet(tx, ctx, move.wltCd);
  const after = w.paise + move.paise;
  if (after < 0) {
    throw conflict(`Wallet no. ${w.wlt_cd} has only ${fromPaise(w.paise)}; ${fromPaise(-move.paise)} cannot be taken from it.`);
  }
  const now = localDateTime();
  const [{ id }] = await rows<{ id: number }>(
    tx,
    sql`INSERT INTO wallet_transaction (wlt_cd, stud_cd, wlt_txn_typ, wlt_txn_amt, wlt_txn_bal, wlt_txn_rsn, fee_coll_cd, wlt_txn_by,
          wlt_txn_dt, wlt_txn_tm, wlt_txn_idem_key, inst_cd, acdm_cd, crt_by)
        VALUES (${w.wlt_cd}, ${w.stud_cd}, ${move.type}, ${fromPaise(move.paise)}, ${fromPaise(after)}, ${move.reason}, ${move.feeCollCd ?? null},
          ${ctx.user.usr_full_nm}, ${now.date}, ${now.time}, ${move.idemKey ?? null}, ${ctx.instCd}, ${w.acdm_cd}, ${ctx.user.usr_cd})
        RETURNING wlt_txn_cd AS id`,
  );
  await tx.execute(
    sql`UPDATE wallet SET wlt_amt = ${fromPaise(after)}, usr_full_nm = ${ctx.user.usr_full_nm}, wlt_updt_dt = ${now.date},
          row_ver = row_ver + 1, updt_by = ${ctx.user.usr_cd}, updt_dt = now()
        WHERE wlt_cd = ${w.wlt_cd}`,
  );
  return { wlt_txn_cd: Number(id), wlt_cd: w.wlt_cd, stud_cd: w.stud_cd, acdm_cd: w.acdm_cd, balance: fromPaise(after) };
}

/** The sum of a wallet's movements: what its balance must equal (tests and the statement check it). */
export async function ledgerSum(tx: Tx, wltCd: number): Promise<string> {
  const [s] = await rows<{ s: string }>(tx, sql`SELECT coalesce(sum(wlt_txn_amt), 0)::text AS s FROM wallet_transaction WHERE wlt_cd = ${wltCd}`);
  return fromPaise(toPaise(s.s));
}
