import { describe, expect, it } from 'vitest';
import { orderedSelection, PCT_TYPING, pctValue, toggleTable, type CopyableTableCount } from './rollover-model';

const tables: CopyableTableCount[] = [
  { table: 'fee_group', label: 'Fee Group', rows: 3, in_target: 0, needs: [], fee_amounts: false },
  { table: 'holiday', label: 'Holiday', rows: 5, in_target: 0, needs: [], fee_amounts: false },
  { table: 'fee', label: 'Fee Mapping', rows: 40, in_target: 0, needs: ['fee_group'], fee_amounts: true },
];

describe('rollover screen rules', () => {
  it('takes a percentage typed key by key, and sends it only once it is a number in range', () => {
    for (const partial of ['', '-', '1', '10', '10.', '10.5', '-7.25']) expect(PCT_TYPING.test(partial)).toBe(true);
    for (const wrong of ['a', '10.555', '1e3', '10%', '--1']) expect(PCT_TYPING.test(wrong)).toBe(false);
    expect(pctValue('')).toBeNull();
    expect(pctValue('-')).toBeUndefined();
    expect(pctValue('10.')).toBeUndefined();
    expect(pctValue('10.5')).toBe(10.5);
    expect(pctValue('-101')).toBeUndefined();
    expect(pctValue('1001')).toBeUndefined();
  });
  it('ticks the fee groups with the fee mappings, and unticking the fee groups unticks the mappings', () => {
    const on = toggleTable(new Set(), 'fee', true, tables);
    expect([...on].sort()).toEqual(['fee', 'fee_group']);
    expect(orderedSelection(on, tables)).toEqual(['fee_group', 'fee']);
    const off = toggleTable(on, 'fee_group', false, tables);
    expect([...off]).toEqual([]);
    // Fee groups already in the target year are not ticked again.
    const there = tables.map((t) => (t.table === 'fee_group' ? { ...t, in_target: 3 } : t));
    expect([...toggleTable(new Set(), 'fee', true, there)]).toEqual(['fee']);
  });
});
