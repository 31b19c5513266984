import { rows, sql } from '../client';
import { addDays, holidaysOf, iso } from './calendar';
import type { Row } from './insert-rows';
import type { DemoScope } from './demo-scope';

/** What the staff, school-organisation and office demo needs from the generator. */
export interface OfficeDemo extends DemoScope {
  classes: ReadonlyMap<string, number>;
  /** 'VI|A' -> sec_cd, in class then section order. */
  sections: ReadonlyMap<string, number>;
  subjects: ReadonlyMap<string, number>;
  /** Subjects of each section ('VI|A') with their teacher; the first is the class teacher. */
  mapping: ReadonlyMap<string, readonly { sub: string; usr: number }[]>;
  /** The demo accounts (TEACHER, ACCOUNTANT, LIBRARIAN) by login: their pages are fixed, so no group takes them in. */
  accounts: ReadonlyMap<string, number>;
}

export interface StaffMember {
  usr_cd: number;
  usr_full_nm: string;
  desg_nm: string | null;
}

export const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

/** 'Monday'..'Sunday' of an ISO date. */
export const dayName = (day: string): (typeof DAYS)[number] => DAYS[(new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7];

/** Working days (Monday to Friday, no holiday) from the first of the year's first month up to `until`. */
export function workingDays(d: Pick<OfficeDemo, 'kind' | 'startYear' | 'joinMonth'>, from: string, until: string): string[] {
  const holidays = holidaysOf(d.startYear, d.kind);
  const start = iso(d.startYear, d.joinMonth, 1) > from ? iso(d.startYear, d.joinMonth, 1) : from;
  const out: string[] = [];
  for (let day = start; day <= until; day = addDays(day, 1)) {
    const dow = new Date(`${day}T00:00:00Z`).getUTCDay();
    if (dow === 0 || dow === 6) continue;
    if (holidays.some((h) => h.from <= day && day <= h.to)) continue;
    out.push(day);
  }
  return out;
}

export async function staffOf(d: Pick<OfficeDemo, 'tx' | 'instCd'>): Promise<StaffMember[]> {
  return rows<StaffMember>(
    d.tx,
    sql`SELECT e.usr_cd, e.usr_full_nm, g.desg_nm FROM employee e LEFT JOIN designation g ON g.desg_cd = e.usr_desg
        WHERE e.inst_cd = ${d.instCd} ORDER BY e.usr_cd`,
  );
}

const scoped = (d: OfficeDemo, r: Row): Row => ({ inst_cd: d.instCd, ...r, crt_by: d.admin });
const yearly = (d: OfficeDemo, r: Row): Row => ({ inst_cd: d.instCd, acdm_cd: d.acdmCd, ...r, crt_by: d.admin });

/**
 * The daily staff summary the office keeps (employee/attendance): every working day of the year so far, the
 * whole staff on the roll, a few away on most days and the odd one out on duty (exam duty, a training).
 */
export async function staffAttendance(d: OfficeDemo, staffCount: number): Promise<void> {
  const r = d.rng('staff-attendance');
  const school = d.kind === 'school';
  const list = workingDays(d, iso(d.startYear, d.joinMonth, 1), d.today).map((day) => {
    const absent = r.chance(0.25) ? 0 : r.int(1, school ? 4 : 3);
    const out = r.chance(0.2) ? r.int(1, 2) : 0;
    return yearly(d, {
      usr_atnc_dt: day,
      usr_atnc_day: dayName(day),
      usr_atnc_tot_usr: staffCount,
      usr_atnc_tot_prst: staffCount - absent - out,
      usr_atnc_tot_abst: absent,
      usr_atnc_tot_out: out,
      usr_atnc_in_tme: school ? '08:30:00' : '09:00:00',
      usr_atnc_out_tme: school ? '16:15:00' : '16:30:00',
    });
  });
  await d.add('employee_attendance', list);
}

/** Periods a week of each subject; free periods are library, games and study hours. */
const weekly: Record<string, number> = {
  Mathematics: 7,
  English: 6,
  Tamil: 6,
  Science: 6,
  'Social Science': 5,
  'Environmental Science': 5,
  Hindi: 3,
  'Computer Science': 2,
  'Physical Education': 2,
  Drawing: 2,
};

/**
 * Each section's bell (class_section/timetable) and each teacher's week (employee/timetable) built from the
 * subject mapping: every subject gets its periods a week, spread over the days, with neither a teacher nor a
 * section ever in two places in one period. A period that cannot be placed stays free.
 */
export async function timetables(d: OfficeDemo): Promise<void> {
  const r = d.rng('timetable');
  const school = d.kind === 'school';
  const early = (cls: string): boolean => school && (cls === 'LKG' || cls === 'UKG');
  const bells: Row[] = [];
  for (const [key, secCd] of d.sections) {
    const cls = key.split('|')[0];
    bells.push(
      yearly(d, {
        cls_cd: d.classes.get(cls)!,
        sec_cd: secCd,
        tme_tbl_prd_strt_tme: early(cls) ? '09:15:00' : school ? '08:45:00' : '09:30:00',
        tme_tbl_prd_itvl: early(cls) ? 30 : school ? 40 : 50,
        tme_tbl_crt_dt: addDays(iso(d.startYear, d.joinMonth, 1), -3),
      }),
    );
  }
  await d.add('section_timetable', bells);

  const days = DAYS.slice(0, 5);
  const busyTeacher = new Set<string>();
  const busySection = new Set<string>();
  // Demands dealt round-robin over the sections so that a teacher shared by many sections is not used up
  // by the first ones.
  const queues = [...d.sections].map(([key, secCd]) => {
    const cls = key.split('|')[0];
    const subs = d.mapping.get(key) ?? [];
    const per = school ? (s: string) => weekly[s] ?? 4 : () => Math.max(3, Math.min(5, Math.floor(25 / Math.max(1, subs.length))));
    const demand = subs.flatMap((s) => Array.from({ length: per(s.sub) }, () => s));
    const periods = early(cls) ? 6 : school ? 8 : 5;
    return { cls, secCd, demand, periods, placed: new Map<string, Set<string>>() };
  });
  const out: Row[] = [];
  for (let round = 0; queues.some((q) => round < q.demand.length); round++) {
    for (const q of queues) {
      const s = q.demand[round];
      if (!s) continue;
      const onDays = q.placed.get(s.sub) ?? new Set<string>();
      const free: { day: string; prd: number; fresh: boolean }[] = [];
      for (const day of days) {
        for (let prd = 1; prd <= q.periods; prd++) {
          if (busySection.has(`${q.secCd}|${day}|${prd}`) || busyTeacher.has(`${s.usr}|${day}|${prd}`)) continue;
          free.push({ day, prd, fresh: !onDays.has(day) });
        }
      }
      // A subject once a day where it can be; twice only when the week is full.
      const pool = free.some((f) => f.fresh) ? free.filter((f) => f.fresh) : free;
      if (pool.length === 0) continue;
      const at = r.pick(pool);
      busySection.add(`${q.secCd}|${at.day}|${at.prd}`);
      busyTeacher.add(`${s.usr}|${at.day}|${at.prd}`);
      q.placed.set(s.sub, onDays.add(at.day));
      out.push(
        yearly(d, {
          usr_cd: s.usr,
          emp_tme_tbl_day: at.day,
          emp_tme_tbl_prd: at.prd,
          cls_cd: d.classes.get(q.cls)!,
          sec_cd: q.secCd,
          sub_cd: d.subjects.get(s.sub)!,
        }),
      );
    }
  }
  out.sort((a, b) => Number(a.usr_cd) - Number(b.usr_cd) || days.indexOf(a.emp_tme_tbl_day as never) - days.indexOf(b.emp_tme_tbl_day as never) || Number(a.emp_tme_tbl_prd) - Number(b.emp_tme_tbl_prd));
  await d.add('employee_timetable', out);
}

/** The first member of staff with that designation (or any), skipping the demo accounts. */
export function whoIs(staff: readonly StaffMember[], d: Pick<OfficeDemo, 'accounts'>, designation: string, nth = 0): StaffMember {
  const free = staff.filter((s) => ![...d.accounts.values()].includes(s.usr_cd));
  return free.filter((s) => s.desg_nm === designation)[nth] ?? free[nth] ?? staff[0];
}

/** Tasks given to staff (employee/assignment): done ones in the past weeks, open ones due soon, one dropped. */
export async function staffAssignments(d: OfficeDemo, staff: readonly StaffMember[]): Promise<Row[]> {
  const school = d.kind === 'school';
  const head = whoIs(staff, d, school ? 'Vice Principal' : 'Principal');
  const clerk = whoIs(staff, d, 'Office Assistant');
  const teacher = (n: number): StaffMember => whoIs(staff, d, school ? 'BT Assistant' : 'Assistant Professor', n);
  type Task = [title: string, who: StaffMember, dueIn: number, status: string, dscr: string];
  const tasks: Task[] = school
    ? [
        ['Prepare the term timetable for Classes VI to VIII', head, -60, 'Done', 'Period allotment as per the subject mapping; share with the class teachers.'],
        ['Collect the EMIS updates of new admissions', clerk, -35, 'Done', 'Aadhaar and community certificate numbers for every child admitted this year.'],
        ['Submit the quarterly mark sheets', teacher(0), -20, 'Done', 'Marks of all sections entered and the printed sheets signed.'],
        ['Science exhibition: project list', teacher(3), -6, 'Cancelled', 'Postponed to the next term by the Principal.'],
        ['Update the fire safety register', clerk, 3, 'In Progress', 'Extinguisher refill dates and the drill held last month.'],
        ['Half-yearly question papers: Mathematics', teacher(2), 9, 'Open', 'Two sets with the blueprint, sealed, to the Vice Principal.'],
        ['Annual Day programme list', teacher(1), 14, 'Open', 'Items per class with the teacher in charge and the practice hours.'],
        ['Verify the staff attendance register for the month', head, 6, 'Open', 'Tally the register with the leave letters before salaries are processed.'],
      ]
    : [
        ['Prepare the semester timetable', head, -55, 'Done', 'Day order timetable for all departments.'],
        ['Submit internal assessment marks', teacher(0), -12, 'Done', 'CIA I and II marks of every paper to the office.'],
        ['NAAC data: faculty publications', teacher(1), 10, 'In Progress', 'Papers and seminars of the last five years, department-wise.'],
        ['Arrange the semester exam hall plan', clerk, 7, 'Open', 'Seating by register number; invigilators from each department.'],
      ];
  const list = tasks.map(([title, who, dueIn, status, dscr]) =>
    scoped(d, { usr_asgmt_ttl: title, usr_cd: who.usr_cd, usr_asgmt_dscr: dscr, usr_asgmt_due_dt: addDays(d.today, dueIn), usr_asgmt_sts: status, usr_asgmt_crt_by: 'ADMIN' }),
  );
  return d.add('user_assignment', list, ['usr_asgmt_ttl', 'usr_asgmt_sts']);
}

/** Material for staff (employee/resource); the files themselves are not part of the demo. */
export async function staffResources(d: OfficeDemo): Promise<Row[]> {
  const label = `${d.startYear}-${String((d.startYear + 1) % 100).padStart(2, '0')}`;
  const opened = iso(d.startYear, d.joinMonth, 1);
  type Res = [title: string, typ: string, mode: string, dscr: string, at: string];
  const list: Res[] = d.kind === 'school'
    ? [
        [`Academic calendar ${label}`, 'Document', 'All Staff', 'Working days, exams and holidays of the year.', addDays(opened, -5)],
        ['Lesson plan format', 'Template', 'Teaching Staff', 'Weekly lesson plan with learning outcomes; one per subject and section.', addDays(opened, -4)],
        ['Samacheer Kalvi syllabus, Classes VI to VIII', 'Syllabus', 'Teaching Staff', 'State Board syllabus with the term-wise split.', addDays(opened, -4)],
        ['Leave letter format', 'Template', 'All Staff', 'Casual and medical leave application.', addDays(opened, 2)],
        ['Fee receipt reprint procedure', 'Document', 'Office Staff', 'When and how a duplicate receipt is issued.', addDays(opened, 20)],
        ['POCSO awareness training slides', 'Presentation', 'All Staff', 'From the training held for all staff.', addDays(d.today, -9)],
      ]
    : [
        [`Academic calendar ${label}`, 'Document', 'All Staff', 'Semester dates, CIA tests and holidays.', addDays(opened, -5)],
        ['University syllabus, all departments', 'Syllabus', 'Teaching Staff', 'Syllabus as approved by the Board of Studies.', addDays(opened, -3)],
        ['Question paper template', 'Template', 'Teaching Staff', 'Section A, B and C with the marks split.', addDays(d.today, -7)],
      ];
  const items = list.filter(([, , , , at]) => at <= d.today);
  return d.add(
    'user_resource',
    items.map(([title, typ, mode, dscr, at]) => scoped(d, { usr_rscs_ttl: title, usr_rscs_typ: typ, usr_rscs_mode: mode, usr_rscs_dscr: dscr, usr_rscs_fl: null, usr_rscs_upl_dt: at })),
    ['usr_rscs_ttl', 'usr_rscs_upl_dt'],
  );
}
