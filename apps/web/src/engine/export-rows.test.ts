import { entity } from '@campus/entities/registry';
import { createInstance } from 'i18next';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deriveColumns, orderColumns, translateColumns } from './entity-columns';
import type { Translate } from './entity-labels';
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
    const sheet = buildSheet(
      [byId('acdm_sts'), byId('acdm_strt_yr'), byId('acdm_crt_dt')],
      [
        { acdm_sts: true, acdm_strt_yr: 2024, acdm_crt_dt: '2024-06-01' },
        { acdm_sts: false, acdm_strt_yr: '2025', acdm_crt_dt: null },
      ],
      { entity: entity('academic') },
    );
    expect(sheet.header).toEqual(['Active', 'Start Year', 'Created Date']);
    expect(sheet.numFmts).toEqual([undefined, undefined, 'yyyy/mmm/dd']);
    expect(sheet.rows[0]).toEqual(['Yes', 2024, new Date(Date.UTC(2024, 5, 1))]);
    expect(sheet.rows[1]).toEqual(['No', 2025, null]);
  });

  it('exports money as a number with a 2-decimal format and links by their name', () => {
    const money = { colId: 'amt', valueField: 'amt', label: 'Amount', kind: 'money', align: 'right', hidden: false, sortable: true, searchable: false } as const;
    const employee = { entity: entity('employee') };
    expect(exportCell(money, '1250.5', employee)).toBe(1250.5);
    // A number Excel can sum, shown as the screen shows it: 1,00,000.50 (lakhs and crores grouped).
    expect(buildSheet([money], [], employee).numFmts).toEqual(['[>=10000000]##\\,##\\,##\\,##0.00;[>=100000]##\\,##\\,##0.00;##,##0.00']);
    const role = deriveColumns(entity('employee')).find((c) => c.colId === 'usr_typ')!;
    expect(buildSheet([role], [{ usr_typ: 3, rl_nm: 'Teacher' }], employee).rows).toEqual([['Teacher']]);
  });
});

describe('machine internals in the export', () => {
  it("never writes a bill's idempotency key, even when asked for it by id", () => {
    const bills = entity('collected_fee');
    const row = { fee_coll_bill_no: 843, fee_coll_amt: '6100.00', fee_coll_idem_key: '6f1c0d3e-attempt', fee_coll_sts: 'Active' };
    // As the list page builds it: the grid's visible ids ordered over the derived columns.
    const sheet = buildSheet(orderColumns(deriveColumns(bills), ['fee_coll_bill_no', 'fee_coll_idem_key', 'fee_coll_amt', 'fee_coll_sts']), [row], { entity: bills });
    expect(sheet.header).toEqual(['Bill No', 'Total Amount', 'Status']);
    expect(sheet.rows).toEqual([[843, 6100, 'Active']]);
    // Nor when no order is given: the default columns.
    const all = buildSheet(orderColumns(deriveColumns(bills), []), [row], { entity: bills });
    expect(all.header).not.toContain('Idempotency Key');
    expect(all.rows[0]).not.toContain('6f1c0d3e-attempt');
  });
});

describe("buildSheet in the grid's words", () => {
  const languageDir = join(import.meta.dirname, '../../public/assets/language/');
  async function fileT(name: string): Promise<Translate> {
    const i = createInstance();
    const translation = JSON.parse(readFileSync(`${languageDir}${name}.json`, 'utf8')) as Record<string, unknown>;
    await i.init({ lng: name, fallbackLng: false, resources: { [name]: { translation } }, interpolation: { escapeValue: false } });
    return i.t;
  }

  it('writes select options by their labels, as the grid shows them', () => {
    const institute = entity('institute');
    const cols = deriveColumns(institute).filter((c) => c.colId === 'inst_typ' || c.colId === 'is_active');
    const sheet = buildSheet(cols, [{ inst_typ: 'school', is_active: true }], { entity: institute });
    expect(sheet.rows).toEqual([['School', 'Yes']]);
    const docType = entity('document_type');
    const frm = deriveColumns(docType).filter((c) => c.colId === 'doc_typ_for');
    expect(buildSheet(frm, [{ doc_typ_for: 'Student,Institute' }], { entity: docType }).rows).toEqual([['Student, Institute']]);
  });

  it('follows the language on screen: Tamil headers come from the caller, values from the same keys as the grid', async () => {
    const t = await fileT('tamil');
    const institute = entity('institute');
    const cols = translateColumns(t, institute, deriveColumns(institute)).filter((c) => c.colId === 'inst_typ' || c.colId === 'is_active');
    const sheet = buildSheet(cols, [{ inst_typ: 'college', is_active: false }], { entity: institute, t });
    expect(sheet.header).toEqual([t('field.institute.inst_typ', { defaultValue: '' }), t('field.institute.is_active', { defaultValue: '' })]);
    expect(sheet.rows).toEqual([['கல்லூரி', t('common.no', { defaultValue: '' })]]);
    expect(sheet.rows[0][1]).toMatch(/[\u0B80-\u0BFF]/);
  });
});
