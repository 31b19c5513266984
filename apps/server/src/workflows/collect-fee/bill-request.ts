import { createHash } from 'node:crypto';
import { rows, sql, type DbOrTx } from '../../db/client';
import { toPaise } from '../../lib/paise';
import type { CollectFeeInput } from './collect-fee.schema';

/**
 * What one payment asked for, in one spelling: zero lines left out (they collect nothing), lines sorted,
 * amounts as whole paise, an empty reference as none. Two requests that would write the same bill have the
 * same form, whatever order or spelling ('200', '200.00') the browser used.
 */
export interface PaymentAsked {
  stud_cd: number;
  tnd_typ_cd: number;
  reference: string | null;
  lines: [number, number][];
  late_fees: [number, number][];
}

const sorted = (list: [number, number][]): [number, number][] => list.filter(([, p]) => p > 0).sort((a, b) => a[0] - b[0] || a[1] - b[1]);

export function askedOf(input: CollectFeeInput): PaymentAsked {
  return {
    stud_cd: input.stud_cd,
    tnd_typ_cd: input.tnd_typ_cd,
    reference: input.reference?.trim() || null,
    lines: sorted(input.lines.map((l) => [l.fee_cd, toPaise(l.amount)])),
    late_fees: sorted(input.late_fees.map((l) => [l.fee_grp_cd, toPaise(l.amount)])),
  };
}

/** sha-256 of the canonical form: stored on the bill as fee_coll_idem_hash. */
export function requestHash(input: CollectFeeInput): string {
  return createHash('sha256').update(JSON.stringify(askedOf(input))).digest('hex');
}

/**
 * Does a bill written before requests were hashed answer this request? Its stored student, tender and lines
 * are compared with the request; the reference only when the bill kept one (a cash bill drops whatever
 * reference the browser sent, so its absence proves nothing).
 */
export async function billMatches(db: DbOrTx, feeCollCd: number, input: CollectFeeInput): Promise<boolean> {
  const asked = askedOf(input);
  const [bill] = await rows<{ stud_cd: number; tnd_typ_cd: number | null; ref: string | null }>(
    db,
    sql`SELECT stud_cd, tnd_typ_cd, fee_coll_ref AS ref FROM fee_collection_bill WHERE fee_coll_cd = ${feeCollCd}`,
  );
  if (!bill) return false;
  const lines = await rows<{ fee_cd: number | null; fee_grp_cd: number; kind: string; amt: string }>(
    db,
    sql`SELECT fee_cd, fee_grp_cd, fee_coll_dtl_kind AS kind, fee_coll_dtl_amt::text AS amt FROM fee_collection_line WHERE fee_coll_cd = ${feeCollCd}`,
  );
  const stored = {
    lines: sorted(lines.filter((l) => l.kind === 'Fee').map((l) => [Number(l.fee_cd), toPaise(l.amt)])),
    late_fees: sorted(lines.filter((l) => l.kind === 'Late Fee').map((l) => [Number(l.fee_grp_cd), toPaise(l.amt)])),
  };
  return (
    Number(bill.stud_cd) === asked.stud_cd &&
    Number(bill.tnd_typ_cd) === asked.tnd_typ_cd &&
    (bill.ref === null || bill.ref === asked.reference) &&
    JSON.stringify(stored) === JSON.stringify({ lines: asked.lines, late_fees: asked.late_fees })
  );
}
