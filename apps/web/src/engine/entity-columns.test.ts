import { entities, entity } from '@campus/entities/registry';
import { bool, code, defineEntity, json, link, money, password, text } from '@campus/entities/define';
import { describe, expect, it } from 'vitest';
import { chosenColumns, deriveColumns, orderColumns, searchableLabels, translateColumns } from './entity-columns';
import type { Translate } from './entity-labels';

const sample = defineEntity({
  name: 'sample',
  table: 'sample',
  key: 'smp_cd',
  scope: 'institute',
  label: 'Sample',
  title: 'smp_nm',
  fields: {
    smp_cd: code(),
    smp_nm: text({ label: 'Name', required: true, search: true }),
    smp_amt: money({ label: 'Amount' }),
    smp_rl: link({ label: 'Role', to: 'role', display: 'rl_nm', as: 'rl_nm' }),
    smp_on: bool({ label: 'On' }),
    smp_raw: json({ label: 'Raw', gridHidden: true }),
    smp_pwd: password({ label: 'Password' }),
    smp_idem: text({ label: 'Idempotency Key', internal: true, formHidden: true }),
  },
});

describe('deriveColumns', () => {
  it('keeps declaration order and drops passwords and machine internals', () => {
    expect(deriveColumns(sample).map((c) => c.colId)).toEqual(['smp_cd', 'smp_nm', 'smp_amt', 'smp_rl', 'smp_on', 'smp_raw']);
  });

  it('shows the joined display column of a link but sorts by the declared field', () => {
    const rl = deriveColumns(sample).find((c) => c.colId === 'smp_rl');
    expect(rl).toMatchObject({ valueField: 'rl_nm', label: 'Role', kind: 'link', sortable: true });
  });

  it('right-aligns money, hides gridHidden fields and does not sort json', () => {
    const cols = deriveColumns(sample);
    expect(cols.find((c) => c.colId === 'smp_amt')?.align).toBe('right');
    expect(cols.find((c) => c.colId === 'smp_nm')?.align).toBe('left');
    expect(cols.find((c) => c.colId === 'smp_raw')).toMatchObject({ hidden: true, sortable: false });
  });

  it('derives the religion grid from the real declaration', () => {
    const cols = deriveColumns(entity('religion'));
    expect(cols.map((c) => [c.colId, c.label])).toEqual([
      ['rgn_cd', 'Code'],
      ['rgn_nm', 'Religion Name'],
      ['rgn_desc', 'Description'],
    ]);
    expect(searchableLabels(entity('religion'))).toEqual(['Religion Name', 'Description']);
  });

  it('never lists the employee password and shows the role name', () => {
    const cols = deriveColumns(entity('employee'));
    expect(cols.some((c) => c.colId === 'usr_pwd')).toBe(false);
    expect(cols.find((c) => c.colId === 'usr_typ')?.valueField).toBe('rl_nm');
  });
});

describe('machine internals', () => {
  it("are offered nowhere: not as a column, so neither in the Columns menu nor in a saved report's columns", () => {
    const bills = entity('collected_fee');
    const cols = deriveColumns(bills);
    expect(cols.map((c) => c.label)).not.toContain('Idempotency Key');
    expect(cols.some((c) => c.colId === 'fee_coll_idem_key')).toBe(false);
    expect(chosenColumns(bills, ['fee_coll_bill_no', 'fee_coll_idem_key']).map((c) => c.colId)).toEqual(['fee_coll_bill_no']);
    expect(chosenColumns(sample, ['smp_idem', 'smp_nm']).map((c) => c.colId)).toEqual(['smp_nm']);
  });

  it('are declared on every key a retry carries, in every entity', () => {
    // A field named like an idempotency key or a row version that is still a column would be offered to the office.
    for (const e of entities) {
      for (const c of deriveColumns(e)) expect(c.colId, `${e.name}.${c.colId}`).not.toMatch(/idem|row_ver/);
    }
  });
});

describe('orderColumns', () => {
  it('follows the grid order and drops unknown or hidden ids', () => {
    const cols = deriveColumns(sample);
    expect(orderColumns(cols, ['smp_on', 'nope', 'smp_nm']).map((c) => c.colId)).toEqual(['smp_on', 'smp_nm']);
  });

  it('falls back to the visible declaration order', () => {
    expect(orderColumns(deriveColumns(sample), []).map((c) => c.colId)).not.toContain('smp_raw');
  });
});

describe('translateColumns', () => {
  const tamil: Record<string, string> = { 'field.religion.rgn_nm': 'மதத்தின் பெயர்', 'field.religion.rgn_desc': 'விளக்கம்' };
  const t: Translate = (key, o) => tamil[key] ?? o.defaultValue;

  it('labels each column through its entity field key and keeps everything else', () => {
    const religion = entity('religion');
    const cols = deriveColumns(religion);
    const translated = translateColumns(t, religion, cols);
    expect(translated.map((c) => c.label)).toEqual(['Code', 'மதத்தின் பெயர்', 'விளக்கம்']);
    expect(translated.map(({ label: _l, ...rest }) => rest)).toEqual(cols.map(({ label: _l, ...rest }) => rest));
    // The derived set is not changed in place: it keys the list query and the saved layout.
    expect(cols[1].label).toBe('Religion Name');
  });

  it('falls back to the declared label of a field without a key', () => {
    expect(translateColumns(t, sample, deriveColumns(sample)).map((c) => c.label)).toEqual(deriveColumns(sample).map((c) => c.label));
  });

  it('lists the searched columns in the current language', () => {
    expect(searchableLabels(entity('religion'), t)).toEqual(['மதத்தின் பெயர்', 'விளக்கம்']);
  });
});
