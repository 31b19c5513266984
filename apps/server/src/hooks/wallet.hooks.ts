import { rows, sql } from '../db/client';
import { registerHooks } from '../engine/entity-hooks';
import { conflict } from '../lib/http-error';

/**
 * A wallet's balance is its ledger's sum (workflows/wallet): a new wallet starts at 0.00 with no movement,
 * and a wallet is deleted only while nothing has ever moved through it, so no statement loses its wallet.
 */
export function registerWalletHooks(): void {
  registerHooks('wallet', {
    async beforeCreate(_tx, _ctx, values) {
      values.wlt_amt = '0.00';
    },
    async beforeDelete(tx, _ctx, found) {
      // The engine has locked these rows: no movement can be written to them meanwhile.
      for (const w of found) {
        const [m] = await rows<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM wallet_transaction WHERE wlt_cd = ${Number(w.wlt_cd)}`);
        if (Number(m.n) > 0 || Number(w.wlt_amt ?? 0) !== 0) {
          throw conflict(`Wallet no. ${String(w.wlt_cd)} has movements; a wallet is deleted only while nothing has moved through it.`);
        }
      }
    },
  });
}
