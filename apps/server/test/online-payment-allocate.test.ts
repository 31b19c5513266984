import { describe, expect, it } from 'vitest';
import type { DueLine } from '../src/workflows/collect-fee/fee-dues';
import { oldestDueFirst, sumOf } from '../src/workflows/online-payment/allocate-payment';
import { HttpError } from '../src/lib/http-error';

const fee = (fee_cd: number, fee_grp_cd: number, due: string): DueLine => ({
  kind: 'Fee',
  fee_cd,
  fee_grp_cd,
  fee_grp_nm: `Term ${fee_grp_cd}`,
  fee_grp_fee_exp_dt: null,
  feetyp_nm: 'Tuition',
  amount: due,
  discount: '0.00',
  paid: '0.00',
  due,
});
const late = (fee_grp_cd: number, due: string): DueLine => ({ ...fee(0, fee_grp_cd, due), kind: 'Late Fee', fee_cd: null, feetyp_nm: null });

// The counter's order: term 1's fees, term 1's late fee, then term 2.
const dues = [fee(1, 10, '1000.00'), fee(2, 10, '0.00'), fee(3, 10, '250.50'), late(10, '100.00'), fee(4, 20, '8000.00')];

describe('an online payment spread over the dues, oldest first', () => {
  it("fills each line up to its due in the counter's order, skipping what is paid, and stops at the amount", () => {
    expect(oldestDueFirst(dues, 130_000)).toEqual({
      lines: [{ fee_cd: 1, amount: '1000.00' }, { fee_cd: 3, amount: '250.50' }],
      late_fees: [{ fee_grp_cd: 10, amount: '49.50' }],
    });
    expect(oldestDueFirst(dues, 50)).toEqual({ lines: [{ fee_cd: 1, amount: '0.50' }], late_fees: [] });
    const all = oldestDueFirst(dues, 935_050);
    expect(sumOf(all)).toBe(935_050);
    expect(all.lines.at(-1)).toEqual({ fee_cd: 4, amount: '8000.00' });
  });

  it('refuses more than all the dues, naming by how much', () => {
    let caught: unknown;
    try {
      oldestDueFirst(dues, 935_051);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(HttpError);
    expect((caught as HttpError).statusCode).toBe(409);
    expect((caught as HttpError).message).toBe('The payment of 9350.51 is 0.01 more than all the dues (9350.50).');
  });
});
