import { describe, expect, it } from 'vitest';
import { amountInWords } from './amount-in-words';

describe('amountInWords', () => {
  it('writes the figure of the issue exactly', () => {
    expect(amountInWords('4475.50')).toBe('Rupees Four Thousand Four Hundred Seventy Five and Fifty Paise Only');
  });

  it.each([
    ['0', 'Rupees Zero Only'],
    ['0.00', 'Rupees Zero Only'],
    ['0.05', 'Five Paise Only'],
    ['0.5', 'Fifty Paise Only'],
    ['1', 'Rupees One Only'],
    ['100', 'Rupees One Hundred Only'],
    ['5000', 'Rupees Five Thousand Only'],
    ['5000.00', 'Rupees Five Thousand Only'],
    ['19.99', 'Rupees Nineteen and Ninety Nine Paise Only'],
    ['101', 'Rupees One Hundred One Only'],
    ['1010', 'Rupees One Thousand Ten Only'],
    ['12345', 'Rupees Twelve Thousand Three Hundred Forty Five Only'],
    ['100000', 'Rupees One Lakh Only'],
    ['250075.25', 'Rupees Two Lakh Fifty Thousand Seventy Five and Twenty Five Paise Only'],
    ['9999999', 'Rupees Ninety Nine Lakh Ninety Nine Thousand Nine Hundred Ninety Nine Only'],
    ['10000000', 'Rupees One Crore Only'],
    ['12345678.90', 'Rupees One Crore Twenty Three Lakh Forty Five Thousand Six Hundred Seventy Eight and Ninety Paise Only'],
    ['10000000000', 'Rupees One Thousand Crore Only'],
  ])('%s -> %s', (amount, words) => {
    expect(amountInWords(amount)).toBe(words);
  });

  it('keeps every digit of an amount too large for a float', () => {
    // 2^53 + 1 as a float would round to ...992; the words must end in 'Three'.
    expect(amountInWords('9007199254740993')).toMatch(/Nine Hundred Ninety Three Only$/);
  });

  it('refuses what is not an amount', () => {
    for (const bad of ['-5', '1.234', 'abc', '', '1e3']) expect(() => amountInWords(bad)).toThrow();
  });
});
