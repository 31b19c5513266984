export type AttendanceStatus = 'Present' | 'Absent' | 'OD';
export const attendanceStatuses: readonly AttendanceStatus[] = ['Present', 'Absent', 'OD'];

/** One student's line of the sheet, as GET /api/student_attendance/sheet answers it. */
export interface SheetRow {
  stud_cd: number;
  stud_fs_nm: string;
  stud_adm_cd: string;
  stud_roll_nmb: number | null;
  status: AttendanceStatus;
  remarks: string;
  on_leave: boolean;
  saved: boolean;
}

export interface Sheet {
  cls_cd: number;
  sec_cd: number;
  cls_nm: string;
  sec_nm: string;
  date: string;
  today: string;
  sunday: boolean;
  /** Why the day cannot be saved (future, holiday, outside the year), or null. */
  refusal: string | null;
  saved: boolean;
  marked_by: string | null;
  rows: SheetRow[];
}

export interface Counts {
  present: number;
  absent: number;
  od: number;
  total: number;
}

export function countMarks(rows: readonly Pick<SheetRow, 'status'>[]): Counts {
  const c: Counts = { present: 0, absent: 0, od: 0, total: rows.length };
  for (const r of rows) {
    if (r.status === 'Present') c.present++;
    else if (r.status === 'Absent') c.absent++;
    else c.od++;
  }
  return c;
}

/** Present percentage with one decimal, on duty counting as present (the student is at school's work). */
export function presentShare(c: Counts): string {
  if (c.total === 0) return '0.0';
  return (Math.round(((c.present + c.od) * 1000) / c.total) / 10).toFixed(1);
}

export function setStatus(rows: readonly SheetRow[], studCd: number, status: AttendanceStatus): SheetRow[] {
  return rows.map((r) => (r.stud_cd === studCd ? { ...r, status } : r));
}

export function setRemarks(rows: readonly SheetRow[], studCd: number, remarks: string): SheetRow[] {
  return rows.map((r) => (r.stud_cd === studCd ? { ...r, remarks } : r));
}

/** 'All present' clears absences and their leave remark, but keeps a student on approved leave absent. */
export function allPresent(rows: readonly SheetRow[]): SheetRow[] {
  return rows.map((r) => (r.on_leave ? r : { ...r, status: 'Present', remarks: r.status === 'Present' ? r.remarks : '' }));
}

/** The marking keys of a row: P, A and O (on duty). */
export function statusForKey(key: string): AttendanceStatus | null {
  const k = key.toLowerCase();
  return k === 'p' ? 'Present' : k === 'a' ? 'Absent' : k === 'o' ? 'OD' : null;
}

export function savePayload(sheet: Pick<Sheet, 'cls_cd' | 'sec_cd' | 'date'>, rows: readonly SheetRow[]) {
  return {
    cls_cd: sheet.cls_cd,
    sec_cd: sheet.sec_cd,
    date: sheet.date,
    rows: rows.map((r) => ({ stud_cd: r.stud_cd, status: r.status, remarks: r.remarks.trim() || null })),
  };
}

/** Rows whose mark differs from what the sheet was loaded with: what a Save would change. */
export function changedCount(loaded: readonly SheetRow[], now: readonly SheetRow[]): number {
  return now.filter((r) => {
    const was = loaded.find((l) => l.stud_cd === r.stud_cd);
    return !was || !was.saved || was.status !== r.status || was.remarks.trim() !== r.remarks.trim();
  }).length;
}
