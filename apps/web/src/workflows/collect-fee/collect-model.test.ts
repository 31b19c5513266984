import { describe, expect, it } from 'vitest';
import { byTerm, collectBody, isWalletTender, overDue, payAll, sanitizeAmount, totalOf, type DueLine } from './collect-model';

const line = (o: Partial<DueLine>): DueLine => ({
  kind: 'Fee',
  fee_cd: 1,
  fee_grp_cd: 10,
  fee_grp_nm: 'Term 1',
  fee_grp_fee_exp_dt: null,
  feetyp_nm: 'Tuition',
  amount: '8000.00',
  discount: '0.00',
  paid: '0.00',
  due: '8000.00',
  ...o,
});

describe('fee counter model', () => {
  it('accepts digits and one decimal point with at most 2 decimals', () => {
    expect(sanitizeAmount('12a3.4.5')).toBe('123.45');
    expect(sanitizeAmount('-50')).toBe('50');
    expect(sanitizeAmount('1,234.567')).toBe('1234.56');
    expect(sanitizeAmount('.5')).toBe('.5');
  });

  it('totals exactly in 2 decimals', () => {
    expect(totalOf({ a: '0.10', b: '0.20', c: '' })).toBe('0.30');
    expect(totalOf({ a: '1234.5', b: '.5' })).toBe('1235.00');
    expect(totalOf({})).toBe('0.00');
  });

  it('pays every due at once, flags amounts above due and sends only what is paid', () => {
    const lines = [line({}), line({ fee_cd: 2, due: '0.00' }), line({ kind: 'Late Fee', fee_cd: null, due: '100.00' })];
    const all = payAll(lines);
    expect(all).toEqual({ f1: '8000.00', g10: '100.00' });
    expect(overDue(lines, { f1: '8000.01' }).map((l) => l.fee_cd)).toEqual([1]);
    expect(collectBody(5, 2, ' ', lines, { f1: '100.5', f2: '', g10: '100' }, 'k')).toEqual({
      stud_cd: 5,
      tnd_typ_cd: 2,
      reference: null,
      lines: [{ fee_cd: 1, amount: '100.50' }],
      late_fees: [{ fee_grp_cd: 10, amount: '100.00' }],
      idempotency_key: 'k',
    });
    expect(byTerm([line({}), line({ fee_grp_cd: 11, fee_grp_nm: 'Term 2' })]).map((g) => g.fee_grp_nm)).toEqual(['Term 1', 'Term 2']);
  });

  it('knows the wallet tender by its name, as the server does', () => {
    expect(isWalletTender({ tnd_typ_nm: 'Wallet' })).toBe(true);
    expect(isWalletTender({ tnd_typ_nm: ' wallet ' })).toBe(true);
    expect(isWalletTender({ tnd_typ_nm: 'Cash' })).toBe(false);
    expect(isWalletTender(null)).toBe(false);
  });
});
