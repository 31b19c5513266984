import { apiUrl } from '@campus/entities/define';
import { entity } from '@campus/entities/registry';
import type { FastifyInstance } from 'fastify';
import { mustCtx, type RequestContext } from '../../access/request-context';
import { rows, sql, type Db, type DbOrTx } from '../../db/client';
import { writeAudit } from '../../engine/audit';
import { getRow } from '../../engine/crud.service';
import type { Row } from '../../engine/entity-hooks';
import { registerWalletHooks } from '../../hooks/wallet.hooks';
import { badRequest, conflict } from '../../lib/http-error';
import { toPaise } from '../../lib/paise';
import { isUniqueViolation } from '../collect-fee/collect-fee.handler';
import { lockWallet, moveWallet } from './wallet-ledger';
import { parseWalletMove, walletMoves, type WalletMoveInput, type WalletMoveKind } from './wallet.schema';

const walletEntity = entity('wallet');
const txnEntity = entity('wallet_transaction');
const walletPages = [{ module: 'student', page: 'wallet' }] as const;

/** What a top-up, spend or refund answers: the wallet as GET reads it, and the movement written (or found). */
export interface WalletMoveAnswer extends Row {
  transaction: Row;
  repeated: boolean;
}

interface KeyedMove {
  wlt_txn_cd: number;
  wlt_cd: number;
  typ: string;
  amt: string;
  rsn: string | null;
}

const OTHER_BODY = 'This request key was already used for another wallet movement (another wallet, amount or reason). Reload the page and try again.';

async function moveByKey(db: DbOrTx, ctx: RequestContext, acdmCd: number, key: string): Promise<KeyedMove | undefined> {
  const [m] = await rows<KeyedMove>(
    db,
    sql`SELECT wlt_txn_cd, wlt_cd, wlt_txn_typ AS typ, wlt_txn_amt::text AS amt, wlt_txn_rsn AS rsn FROM wallet_transaction
        WHERE inst_cd = ${ctx.instCd} AND acdm_cd = ${acdmCd} AND lower(wlt_txn_idem_key) = lower(${key})`,
  );
  return m;
}

/** A repeated key is the same movement only with the same wallet, kind, amount and reason; else a 409. */
function sameMove(m: KeyedMove, wltCd: number, kind: WalletMoveKind, input: WalletMoveInput): void {
  const { type, sign } = walletMoves[kind];
  const same = Number(m.wlt_cd) === wltCd && m.typ === type && toPaise(m.amt) === sign * input.paise && (m.rsn ?? '') === input.reason;
  if (!same) throw conflict(OTHER_BODY);
}

async function answer(db: DbOrTx, ctx: RequestContext, wltCd: number, txnCd: number, repeated: boolean): Promise<WalletMoveAnswer> {
  const wallet = await getRow(db, walletEntity, ctx, wltCd);
  const transaction = await getRow(db, txnEntity, { ...ctx, dataChk: false }, txnCd);
  return { ...wallet, transaction, repeated };
}

/**
 * One movement by a wallet page button, in one transaction. The wallet is found as GET finds it (this year's,
 * 'his students only' under data_chk: anything else is 404), then locked; the key is looked up under the lock,
 * so a retry that raced its first attempt sees it. The ledger refuses to go below zero (409, nothing written).
 */
export async function moveWalletByButton(db: Db, ctx: RequestContext, wltCd: number, kind: WalletMoveKind, input: WalletMoveInput): Promise<WalletMoveAnswer> {
  if (ctx.acdmCd === null) throw badRequest('Choose an academic year first.');
  const acdmCd = ctx.acdmCd;
  const { type, sign } = walletMoves[kind];
  try {
    return await db.transaction(async (tx) => {
      const before = await getRow(tx, walletEntity, ctx, wltCd);
      await lockWallet(tx, ctx, wltCd);
      const earlier = await moveByKey(tx, ctx, acdmCd, input.idempotency_key);
      if (earlier) {
        sameMove(earlier, wltCd, kind, input);
        return answer(tx, ctx, wltCd, Number(earlier.wlt_txn_cd), true);
      }
      const moved = await moveWallet(tx, ctx, { wltCd, type, paise: sign * input.paise, reason: input.reason, idemKey: input.idempotency_key });
      const after = await answer(tx, ctx, wltCd, moved.wlt_txn_cd, false);
      const { transaction, repeated: _, ...walletAfter } = after;
      await writeAudit(tx, ctx, walletEntity, kind.toUpperCase(), wltCd, before, walletAfter);
      await writeAudit(tx, ctx, txnEntity, 'POST', moved.wlt_txn_cd, null, transaction);
      return after;
    });
  } catch (err) {
    // The same key on two wallets at once: the unique index let one through; answer as a repeat would.
    if (!isUniqueViolation(err)) throw err;
    const earlier = await moveByKey(db, ctx, acdmCd, input.idempotency_key);
    if (!earlier) throw conflict('Another change happened at the same time. Please try again.');
    sameMove(earlier, wltCd, kind, input);
    return answer(db, ctx, wltCd, Number(earlier.wlt_txn_cd), true);
  }
}

let hooksRegistered = false;

/** The wallet's routes, and its hooks (once per process, as app.ts does for the others'). */
export function registerWalletRoutes(app: FastifyInstance, db: Db): void {
  if (!hooksRegistered) {
    registerWalletHooks();
    hooksRegistered = true;
  }
  const tags = ['Wallet'];
  const summaries: Record<WalletMoveKind, string> = {
    topup: 'Top up a wallet (one movement, idempotent by key)',
    spend: 'Spend from a wallet (never below zero)',
    refund: 'Refund money in a wallet to the family (never below zero)',
  };
  for (const kind of Object.keys(walletMoves) as WalletMoveKind[]) {
    app.post(
      apiUrl(walletEntity, `:wlt_cd/${kind}`),
      { config: { access: { kind: 'page', pages: walletPages, button: kind } }, schema: { tags, summary: summaries[kind] } },
      async (req, reply) => {
        const raw = (req.params as { wlt_cd: string }).wlt_cd;
        const wltCd = Number(raw);
        if (!/^\d{1,9}$/.test(raw) || wltCd <= 0) throw badRequest('The wallet code must be a number.');
        const input = parseWalletMove(kind, req.body);
        const result = await moveWalletByButton(db, mustCtx(req), wltCd, kind, input);
        reply.code(result.repeated ? 200 : 201);
        return result;
      },
    );
  }
}
