/** What GET /api/schedule/ answers: one entry per row of a source, or an own entry of the user. */
export type ScheduleKind = 'holiday' | 'exam' | 'fee_due' | 'circular' | 'own';

export interface ScheduleEvent {
  /** `${kind}-${key}`: unique across the sources. */
  id: string;
  kind: ScheduleKind;
  /** The underlying row's key (the first one's, for an entry that stands for several rows). */
  key: number;
  /**
   * Every row the entry stands for: one, except for exams, which are one entry per exam type and dates
   * ('Quarterly Examination', 24 sections) rather than 24 bars on each day.
   */
  keys: number[];
  /** The rows' own names when the entry stands for several (the exams' 'Quarterly - VI A'...), for a tooltip. */
  detail: string | null;
  title: string;
  /** A holiday's type (Public, Festival...), 'Exam', 'Fee Due', 'Circular' or 'Own': what the colour follows. */
  type: string;
  /** First and last day, both inclusive (YYYY-MM-DD). */
  start: string;
  end: string;
  allDay: boolean;
  /** hh:mm:ss of an own entry with times; null all day. */
  startTime: string | null;
  endTime: string | null;
  /** The row's view page (/sms/institute/holiday/view/12) when the user may open it; null otherwise. */
  link: string | null;
  /** An own entry's row_ver, sent back with a move; null for the other kinds. */
  rowVer: number | null;
  description?: string | null;
}

/** A month view asks six weeks (42 days); three months is the most one request may ask. */
export const MAX_RANGE_DAYS = 93;

/** Days from `from` to `to`, both counted. */
export const rangeDays = (from: string, to: string): number => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
