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
