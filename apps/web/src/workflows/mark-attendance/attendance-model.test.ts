import { describe, expect, it } from 'vitest';
import { allPresent, changedCount, countMarks, presentShare, savePayload, setRemarks, setStatus, statusForKey, type SheetRow } from './attendance-model';

const row = (stud_cd: number, status: SheetRow['status'], extra: Partial<SheetRow> = {}): SheetRow => ({
  stud_cd,
  stud_fs_nm: `Student ${stud_cd}`,
  stud_adm_cd: `ADM${stud_cd}`,
  stud_roll_nmb: stud_cd,
  status,
  remarks: '',
  on_leave: false,
  saved: true,
  ...extra,
});

describe('attendance sheet model', () => {
  const rows = [row(1, 'Present'), row(2, 'Absent', { remarks: 'Fever' }), row(3, 'OD'), row(4, 'Absent', { on_leave: true, remarks: 'On leave' })];

  it('counts present, absent and on duty', () => {
    expect(countMarks(rows)).toEqual({ present: 1, absent: 2, od: 1, total: 4 });
    expect(countMarks([])).toEqual({ present: 0, absent: 0, od: 0, total: 0 });
  });

  it('gives the present share with one decimal, on duty counted present', () => {
    expect(presentShare(countMarks(rows))).toBe('50.0');
    expect(presentShare(countMarks([row(1, 'Present'), row(2, 'Present'), row(3, 'Absent')]))).toBe('66.7');
    expect(presentShare(countMarks([]))).toBe('0.0');
  });

  it('marks one row without touching the others', () => {
    const next = setStatus(rows, 1, 'Absent');
    expect(next.map((r) => r.status)).toEqual(['Absent', 'Absent', 'OD', 'Absent']);
    expect(rows[0].status).toBe('Present');
    expect(setRemarks(rows, 3, 'Sports meet')[2].remarks).toBe('Sports meet');
  });

  it('marks all present except a student on approved leave, clearing absence remarks', () => {
    const next = allPresent(rows);
    expect(next.map((r) => [r.status, r.remarks])).toEqual([
      ['Present', ''],
      ['Present', ''],
      ['Present', ''],
      ['Absent', 'On leave'],
    ]);
  });

  it('reads P, A and O keys', () => {
    expect(['p', 'A', 'o', 'x'].map(statusForKey)).toEqual(['Present', 'Absent', 'OD', null]);
  });

  it('builds the save body with empty remarks as null', () => {
    expect(savePayload({ cls_cd: 6, sec_cd: 1, date: '2026-11-20' }, [row(1, 'Present', { remarks: '  ' }), row(2, 'Absent', { remarks: ' Fever ' })])).toEqual({
      cls_cd: 6,
      sec_cd: 1,
      date: '2026-11-20',
      rows: [
        { stud_cd: 1, status: 'Present', remarks: null },
        { stud_cd: 2, status: 'Absent', remarks: 'Fever' },
      ],
    });
  });

  it('counts what a save would change: everything on a new sheet, edits on a saved one', () => {
    expect(changedCount(rows, rows)).toBe(0);
    expect(changedCount(rows, setStatus(rows, 1, 'OD'))).toBe(1);
    const fresh = rows.map((r) => ({ ...r, saved: false }));
    expect(changedCount(fresh, fresh)).toBe(4);
  });
});
