import { code, date, defineEntity, text, time } from '../define';

/**
 * A signed-in user's own entry in the schedule (a meeting, a reminder). Only its creator lists, moves or
 * deletes it: ownership 'creator', applied always by the schedule's routes (workflows/schedule), which are
 * the only ones it has: no page grants it, so no generic route could show it to anyone else.
 */
export const scheduleEvent = defineEntity({
  name: 'schedule_event',
  table: 'schedule_event',
  key: 'sch_evt_cd',
  // The user's planner follows the institute they are in, not the academic year (a June meeting is planned in May).
  scope: 'institute',
  label: 'Schedule Event',
  title: 'sch_evt_ttl',
  fields: {
    sch_evt_cd: code(),
    sch_evt_ttl: text({ label: 'Title', required: true, max: 200 }),
    sch_evt_frm_dt: date({ label: 'From Date', required: true }),
    sch_evt_to_dt: date({ label: 'To Date', required: true, notBefore: 'sch_evt_frm_dt' }),
    // Both empty: an all-day entry; otherwise the times of its first and last day.
    sch_evt_frm_tm: time({ label: 'From Time' }),
    sch_evt_to_tm: time({ label: 'To Time' }),
    sch_evt_dscr: text({ label: 'Description', multiline: true, max: 1000 }),
  },
  ownership: 'creator',
  routes: [],
  defaultSort: { field: 'sch_evt_frm_dt', dir: 'asc' },
});

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

/** The answer of GET /api/schedule/?from&to. */
export interface ScheduleAnswer {
  from: string;
  to: string;
  events: ScheduleEvent[];
}
