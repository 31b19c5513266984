import { entity } from '@campus/entities/registry';
import { describe, expect, it } from 'vitest';
import { deriveColumns } from './entity-columns';
import { buildSheet, exportCell, exportFileName } from './export-rows';

describe('exportFileName', () => {
  it('uses the entity label and DD_MM_YYYY hh:mm:ss A', () => {
    expect(exportFileName('Religion', new Date(2025, 2, 5, 14, 7, 9))).toBe('Religion_05_03_2025 02:07:09 PM.xlsx');
    expect(exportFileName('Academic Year', new Date(2024, 11, 31, 0, 0, 0))).toBe('Academic Year_31_12_2024 12:00:00 AM.xlsx');
  });
});

describe('buildSheet', () => {
  it('writes labels in the given column order and typed cells', () => {
    const cols = deriveColumns(entity('academic'));
    const byId = (id: string) => cols.find((c) => c.colId === id)!;
    const sheet = buildSheet([byId('acdm_sts'), byId('acdm_strt_yr'), byId('acdm_crt_dt')], [
      { acdm_sts: true, acdm_strt_yr: 2024, acdm_crt_dt: '2024-06-01' },
      { acdm_sts: false, acdm_strt_yr: '2025', acdm_crt_dt: null },
    ]);
    expect(sheet.header).toEqual(['Active', 'Start Year', 'Created Date']);
    expect(sheet.numFmts).toEqual([undefined, undefined, 'yyyy/mmm/dd']);
    expect(sheet.rows[0]).toEqual(['Yes', 2024, new Date(Date.UTC(2024, 5, 1))]);
    expect(sheet.rows[1]).toEqual(['No', 2025, null]);
  });

  it('exports money as a number with a 2-decimal format and links by their name', () => {
    const money = { colId: 'amt', valueField: 'amt', label: 'Amount', kind: 'money', align: 'right', hidden: false, sortable: true, searchable: false } as const;
    expect(exportCell(money, '1250.5')).toBe(1250.5);
    expect(buildSheet([money], []).numFmts).toEqual(['#,##0.00']);
    const role = deriveColumns(entity('employee')).find((c) => c.colId === 'usr_typ')!;
    expect(buildSheet([role], [{ usr_typ: 3, rl_nm: 'Teacher' }]).rows).toEqual([['Teacher']]);
  });
});
