import { describe, expect, it } from 'vitest';
import { hiddenCount, multiSelectFormValue, multiSelectText, multiSelectValues, pillSlot } from './multi-select-value';

const options = ['Student', 'Employee', 'Institute'] as const;

describe('multiple select values in the form', () => {
  it('reads the stored comma string as the chosen options', () => {
    expect(multiSelectValues('Student,Institute')).toEqual(['Student', 'Institute']);
    expect(multiSelectValues(' Student , ,Employee ')).toEqual(['Student', 'Employee']);
    expect(multiSelectValues('')).toEqual([]);
    expect(multiSelectValues(null)).toEqual([]);
  });

  it('writes the choice back in declared option order, each once, so an unchanged choice is no change', () => {
    expect(multiSelectFormValue(options, ['Institute', 'Student'])).toBe('Student,Institute');
    expect(multiSelectFormValue(options, ['Employee', 'Employee'])).toBe('Employee');
    expect(multiSelectFormValue(options, [])).toBe('');
  });

  it('shows three pills, then one "+N more" pill, then nothing (spec section 9)', () => {
    expect([0, 1, 2, 3, 4, 5].map((i) => pillSlot(i))).toEqual(['pill', 'pill', 'pill', 'more', 'hidden', 'hidden']);
    expect(hiddenCount(6)).toBe(3);
    expect(hiddenCount(3)).toBe(0);
    expect(hiddenCount(1)).toBe(0);
  });

  it('reads a stored value as a comma-and-space list', () => {
    expect(multiSelectText('Student,Institute')).toBe('Student, Institute');
    expect(multiSelectText(null)).toBe('');
  });
});
