import { conflict } from '../../lib/http-error';
import { fromPaise, toPaise } from '../../lib/paise';
import type { DueLine } from '../collect-fee/fee-dues';

export interface AllocatedLines {
  lines: { fee_cd: number; amount: string }[];
  late_fees: { fee_grp_cd: number; amount: string }[];
}

/**
 * A payment spread over the dues oldest first: the order of studentDues (terms by start date, each term's
 * fees and then its late fee, as the counter lists them), each line up to its due. More than all the dues
 * is refused, naming by how much: the family paid for something the school does not ask.
 */
export function oldestDueFirst(dues: readonly DueLine[], paise: number): AllocatedLines {
  const owed = dues.reduce((a, d) => a + toPaise(d.due), 0);
  if (paise > owed) {
    throw conflict(`The payment of ${fromPaise(paise)} is ${fromPaise(paise - owed)} more than all the dues (${fromPaise(owed)}).`);
  }
  const out: AllocatedLines = { lines: [], late_fees: [] };
  let left = paise;
  for (const d of dues) {
    if (left === 0) break;
    const take = Math.min(left, toPaise(d.due));
    if (take === 0) continue;
    left -= take;
    if (d.kind === 'Fee' && d.fee_cd !== null) out.lines.push({ fee_cd: d.fee_cd, amount: fromPaise(take) });
    else out.late_fees.push({ fee_grp_cd: d.fee_grp_cd, amount: fromPaise(take) });
  }
  return out;
}

/** Lines chosen by hand must pay exactly what the family paid: a bill for another sum would not match the bank. */
export function sumOf(l: AllocatedLines): number {
  return [...l.lines, ...l.late_fees].reduce((a, x) => a + toPaise(x.amount), 0);
}
