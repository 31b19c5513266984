import { describe, expect, it } from 'vitest';
import { datesOf, defaultView, rangeOf, toCalendarInput, viewOrDefault, type ScheduleEntry } from './schedule-model';

const entry = (over: Partial<ScheduleEntry>): ScheduleEntry => ({
  id: 'holiday-1',
  kind: 'holiday',
  key: 1,
  keys: [1],
  detail: null,
  title: 'Pongal',
  type: 'Festival',
  start: '2026-01-14',
  end: '2026-01-16',
  allDay: true,
  startTime: null,
  endTime: null,
  link: '/sms/institute/holiday/view/1',
  rowVer: null,
  ...over,
});

describe('schedule model', () => {
  it('gives FullCalendar the day after the last day as the end of an all-day entry (its end is exclusive)', () => {
    const c = toCalendarInput(entry({}));
    expect(c).toMatchObject({ start: '2026-01-14', end: '2026-01-17', allDay: true, editable: false });
    // The last day of a month rolls over into the next.
    expect(toCalendarInput(entry({ start: '2026-01-31', end: '2026-01-31' })).end).toBe('2026-02-01');
  });

  it('lets only own entries be dragged, and places a timed one at its times', () => {
    const own = toCalendarInput(entry({ id: 'own-5', kind: 'own', key: 5, start: '2026-01-20', end: '2026-01-20', allDay: false, startTime: '15:30:00', endTime: '16:30:00', rowVer: 2 }));
    expect(own).toMatchObject({ start: '2026-01-20T15:30:00', end: '2026-01-20T16:30:00', allDay: false, editable: true });
    expect(toCalendarInput(entry({ kind: 'exam' })).editable).toBe(false);
  });

  it('names how many sections sit an exam that stands for several', () => {
    const exam = entry({ kind: 'exam', title: 'Quarterly Examination', keys: [4, 5, 6], detail: 'Quarterly - VI A, Quarterly - VI B, Quarterly - VII A' });
    expect(toCalendarInput(exam, (n) => `${n} sections`).title).toBe('Quarterly Examination (3 sections)');
    expect(toCalendarInput(entry({ kind: 'exam', title: 'Quarterly - VI A', keys: [4] })).title).toBe('Quarterly - VI A');
  });

  it("turns a view's range into the API's inclusive from and to", () => {
    expect(rangeOf(new Date(2026, 0, 25), new Date(2026, 2, 8))).toEqual({ from: '2026-01-25', to: '2026-03-07' });
  });

  it('reads a drop or a selection back as dates and times', () => {
    // A click on one day: FullCalendar selects that day, end the next midnight.
    expect(datesOf(new Date(2026, 0, 20), new Date(2026, 0, 21), true)).toEqual({ sch_evt_frm_dt: '2026-01-20', sch_evt_to_dt: '2026-01-20', sch_evt_frm_tm: null, sch_evt_to_tm: null });
    // Dropped all-day entry without an end: one day.
    expect(datesOf(new Date(2026, 0, 22), null, true).sch_evt_to_dt).toBe('2026-01-22');
    expect(datesOf(new Date(2026, 0, 20, 9, 0), new Date(2026, 0, 20, 10, 30), false)).toEqual({
      sch_evt_frm_dt: '2026-01-20',
      sch_evt_to_dt: '2026-01-20',
      sch_evt_frm_tm: '09:00:00',
      sch_evt_to_tm: '10:30:00',
    });
    // A timed entry dropped without an end keeps an hour.
    expect(datesOf(new Date(2026, 0, 20, 9, 0), null, false).sch_evt_to_tm).toBe('10:00:00');
  });

  it('opens a list on a phone and the month elsewhere', () => {
    expect(defaultView(true)).toBe('listWeek');
    expect(defaultView(false)).toBe('dayGridMonth');
    expect(viewOrDefault('timeGridDay', false)).toBe('timeGridDay');
    expect(viewOrDefault('yearGrid', true)).toBe('listWeek');
  });
});
