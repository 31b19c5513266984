import dayjs from 'dayjs';

import type { ScheduleAnswer, ScheduleEvent, ScheduleKind } from '@campus/entities/features/schedule-event.entity';

/** One entry of GET /api/schedule/, as the server declares it. */
export type ScheduleEntry = ScheduleEvent;
export type { ScheduleAnswer, ScheduleKind };

export const scheduleKinds: readonly ScheduleKind[] = ['holiday', 'exam', 'fee_due', 'circular', 'own'];

/** A Mantine palette colour per kind: the legend's badge and the event's background agree. */
export const kindColor: Record<ScheduleKind, string> = {
  holiday: 'red',
  exam: 'violet',
  fee_due: 'orange',
  circular: 'teal',
  own: 'blue',
};

/** What FullCalendar is given for one entry (its EventInput, the fields used here). */
export interface CalendarInput {
  id: string;
  title: string;
  start: string;
  end: string;
  allDay: boolean;
  editable: boolean;
  backgroundColor: string;
  borderColor: string;
  classNames: string[];
  extendedProps: { entry: ScheduleEntry };
}

/**
 * An entry as FullCalendar wants it: an all-day end is exclusive there (the day after the last), a timed
 * entry runs from its first day's start time to its last day's end time. Only own entries can be moved.
 */
export function toCalendarInput(e: ScheduleEntry, sectionsLabel: (n: number) => string = (n) => `${n}`): CalendarInput {
  const timed = !e.allDay && e.startTime !== null && e.endTime !== null;
  const color = `var(--mantine-color-${kindColor[e.kind]}-filled)`;
  return {
    id: e.id,
    title: e.keys.length > 1 ? `${e.title} (${sectionsLabel(e.keys.length)})` : e.title,
    start: timed ? `${e.start}T${e.startTime}` : e.start,
    end: timed ? `${e.end}T${e.endTime}` : dayjs(e.end).add(1, 'day').format('YYYY-MM-DD'),
    allDay: !timed,
    editable: e.kind === 'own',
    backgroundColor: color,
    borderColor: color,
    classNames: [`schedule-${e.kind}`],
    extendedProps: { entry: e },
  };
}

/** The range a view shows (FullCalendar's end is exclusive) as the API's inclusive from/to. */
export function rangeOf(start: Date, endExclusive: Date): { from: string; to: string } {
  return { from: dayjs(start).format('YYYY-MM-DD'), to: dayjs(endExclusive).subtract(1, 'day').format('YYYY-MM-DD') };
}

/** The fields of an own entry that a move, a resize or a new selection sets. */
export interface EntryDates {
  sch_evt_frm_dt: string;
  sch_evt_to_dt: string;
  sch_evt_frm_tm: string | null;
  sch_evt_to_tm: string | null;
}

/**
 * Where an entry lies after a drop, a resize or a selection (FullCalendar's dates, end exclusive for all-day
 * and possibly absent: one day, or an hour for a timed entry).
 */
export function datesOf(start: Date, end: Date | null, allDay: boolean): EntryDates {
  const s = dayjs(start);
  if (allDay) {
    const last = end ? dayjs(end).subtract(1, 'day') : s;
    return { sch_evt_frm_dt: s.format('YYYY-MM-DD'), sch_evt_to_dt: (last.isBefore(s) ? s : last).format('YYYY-MM-DD'), sch_evt_frm_tm: null, sch_evt_to_tm: null };
  }
  const e = end ? dayjs(end) : s.add(1, 'hour');
  return { sch_evt_frm_dt: s.format('YYYY-MM-DD'), sch_evt_to_dt: e.format('YYYY-MM-DD'), sch_evt_frm_tm: s.format('HH:mm:ss'), sch_evt_to_tm: e.format('HH:mm:ss') };
}

export type ScheduleView = 'dayGridMonth' | 'timeGridWeek' | 'timeGridDay' | 'listWeek';

/** On a phone (<= 768 px) a month grid has no room for titles: the week's list is the default. */
export const defaultView = (narrow: boolean): ScheduleView => (narrow ? 'listWeek' : 'dayGridMonth');

const views: readonly ScheduleView[] = ['dayGridMonth', 'timeGridWeek', 'timeGridDay', 'listWeek'];

/** A view named in the address (?view=), when it is one of the four; the screen's default otherwise. */
export const viewOrDefault = (asked: string | null, narrow: boolean): ScheduleView =>
  views.find((v) => v === asked) ?? defaultView(narrow);
