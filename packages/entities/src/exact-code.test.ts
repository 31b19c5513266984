import { describe, expect, it } from 'vitest';
import { code, defineEntity, text, type TextField } from './define';
import { entity } from './registry';

const declare = (adm: TextField) =>
  defineEntity({ name: 'pupil', table: 'pupil', key: 'ppl_cd', scope: 'academic-year', label: 'Pupil', title: 'ppl_nm', fields: { ppl_cd: code(), ppl_nm: text({ label: 'Name', max: 60, search: true }), adm } });

describe('exact-code search fields', () => {
  it('are searched text identifiers', () => {
    expect(declare(text({ label: 'Admission No', max: 40, search: true, exactCode: true })).fields.adm).toMatchObject({ exactCode: true });
    expect(() => declare(text({ label: 'Admission No', max: 40, exactCode: true }))).toThrow('pupil.adm: exactCode needs search');
    // A phone is found by any part of it ('27650'), so it stays in the name search.
    expect(() => declare(text({ label: 'Phone', max: 20, search: true, format: 'phone', exactCode: true }))).toThrow('fits neither a phone');
  });

  it('mark the admission number, while names, phones and class stay out of it', () => {
    const f = entity('student').fields;
    expect(Object.entries(f).filter(([, x]) => x.kind === 'text' && x.exactCode).map(([n]) => n)).toEqual(['stud_adm_cd']);
    expect(f.stud_ph).toMatchObject({ search: true });
    // Class and section are narrowed by the list's filters, not ORed into the quick search.
    expect(f.cls_cd.search).toBeFalsy();
    expect(f.sec_cd.search).toBeFalsy();
  });
});
