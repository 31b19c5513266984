import { describe, expect, it } from 'vitest';
import { filterStudents, selectedIn, toggle, toggleShown, type MovableStudent } from './interchange-model';

const list: MovableStudent[] = [
  { stud_cd: 1, stud_fs_nm: 'Arun Kumar', stud_adm_cd: 'SCH/2024/00001', stud_roll_nmb: 1 },
  { stud_cd: 2, stud_fs_nm: 'Meena Raj', stud_adm_cd: 'SCH/2025/00002', stud_roll_nmb: 2 },
  { stud_cd: 3, stud_fs_nm: 'Zara Khan', stud_adm_cd: 'SCH/2024/00003', stud_roll_nmb: 12 },
];

describe('interchange selection', () => {
  it('searches by name, admission number or exact roll number', () => {
    expect(filterStudents(list, '  ').map((s) => s.stud_cd)).toEqual([1, 2, 3]);
    expect(filterStudents(list, 'meena').map((s) => s.stud_cd)).toEqual([2]);
    expect(filterStudents(list, '2024').map((s) => s.stud_cd)).toEqual([1, 3]);
    // Roll numbers match exactly: '1' is not roll 12.
    expect(filterStudents(list, '1').map((s) => s.stud_cd)).toEqual([1]);
    expect(filterStudents(list, '12').map((s) => s.stud_cd)).toEqual([3]);
  });

  it('ticks one, and all shown without touching hidden ones', () => {
    expect([...toggle(new Set([1]), 1)]).toEqual([]);
    expect([...toggle(new Set([1]), 2)].sort()).toEqual([1, 2]);
    const shown = filterStudents(list, 'a');
    expect([...toggleShown(new Set(), shown, true)].sort()).toEqual([1, 2, 3]);
    expect([...toggleShown(new Set([1, 2, 3]), filterStudents(list, 'meena'), false)].sort()).toEqual([1, 3]);
  });

  it('sends only ticked students still in the list, in list order', () => {
    expect(selectedIn(new Set([3, 1, 99]), list)).toEqual([1, 3]);
  });
});
