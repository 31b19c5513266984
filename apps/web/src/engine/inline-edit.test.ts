import { code, defineEntity, money, number, text } from '@campus/entities/define';
import { describe, expect, it } from 'vitest';
import { inlineCommit, inlineEditFields, inlineKeyAllowed, type InlineField } from './inline-edit';

const amount = money({ label: 'Amount' }) as InlineField;
const whole = number({ label: 'Seats', max: 500 }) as InlineField;
const rate = number({ label: 'Rate', int: false, max: 100 }) as InlineField;

describe('inline edit keystrokes', () => {
  it('takes digits and one decimal point, and refuses a minus anywhere', () => {
    expect(inlineKeyAllowed(amount, '', '5')).toBe(true);
    expect(inlineKeyAllowed(amount, '', '-')).toBe(false);
    expect(inlineKeyAllowed(amount, '5', '-', 0, 0)).toBe(false);
    expect(inlineKeyAllowed(amount, '12', '.')).toBe(true);
    expect(inlineKeyAllowed(amount, '12.5', '.')).toBe(false);
    // The selected '.' is being replaced, so a new one may take its place.
    expect(inlineKeyAllowed(amount, '12.5', '.', 2, 3)).toBe(true);
    expect(inlineKeyAllowed(amount, '12', 'e')).toBe(false);
    expect(inlineKeyAllowed(amount, '12', '+')).toBe(false);
    expect(inlineKeyAllowed(amount, '12', 'Backspace')).toBe(true);
    expect(inlineKeyAllowed(amount, '12', 'Enter')).toBe(true);
  });

  it('gives whole-number fields no decimal point', () => {
    expect(inlineKeyAllowed(whole, '12', '.')).toBe(false);
    expect(inlineKeyAllowed(rate, '12', '.')).toBe(true);
  });
});

describe('inline edit commit', () => {
  it('saves money as a 2-decimal string, never a float', () => {
    expect(inlineCommit(amount, '1500', '1200.00')).toEqual({ kind: 'save', value: '1500.00' });
    expect(inlineCommit(amount, '0.1', null)).toEqual({ kind: 'save', value: '0.10' });
    expect(inlineCommit(amount, '12.', '1.00')).toEqual({ kind: 'save', value: '12.00' });
    expect(inlineCommit(amount, '.5', '1.00')).toEqual({ kind: 'save', value: '0.50' });
  });

  it('does nothing when the amount is the stored one however it is written', () => {
    expect(inlineCommit(amount, '1200', '1200.00')).toEqual({ kind: 'unchanged' });
    expect(inlineCommit(amount, '1200.0', 1200)).toEqual({ kind: 'unchanged' });
  });

  it('ignores what is not a valid amount: not numeric, empty, more than 2 decimals, too large', () => {
    for (const bad of ['abc', '', '   ', '1.234', '-5', '12a', '1.2.3', '99999999999']) {
      const c = inlineCommit(amount, bad, '1200.00');
      expect(c.kind, bad).toBe('invalid');
    }
    expect(inlineCommit(amount, 'abc', '1200.00')).toEqual({ kind: 'invalid', problem: "'Amount' must be an amount with at most 2 decimals." });
    expect(inlineCommit(money({ label: 'Fee', max: 1000 }) as InlineField, '1000.01', null)).toEqual({ kind: 'invalid', problem: "'Fee' is too large." });
  });

  it('checks number fields against their declared limits', () => {
    expect(inlineCommit(whole, '40', 30)).toEqual({ kind: 'save', value: 40 });
    expect(inlineCommit(whole, '30', 30)).toEqual({ kind: 'unchanged' });
    expect(inlineCommit(whole, '', 30).kind).toBe('invalid');
    expect(inlineCommit(whole, '4.5', 30)).toEqual({ kind: 'invalid', problem: "'Seats' must be a whole number." });
    expect(inlineCommit(whole, '501', 30)).toEqual({ kind: 'invalid', problem: "'Seats' must be at most 500." });
    expect(inlineCommit(rate, '2.75', null)).toEqual({ kind: 'save', value: 2.75 });
  });
});

describe('inline edit fields', () => {
  const e = defineEntity({
    name: 'tuition',
    table: 'tuition',
    key: 'tu_cd',
    scope: 'institute',
    label: 'Tuition',
    title: 'tu_nm',
    fields: { tu_cd: code(), tu_nm: text({ label: 'Name' }), tu_amt: money({ label: 'Amount' }) },
    inlineEdit: ['tu_amt'],
  });

  it("are the declared ones for holders of 'edit', none for others", () => {
    expect(inlineEditFields(e, true)).toEqual(['tu_amt']);
    expect(inlineEditFields(e, false)).toEqual([]);
    expect(inlineEditFields({ ...e, inlineEdit: undefined }, true)).toEqual([]);
  });
});
