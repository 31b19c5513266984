import { describe, expect, it } from 'vitest';
import { addToCart, cartCopies, deskBody, overMax, removeLine, scannedCode, setQty, type CartLine } from './lend-model';

const wings = { bk_cd: 7, bk_nm: 'Wings of Fire', bk_barcd: 'WF-1', max: 2 };
const malgudi = { bk_cd: 3, bk_nm: 'Malgudi Days', bk_barcd: null, max: 1 };

describe('the library desk model', () => {
  it('adds a scanned book once and counts a second scan as one more copy', () => {
    let cart: CartLine[] = [];
    cart = addToCart(cart, wings);
    cart = addToCart(cart, malgudi);
    cart = addToCart(cart, wings);
    expect(cart.map((l) => [l.bk_nm, l.qty])).toEqual([
      ['Wings of Fire', 2],
      ['Malgudi Days', 1],
    ]);
    expect(cartCopies(cart)).toBe(3);
    expect(overMax(cart)).toEqual([]);
    expect(overMax(addToCart(cart, wings)).map((l) => l.bk_cd)).toEqual([7]);
    expect(removeLine(cart, 7).map((l) => l.bk_cd)).toEqual([3]);
  });

  it('keeps a typed quantity a whole number from 1', () => {
    const cart = addToCart([], wings);
    expect(setQty(cart, 7, 4)[0].qty).toBe(4);
    expect(setQty(cart, 7, 0)[0].qty).toBe(1);
    expect(setQty(cart, 7, Number.NaN)[0].qty).toBe(1);
  });

  it('sends an issue with its due date and key, a return with its key only; a scan without its spaces', () => {
    const cart = addToCart(addToCart([], wings), wings);
    const holder = { usr_typ: 'Student' as const, usr_cd: 11 };
    expect(deskBody('issue', holder, cart, '2026-12-01', 'k-123456')).toEqual({ usr_typ: 'Student', usr_cd: 11, books: [{ bk_cd: 7, qty: 2 }], due_dt: '2026-12-01', idempotency_key: 'k-123456' });
    expect(deskBody('return', holder, cart, '2026-12-01', 'k-123456')).toEqual({ usr_typ: 'Student', usr_cd: 11, books: [{ bk_cd: 7, qty: 2 }], idempotency_key: 'k-123456' });
    expect(scannedCode('  WF-1\n')).toBe('WF-1');
  });
});
