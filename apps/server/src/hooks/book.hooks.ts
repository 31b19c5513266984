import { rows, sql, type Tx } from '../db/client';
import { registerHooks } from '../engine/entity-hooks';
import { conflict } from '../lib/http-error';

/** Copies of the book out with borrowers, read with the book's row locked (issues lock it too). */
async function outOf(tx: Tx, bkCd: number): Promise<{ out: number; name: string }> {
  const [b] = await rows<{ bk_nm: string; n: number }>(
    tx,
    sql`SELECT b.bk_nm, (SELECT coalesce(sum(k.usr_bk_stk_qty), 0)::int FROM book_checkinout_summary k WHERE k.bk_cd = b.bk_cd) AS n
        FROM book b WHERE b.bk_cd = ${bkCd} FOR UPDATE OF b`,
  );
  return { out: Number(b?.n ?? 0), name: b?.bk_nm ?? '' };
}

const copies = (n: number): string => `${n} ${n === 1 ? 'copy' : 'copies'}`;
const are = (n: number): string => (n === 1 ? 'is' : 'are');

/** The library owns at least the copies it has lent: bk_qty never drops below them, and a lent book stays. */
export function registerBookHooks(): void {
  registerHooks('book', {
    async beforeUpdate(tx, _ctx, before, changes) {
      if (!('bk_qty' in changes)) return;
      const { out, name } = await outOf(tx, Number(before.bk_cd));
      const qty = Number(changes.bk_qty);
      if (qty < out) {
        throw conflict(`${copies(out)} of '${name}' ${are(out)} out with borrowers: the quantity cannot be less than ${out}.`);
      }
    },
    async beforeDelete(tx, _ctx, found) {
      for (const r of found) {
        const { out, name } = await outOf(tx, Number(r.bk_cd));
        if (out > 0) throw conflict(`'${name}' cannot be deleted: ${copies(out)} ${are(out)} out with borrowers.`);
      }
    },
  });
}
