/**
 * The pure parts of the fee counter: the amount typed, the totals, the body sent. Amounts are kept as the
 * typed text and summed as whole paise, so no float ever rounds a rupee.
 */

export interface DueLine {
  kind: 'Fee' | 'Late Fee';
  fee_cd: number | null;
  fee_grp_cd: number;
  fee_grp_nm: string;
  fee_grp_fee_exp_dt: string | null;
  feetyp_nm: string | null;
  amount: string;
  discount: string;
  paid: string;
  due: string;
}

export interface Tender {
  tnd_typ_cd: number;
  tnd_typ_nm: string;
  tnd_typ_fld_val: string | null;
}

/** The student's wallet as the dues answer gives it: what the tender 'Wallet' can pay. */
export interface WalletBalance {
  wlt_cd: number;
  balance: string;
}

/** The tender paid out of the student's wallet (the server matches the same name). */
export const isWalletTender = (t: Pick<Tender, 'tnd_typ_nm'> | null): boolean => (t?.tnd_typ_nm ?? '').trim().toLowerCase() === 'wallet';

/** A line's key in the pay-now map: the mapping row, or the fee group for its late fee. */
export const lineKey = (l: Pick<DueLine, 'kind' | 'fee_cd' | 'fee_grp_cd'>): string => (l.kind === 'Late Fee' ? `g${l.fee_grp_cd}` : `f${l.fee_cd}`);

/** Keeps digits and the first decimal point, at most 2 decimals: what the amount box accepts. */
export function sanitizeAmount(text: string): string {
  let seenDot = false;
  let out = '';
  for (const ch of text) {
    if (ch >= '0' && ch <= '9') out += ch;
    else if (ch === '.' && !seenDot) {
      seenDot = true;
      out += ch;
    }
  }
  const [whole, frac] = out.split('.');
  return frac === undefined ? whole : `${whole}.${frac.slice(0, 2)}`;
}

export function toPaise(text: string | null | undefined): number {
  const s = (text ?? '').trim();
  if (s === '' || s === '.') return 0;
  const [whole, frac = ''] = s.split('.');
  return Number(whole || '0') * 100 + Number(frac.padEnd(2, '0').slice(0, 2));
}

export const fromPaise = (p: number): string => `${Math.floor(p / 100)}.${String(p % 100).padStart(2, '0')}`;

export function totalOf(payNow: Readonly<Record<string, string>>): string {
  return fromPaise(Object.values(payNow).reduce((a, v) => a + toPaise(v), 0));
}

/** Every line's whole due ('pay all'). */
export function payAll(lines: readonly DueLine[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const l of lines) if (toPaise(l.due) > 0) out[lineKey(l)] = l.due;
  return out;
}

/** Lines whose pay-now amount is above their due (the server refuses them too). */
export function overDue(lines: readonly DueLine[], payNow: Readonly<Record<string, string>>): DueLine[] {
  return lines.filter((l) => toPaise(payNow[lineKey(l)]) > toPaise(l.due));
}

/** The collect request body; zero lines are left out. */
export function collectBody(studCd: number, tender: number, reference: string, lines: readonly DueLine[], payNow: Readonly<Record<string, string>>, key: string) {
  const paid = lines.filter((l) => toPaise(payNow[lineKey(l)]) > 0);
  return {
    stud_cd: studCd,
    tnd_typ_cd: tender,
    reference: reference.trim() || null,
    lines: paid.filter((l) => l.kind === 'Fee').map((l) => ({ fee_cd: l.fee_cd, amount: fromPaise(toPaise(payNow[lineKey(l)])) })),
    late_fees: paid.filter((l) => l.kind === 'Late Fee').map((l) => ({ fee_grp_cd: l.fee_grp_cd, amount: fromPaise(toPaise(payNow[lineKey(l)])) })),
    idempotency_key: key,
  };
}

/** Lines grouped by fee group (term), in the server's order. */
export function byTerm(lines: readonly DueLine[]): { fee_grp_cd: number; fee_grp_nm: string; lines: DueLine[] }[] {
  const out: { fee_grp_cd: number; fee_grp_nm: string; lines: DueLine[] }[] = [];
  for (const l of lines) {
    const last = out[out.length - 1];
    if (last && last.fee_grp_cd === l.fee_grp_cd) last.lines.push(l);
    else out.push({ fee_grp_cd: l.fee_grp_cd, fee_grp_nm: l.fee_grp_nm, lines: [l] });
  }
  return out;
}
