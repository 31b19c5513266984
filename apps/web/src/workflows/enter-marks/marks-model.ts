/** Shapes of the marks entry sheet and the mark list, and the pure logic their screens share. */

export interface ExamChoice {
  exm_cd: number;
  exm_nm: string;
  cls_nm: string;
  sec_nm: string;
  exm_strt_dt: string;
  exm_end_dt: string;
}

/**
 * How an exam is named in a dropdown or a title: its name and its class-section, once. Offices often name
 * an exam for its section already ('Quarterly Examination - VIII B'); repeating it reads as a mistake.
 */
export function examLabel(e: Pick<ExamChoice, 'exm_nm' | 'cls_nm' | 'sec_nm'>): string {
  const section = `${e.cls_nm} ${e.sec_nm}`;
  return e.exm_nm.toLowerCase().replace(/\s+/g, ' ').endsWith(section.toLowerCase()) ? e.exm_nm : `${e.exm_nm} (${section})`;
}

export interface MarkRowChoice {
  mrk_cd: number;
  sub_cd: number;
  sub_nm: string;
  mrk_max_mrk: number;
  mrk_min_mrk: number;
}

export interface SheetRow {
  stud_cd: number;
  stud_fs_nm: string;
  stud_adm_cd: string;
  stud_roll_nmb: number | null;
  marks: string | null;
  absent: boolean;
  remarks: string | null;
  saved: boolean;
}

export interface Sheet extends MarkRowChoice {
  exm_cd: number;
  exm_nm: string;
  cls_nm: string;
  sec_nm: string;
  saved: boolean;
  rows: SheetRow[];
}

/** A row as typed: marks are the input's text, '' when empty. */
export interface EntryRow {
  stud_cd: number;
  stud_fs_nm: string;
  stud_roll_nmb: number | null;
  marks: string;
  absent: boolean;
  remarks: string;
}

export type MarkResult = 'Pass' | 'Fail' | 'Incomplete';

export interface MarkListRow {
  stud_cd: number;
  stud_roll_nmb: number | null;
  stud_fs_nm: string;
  stud_adm_cd: string;
  marks: Record<string, { marks: string | null; absent: boolean }>;
  total: string;
  max_total: number;
  percentage: string | null;
  result: MarkResult | null;
  rank: number | null;
}

export interface MarkList {
  exam: ExamChoice;
  subjects: MarkRowChoice[];
  rows: MarkListRow[];
}

/**
 * Marks as people write them: '45.50' -> '45.5', '17.00' -> '17'. The server keeps two decimals; a mark
 * sheet does not print the zeros.
 */
export function formatMarks(v: string | null | undefined): string {
  if (v === null || v === undefined || v === '') return '';
  if (!/^\d+(\.\d+)?$/.test(v)) return v;
  return v.includes('.') ? v.replace(/0+$/, '').replace(/\.$/, '') : v;
}

/** A percentage as sent (2 decimals, computed by the server), with the sign: '46.67 %'. */
export const formatPercentage = (v: string | null): string => (v === null ? '' : `${v} %`);

/** What a typed mark means: empty, a whole or half mark within the maximum, or why not. */
export type MarksCheck = { kind: 'empty' } | { kind: 'ok'; halves: number } | { kind: 'bad'; reason: 'format' | 'above' };

export function checkMarks(text: string, max: number): MarksCheck {
  const v = text.trim();
  if (v === '') return { kind: 'empty' };
  if (!/^\d{1,4}(\.(0{1,2}|50?))?$/.test(v)) return { kind: 'bad', reason: 'format' };
  // Counted in half marks, as integers: 35 and 34.5 compare without float rounding.
  const halves = Math.round(Number(v) * 2);
  return halves > max * 2 ? { kind: 'bad', reason: 'above' } : { kind: 'ok', halves };
}

/** Live pass/fail of one typed row, as the mark list will judge it; null while nothing is typed. */
export function entryResult(row: Pick<EntryRow, 'marks' | 'absent'>, max: number, pass: number): 'Pass' | 'Fail' | null {
  if (row.absent) return 'Fail';
  const c = checkMarks(row.marks, max);
  if (c.kind !== 'ok') return null;
  return c.halves >= pass * 2 ? 'Pass' : 'Fail';
}

export const entryRows = (sheet: Sheet): EntryRow[] =>
  sheet.rows.map((r) => ({ stud_cd: r.stud_cd, stud_fs_nm: r.stud_fs_nm, stud_roll_nmb: r.stud_roll_nmb, marks: formatMarks(r.marks), absent: r.absent, remarks: r.remarks ?? '' }));

/** Rows whose typed value differs from what is saved (the Save button's count). */
export function changedCount(sheet: Sheet, rows: readonly EntryRow[]): number {
  const saved = new Map(entryRows(sheet).map((r) => [r.stud_cd, r]));
  return rows.filter((r) => {
    const s = saved.get(r.stud_cd);
    return !s || s.absent !== r.absent || s.remarks !== r.remarks.trim() || Number(s.marks || -1) !== Number(r.marks.trim() || -1);
  }).length;
}

/** Rows the typist has a problem in: marks that are not a whole or half mark, or above the maximum. */
export const badRows = (rows: readonly EntryRow[], max: number): number[] =>
  rows.filter((r) => !r.absent && checkMarks(r.marks, max).kind === 'bad').map((r) => r.stud_cd);

export function savePayload(sheet: Pick<Sheet, 'mrk_cd'>, rows: readonly EntryRow[]) {
  return {
    mrk_cd: sheet.mrk_cd,
    rows: rows.map((r) => ({ stud_cd: r.stud_cd, marks: r.absent || r.marks.trim() === '' ? null : r.marks.trim(), absent: r.absent, remarks: r.remarks.trim() || null })),
  };
}

/** One flat record per student for the grid and the export: a column per subject, m_{mrk_cd}. */
export type FlatMarkRow = Record<string, string | number | null>;

export const subjectColumn = (mrkCd: number): string => `m_${mrkCd}`;

export function flattenMarkList(list: MarkList, absentText: string): FlatMarkRow[] {
  return list.rows.map((r) => {
    const flat: FlatMarkRow = {
      stud_cd: r.stud_cd,
      stud_roll_nmb: r.stud_roll_nmb,
      stud_fs_nm: r.stud_fs_nm,
      stud_adm_cd: r.stud_adm_cd,
      total: formatMarks(r.total),
      max_total: r.max_total,
      percentage: r.percentage,
      result: r.result,
      rank: r.rank,
    };
    for (const s of list.subjects) {
      const m = r.marks[String(s.mrk_cd)];
      flat[subjectColumn(s.mrk_cd)] = !m ? null : m.absent ? absentText : formatMarks(m.marks);
    }
    return flat;
  });
}

/** Did this subject's mark fail (absent, or below the pass mark)? For the list's red cells. */
export function failedSubject(row: MarkListRow, subject: MarkRowChoice): boolean {
  const m = row.marks[String(subject.mrk_cd)];
  if (!m) return false;
  // Marks come with two decimals at most and pass marks are whole: a float comparison is exact here.
  return m.absent || Number(m.marks) < subject.mrk_min_mrk;
}

export interface ListColumn {
  field: string;
  label: string;
}

/** The list's columns in order: the student, a column per subject (with its maximum), the outcome. */
export function markListColumns(list: MarkList, label: (key: string, english: string) => string): ListColumn[] {
  return [
    { field: 'stud_roll_nmb', label: label('marks.col.roll', 'Roll No') },
    { field: 'stud_fs_nm', label: label('marks.col.name', 'Student Name') },
    { field: 'stud_adm_cd', label: label('marks.col.adm', 'Admission No') },
    ...list.subjects.map((s) => ({ field: subjectColumn(s.mrk_cd), label: `${s.sub_nm} (${s.mrk_max_mrk})` })),
    { field: 'total', label: label('marks.col.total', 'Total') },
    { field: 'max_total', label: label('marks.col.max_total', 'Maximum') },
    { field: 'percentage', label: label('marks.col.percentage', 'Percentage') },
    { field: 'result', label: label('marks.col.result', 'Result') },
    { field: 'rank', label: label('marks.col.rank', 'Rank') },
  ];
}

/** The exam a mark list opens on: the latest (by start) whose last day has passed, else none. */
export function latestEnded(exams: readonly ExamChoice[], today: string): string | null {
  const ended = exams.filter((e) => e.exm_end_dt <= today).sort((a, b) => b.exm_end_dt.localeCompare(a.exm_end_dt) || b.exm_cd - a.exm_cd);
  return ended[0] ? String(ended[0].exm_cd) : null;
}
