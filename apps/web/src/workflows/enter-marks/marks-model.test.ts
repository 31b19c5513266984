import { describe, expect, it } from 'vitest';
import {
  badRows,
  changedCount,
  checkMarks,
  examLabel,
  entryResult,
  entryRows,
  failedSubject,
  flattenMarkList,
  formatMarks,
  formatPercentage,
  latestEnded,
  markListColumns,
  savePayload,
  type MarkList,
  type Sheet,
} from './marks-model';

const sheet: Sheet = {
  mrk_cd: 7,
  exm_cd: 3,
  exm_nm: 'Quarterly X A',
  cls_nm: 'X',
  sec_nm: 'A',
  sub_cd: 2,
  sub_nm: 'Science',
  mrk_max_mrk: 50,
  mrk_min_mrk: 18,
  saved: true,
  rows: [
    { stud_cd: 1, stud_fs_nm: 'Arun', stud_adm_cd: 'A1', stud_roll_nmb: 1, marks: '45.50', absent: false, remarks: null, saved: true },
    { stud_cd: 2, stud_fs_nm: 'Bala', stud_adm_cd: 'A2', stud_roll_nmb: 2, marks: null, absent: true, remarks: 'Fever', saved: true },
    { stud_cd: 3, stud_fs_nm: 'Chitra', stud_adm_cd: 'A3', stud_roll_nmb: 3, marks: null, absent: false, remarks: null, saved: false },
  ],
};

describe('marks display', () => {
  it('drops the stored zeros a mark sheet does not print', () => {
    expect(formatMarks('45.50')).toBe('45.5');
    expect(formatMarks('17.00')).toBe('17');
    expect(formatMarks('100')).toBe('100');
    expect(formatMarks('0.00')).toBe('0');
    expect(formatMarks(null)).toBe('');
  });

  it("shows the server's percentage as sent, 2 decimals and a sign", () => {
    expect(formatPercentage('46.67')).toBe('46.67 %');
    expect(formatPercentage('100.00')).toBe('100.00 %');
    expect(formatPercentage(null)).toBe('');
  });
});

describe('typing marks', () => {
  it('accepts whole and half marks up to the maximum only', () => {
    expect(checkMarks('', 50)).toEqual({ kind: 'empty' });
    expect(checkMarks(' 45.5 ', 50)).toEqual({ kind: 'ok', halves: 91 });
    expect(checkMarks('50', 50)).toEqual({ kind: 'ok', halves: 100 });
    expect(checkMarks('50.5', 50)).toEqual({ kind: 'bad', reason: 'above' });
    expect(checkMarks('12.25', 50)).toEqual({ kind: 'bad', reason: 'format' });
    expect(checkMarks('-1', 50)).toEqual({ kind: 'bad', reason: 'format' });
    expect(checkMarks('1e1', 50)).toEqual({ kind: 'bad', reason: 'format' });
  });

  it('shows pass or fail live: the pass mark itself passes, half a mark below fails, absent fails', () => {
    expect(entryResult({ marks: '18', absent: false }, 50, 18)).toBe('Pass');
    expect(entryResult({ marks: '17.5', absent: false }, 50, 18)).toBe('Fail');
    expect(entryResult({ marks: '', absent: true }, 50, 18)).toBe('Fail');
    expect(entryResult({ marks: '', absent: false }, 50, 18)).toBeNull();
    expect(entryResult({ marks: '51', absent: false }, 50, 18)).toBeNull();
  });

  it('counts changes against the saved sheet and sends absent rows without marks', () => {
    const rows = entryRows(sheet);
    expect(rows[0].marks).toBe('45.5');
    expect(changedCount(sheet, rows)).toBe(0);
    const typed = rows.map((r) => (r.stud_cd === 3 ? { ...r, marks: '30' } : r.stud_cd === 1 ? { ...r, marks: '45.50' } : r));
    expect(changedCount(sheet, typed)).toBe(1);
    expect(badRows([{ ...rows[2], marks: '60' }], 50)).toEqual([3]);
    const withAbsentMarks = typed.map((r) => (r.stud_cd === 2 ? { ...r, marks: '12' } : r));
    expect(savePayload(sheet, withAbsentMarks).rows).toEqual([
      { stud_cd: 1, marks: '45.50', absent: false, remarks: null },
      { stud_cd: 2, marks: null, absent: true, remarks: 'Fever' },
      { stud_cd: 3, marks: '30', absent: false, remarks: null },
    ]);
  });
});

describe('mark list rows', () => {
  const list: MarkList = {
    exam: { exm_cd: 3, exm_nm: 'Quarterly X A', cls_nm: 'X', sec_nm: 'A', exm_strt_dt: '2025-09-15', exm_end_dt: '2025-09-20' },
    subjects: [
      { mrk_cd: 6, sub_cd: 1, sub_nm: 'Maths', mrk_max_mrk: 100, mrk_min_mrk: 35 },
      { mrk_cd: 7, sub_cd: 2, sub_nm: 'Science', mrk_max_mrk: 50, mrk_min_mrk: 18 },
    ],
    rows: [
      {
        stud_cd: 1,
        stud_roll_nmb: 1,
        stud_fs_nm: 'Arun',
        stud_adm_cd: 'A1',
        marks: { '6': { marks: '34.50', absent: false }, '7': { marks: null, absent: true } },
        total: '34.50',
        max_total: 150,
        percentage: '23.00',
        result: 'Fail',
        rank: null,
      },
    ],
  };

  it('flattens to a column per subject, absent in words, marks without stored zeros', () => {
    expect(flattenMarkList(list, 'AB')).toEqual([
      { stud_cd: 1, stud_roll_nmb: 1, stud_fs_nm: 'Arun', stud_adm_cd: 'A1', m_6: '34.5', m_7: 'AB', total: '34.5', max_total: 150, percentage: '23.00', result: 'Fail', rank: null },
    ]);
  });

  it('marks a subject failed when below its pass mark or absent', () => {
    expect(failedSubject(list.rows[0], list.subjects[0])).toBe(true);
    expect(failedSubject(list.rows[0], list.subjects[1])).toBe(true);
    expect(failedSubject({ ...list.rows[0], marks: { '6': { marks: '35.00', absent: false } } }, list.subjects[0])).toBe(false);
  });
});

describe('the mark list columns', () => {
  it('lists a column per subject with its maximum, between the student and the outcome', () => {
    const list = { exam: {} as MarkList['exam'], subjects: [{ mrk_cd: 6, sub_cd: 1, sub_nm: 'Maths', mrk_max_mrk: 100, mrk_min_mrk: 35 }], rows: [] };
    const cols = markListColumns(list, (_k, english) => english);
    expect(cols.map((c) => c.label)).toEqual(['Roll No', 'Student Name', 'Admission No', 'Maths (100)', 'Total', 'Maximum', 'Percentage', 'Result', 'Rank']);
    expect(cols[3].field).toBe('m_6');
  });
});

describe('the exam a mark list opens on', () => {
  const exam = (exm_cd: number, exm_strt_dt: string, exm_end_dt: string) => ({ exm_cd, exm_nm: `E${exm_cd}`, cls_nm: 'VI', sec_nm: 'A', exm_strt_dt, exm_end_dt });
  it('is the latest exam already over, never one still running or to come', () => {
    const list = [exam(3, '2026-12-01', '2026-12-10'), exam(2, '2026-11-18', '2026-11-25'), exam(1, '2026-09-10', '2026-09-20')];
    expect(latestEnded(list, '2026-11-22')).toBe('1');
    expect(latestEnded(list, '2026-11-25')).toBe('2');
    expect(latestEnded([exam(3, '2026-12-01', '2026-12-10')], '2026-11-22')).toBeNull();
  });
});

describe('examLabel', () => {
  it('names the class-section once, whether or not the exam name already carries it', () => {
    expect(examLabel({ exm_nm: 'Quarterly Examination - VIII B', cls_nm: 'VIII', sec_nm: 'B' })).toBe('Quarterly Examination - VIII B');
    expect(examLabel({ exm_nm: 'Unit Test 1', cls_nm: 'VIII', sec_nm: 'B' })).toBe('Unit Test 1 (VIII B)');
    // Another section's name in the exam's own name is not this section.
    expect(examLabel({ exm_nm: 'Quarterly Examination - VIII A', cls_nm: 'VIII', sec_nm: 'B' })).toBe('Quarterly Examination - VIII A (VIII B)');
  });
});
