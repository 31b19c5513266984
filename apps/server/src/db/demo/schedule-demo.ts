import { addDays } from './calendar';
import type { DemoScope } from './demo-scope';
import type { Row } from './insert-rows';

/** [days from today, days long, title, from time, to time, note]; times null = all day. */
type Plan = readonly [number, number, string, string | null, string | null, string | null];

const adminPlan: readonly Plan[] = [
  [1, 1, 'Staff meeting', '15:45:00', '16:45:00', 'Staff room; agenda: the coming exams and the annual day.'],
  [6, 1, 'Meet the bus contractor', '11:00:00', '11:30:00', null],
  [13, 2, 'School inspection', null, null, 'District Educational Officer; keep the registers ready.'],
  [-4, 1, 'Management committee', '10:00:00', '12:00:00', null],
];

const teacherPlan: readonly Plan[] = [
  [2, 1, 'Parents meeting', '14:00:00', '15:30:00', 'Progress cards of the last test.'],
  [3, 3, 'Set the question paper', null, null, null],
  [9, 1, 'Science fair duty', null, null, null],
];

const rowsOf = (d: DemoScope, usr: number, plan: readonly Plan[]): Row[] =>
  plan.map(([from, days, title, fromTm, toTm, note]) => ({
    inst_cd: d.instCd,
    sch_evt_ttl: title,
    sch_evt_frm_dt: addDays(d.today, from),
    sch_evt_to_dt: addDays(d.today, from + days - 1),
    sch_evt_frm_tm: fromTm,
    sch_evt_to_tm: toTm,
    sch_evt_dscr: note,
    // The creator is the owner: only they see these in their schedule.
    crt_by: usr,
  }));

/** Own schedule entries (schedule_event) of the administrator and the demo teacher, around today. */
export async function scheduleDemo(d: DemoScope & { accounts: ReadonlyMap<string, number> }): Promise<void> {
  const teacher = d.accounts.get('TEACHER');
  await d.add('schedule_event', [...rowsOf(d, d.admin, adminPlan), ...(teacher === undefined ? [] : rowsOf(d, teacher, teacherPlan))]);
}
