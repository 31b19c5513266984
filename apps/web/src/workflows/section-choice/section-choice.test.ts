import { describe, expect, it } from 'vitest';
import { classChoices, keepOrOnly, sectionChoicesOf, type SectionChoice } from './section-choice';

const sections: SectionChoice[] = [
  { sec_cd: 1, sec_nm: 'A', cls_cd: 6, cls_nm: 'VI' },
  { sec_cd: 2, sec_nm: 'B', cls_cd: 6, cls_nm: 'VI' },
  { sec_cd: 3, sec_nm: 'A', cls_cd: 9, cls_nm: 'IX' },
];

describe('section choices', () => {
  it('lists each class once, in the order given', () => {
    expect(classChoices(sections)).toEqual([
      { value: '6', label: 'VI' },
      { value: '9', label: 'IX' },
    ]);
  });

  it('offers only the sections of the chosen class, less the excluded one', () => {
    expect(sectionChoicesOf(sections, null)).toEqual([]);
    expect(sectionChoicesOf(sections, '6').map((c) => c.label)).toEqual(['A', 'B']);
    expect(sectionChoicesOf(sections, '6', '1').map((c) => c.label)).toEqual(['B']);
  });

  it('keeps a still-offered choice, picks a lone one, and drops one of another class', () => {
    expect(keepOrOnly(sectionChoicesOf(sections, '6'), '2')).toBe('2');
    expect(keepOrOnly(sectionChoicesOf(sections, '9'), null)).toBe('3');
    expect(keepOrOnly(sectionChoicesOf(sections, '6'), '3')).toBeNull();
  });
});
