import { bool, select } from '@campus/entities/define';
import { entity } from '@campus/entities/registry';
import { createInstance, type i18n } from 'i18next';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatCell, formatColumnCell, yesNoWords } from './cell-format';
import type { Translate } from './entity-labels';

const flag = bool({ label: 'Active' });
const institute = entity('institute');
const docType = entity('document_type');

const languageDir = join(import.meta.dirname, '../../public/assets/language/');
async function fileInstance(name: string): Promise<i18n> {
  const i = createInstance();
  const translation = JSON.parse(readFileSync(`${languageDir}${name}.json`, 'utf8')) as Record<string, unknown>;
  await i.init({ lng: name, fallbackLng: false, resources: { [name]: { translation } }, interpolation: { escapeValue: false } });
  return i;
}

describe('formatCell booleans', () => {
  it('shows Yes/No in English by default', () => {
    expect(formatCell(flag, true)).toBe('Yes');
    expect(formatCell(flag, 0)).toBe('No');
    expect(formatCell(flag, null)).toBe('');
  });

  it("uses the language file's common.yes / common.no", () => {
    const tamil: Record<string, string> = { 'common.yes': 'ஆம்', 'common.no': 'இல்லை' };
    const t: Translate = (key, o) => tamil[key] ?? o.defaultValue;
    expect(formatCell(flag, '1', { t })).toBe('ஆம்');
    expect(formatCell(flag, false, { t })).toBe('இல்லை');
    const missing: Translate = (_key, o) => o.defaultValue;
    expect(yesNoWords(missing)).toEqual({ yes: 'Yes', no: 'No' });
  });
});

describe('formatCell selects', () => {
  it('shows the declared option label, and the stored value where none is declared', () => {
    const typ = institute.fields.inst_typ;
    expect(formatCell(typ, 'school')).toBe('School');
    expect(formatCell(typ, 'college')).toBe('College');
    // A value no longer among the options (an old row) still shows, as stored.
    expect(formatCell(typ, 'university')).toBe('university');
    expect(formatCell(select({ label: 'S', options: ['Open', 'Closed'] }), 'Open')).toBe('Open');
    expect(formatCell(typ, '')).toBe('');
  });

  it('labels each option of a multiple select and spaces the list', () => {
    const frm = select({ label: 'F', options: ['st', 'in'], optionLabels: { st: 'Student', in: 'Institute' }, multiple: true });
    expect(formatCell(frm, 'st,in')).toBe('Student, Institute');
    expect(formatCell(docType.fields.doc_typ_for, 'Student,Institute')).toBe('Student, Institute');
  });

  it('translates options through option.<entity>.<field>.<value>, falling back to the declared label', async () => {
    const ta = await fileInstance('tamil');
    expect(formatColumnCell(institute, 'inst_typ', 'school', ta.t)).toBe('பள்ளி');
    expect(formatColumnCell(docType, 'doc_typ_for', 'Student,Institute', ta.t)).toBe('மாணவர், நிறுவனம்');
    const none: Translate = (_key, o) => o.defaultValue;
    expect(formatColumnCell(institute, 'inst_typ', 'college', none)).toBe('College');
    const en = await fileInstance('english');
    expect(formatColumnCell(institute, 'inst_typ', 'school', en.t)).toBe('School');
    expect(formatColumnCell(docType, 'doc_typ_for', 'Student,Institute', en.t)).toBe('Student, Institute');
  });

  it('never looks up a key that a dot or colon in the value would bend elsewhere', () => {
    const asked: string[] = [];
    const t: Translate = (key, o) => {
      asked.push(key);
      return o.defaultValue;
    };
    const odd = { ...institute, fields: { ...institute.fields, inst_typ: select({ label: 'T', options: ['a.b', 'c:d', 'e'] }) } };
    expect(formatColumnCell(odd, 'inst_typ', 'a.b', t)).toBe('a.b');
    expect(formatColumnCell(odd, 'inst_typ', 'c:d', t)).toBe('c:d');
    expect(formatColumnCell(odd, 'inst_typ', 'e', t)).toBe('e');
    expect(asked).toEqual(['option.institute.inst_typ.e']);
  });
});

describe('formatColumnCell', () => {
  it('formats by the declared field of the column and shows a link column as its joined name', () => {
    const employee = entity('employee');
    expect(formatColumnCell(institute, 'is_active', true)).toBe('Yes');
    expect(formatColumnCell(employee, 'usr_typ', 'Teacher')).toBe('Teacher');
    expect(formatColumnCell(institute, 'not_a_field', 7)).toBe('7');
    expect(formatColumnCell(institute, 'not_a_field', null)).toBe('');
  });
});
