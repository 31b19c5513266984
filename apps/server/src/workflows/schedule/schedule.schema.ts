/** What GET /api/schedule/ answers: one entry per row of a source, or an own entry of the user. */
export type ScheduleKind = 'holiday' | 'exam' | 'fee_due' | 'circular' | 'own';

export interface ScheduleEvent {
  /** `${kind}-${key}`: unique across the sources. */
  id: string;
  kind: ScheduleKind;
  /** The underlying row's key. */
  key: number;
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
