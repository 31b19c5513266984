import { describe, expect, it } from 'vitest';
import { defaultTarget, movesToRun, nextYearOf, type PromotionPreview, type YearChoice } from './promotion-model';

const sections = [
  { sec_cd: 1, sec_nm: 'A', cls_cd: 10, cls_nm: 'VI' },
  { sec_cd: 2, sec_nm: 'B', cls_cd: 10, cls_nm: 'VI' },
  { sec_cd: 3, sec_nm: 'A', cls_cd: 11, cls_nm: 'VII' },
  { sec_cd: 4, sec_nm: 'C', cls_cd: 11, cls_nm: 'VII' },
  { sec_cd: 5, sec_nm: 'A', cls_cd: 12, cls_nm: 'XII' },
];
const year = (acdm_cd: number, strt: number): YearChoice => ({ acdm_cd, acdm_strt_yr: strt, acdm_end_yr: strt + 1, acdm_sts: true, label: `${strt}` });

describe('promotion screen choices', () => {
  it('sends a section to the same name in the next class, else that class first section, and the last class nowhere', () => {
    expect(defaultTarget(sections, sections[0])).toBe(3);
    expect(defaultTarget(sections, sections[1])).toBe(3);
    expect(defaultTarget(sections, sections[3])).toBe(5);
    expect(defaultTarget(sections, sections[4])).toBeNull();
  });

  it('takes the next year by start year, none when it is not opened', () => {
    const years = [year(3, 2027), year(1, 2025), year(2, 2026)];
    expect(nextYearOf(years, 1)?.acdm_cd).toBe(2);
    expect(nextYearOf(years, 3)).toBeNull();
  });

  it('runs the ticked children of each section and leaves out a section with all held back', () => {
    const kid = (stud_cd: number) => ({ stud_cd, stud_fs_nm: `K${stud_cd}`, stud_adm_cd: `A${stud_cd}`, stud_roll_nmb: stud_cd, new_roll: stud_cd });
    const preview = {
      moves: [
        { from: sections[0], to: sections[2], moving: [kid(1), kid(2)], already: [], held: [] },
        { from: sections[1], to: sections[3], moving: [kid(3)], already: [], held: [] },
      ],
    } as unknown as PromotionPreview;
    expect(movesToRun(preview, new Set([2, 3]))).toEqual([{ frm_sec_cd: 1, to_sec_cd: 3, stud_cds: [1] }]);
  });
});
