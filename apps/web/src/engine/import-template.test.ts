import { entity } from '@campus/entities/registry';
import { describe, expect, it } from 'vitest';
import { isImportFile, templateColumns } from './import-template';

describe('import template', () => {
  it('lists the writable fields by name, never the key or server-owned fields', () => {
    expect(templateColumns(entity('religion')).map((c) => c.name)).toEqual(['rgn_nm', 'rgn_desc']);
    const academic = templateColumns(entity('academic')).map((c) => c.name);
    expect(academic).not.toContain('acdm_cd');
    expect(academic).not.toContain('acdm_crt_dt');
  });

  it('explains each column', () => {
    const month = templateColumns(entity('academic')).find((c) => c.name === 'acdm_strt_mn');
    expect(month).toMatchObject({ required: true, hint: expect.stringContaining('Jan, Feb') });
  });

  it('accepts only xlsx and csv files', () => {
    expect(isImportFile('roles.XLSX')).toBe(true);
    expect(isImportFile('roles.csv')).toBe(true);
    expect(isImportFile('roles.xls')).toBe(false);
    expect(isImportFile('roles.csv.exe')).toBe(false);
  });
});
