import { findPage, isLive, menuGroups, pagePath } from '@campus/entities/pages';
import { addDays, iso } from './calendar';
import type { Row } from './insert-rows';
import type { OfficeDemo } from './staff-demo';
import { checkEntityQuery, type EntityQueryDef } from '../../engine/entity-query';
import { ruleParts } from '../../workflows/notification-rules/notification-rule.service';

const scoped = (d: OfficeDemo, r: Row): Row => ({ inst_cd: d.instCd, ...r, crt_by: d.admin });

/** Backup set-up (master/backup): one per installation, so written from the school's run only. */
export async function backups(d: OfficeDemo): Promise<void> {
  if (d.kind !== 'school') return;
  const list: [string, string, string, string, boolean][] = [
    ['daily', 'Daily', '02:00', 'campus_daily_YYYYMMDD', true],
    ['weekly', 'Weekly', 'Sunday', 'campus_weekly_YYYYMMDD', true],
    ['month-end', 'Monthly', '1', 'campus_month_YYYYMM', true],
    ['before-promotion', 'Monthly', '30', 'campus_promotion_YYYYMMDD', false],
  ];
  await d.add(
    'backup',
    list.map(([folder, typ, at, pattern, zip]) => ({ bckp_fldr_nm: folder, bckp_path: `backups/${folder}`, bckp_typ: typ, bckp_typ_vl: at, bckp_ptrn: pattern, bckp_is_zip: zip, crt_by: d.admin })),
  );
}

/** Dashboard tiles (features/widget): each a declared kind over an entity's list query (widget.entity.ts). */
export async function widgets(d: OfficeDemo): Promise<void> {
  const school = d.kind === 'school';
  const w = (nm: string, typ: string, sub: string | null, ent: string, more: Row = {}): Row => ({
    wdgt_nm: nm, wdgt_typ: typ, wdgt_sub_typ: sub, wdgt_mode: 'All Users', wdgt_ent: ent,
    wdgt_msr: null, wdgt_grp: null, wdgt_dt_fld: null, wdgt_dt_frm: null, wdgt_dt_to: null, wdgt_whr: null, wdgt_lmt: null, ...more,
  });
  const list: Row[] = [
    w('Students by Class', 'Chart', 'Bar', 'student', { wdgt_grp: 'cls_cd' }),
    w("Today's Attendance by Section", 'Chart', 'Bar', 'student_daywise_attendance_summary', {
      wdgt_msr: 'stud_attn_sum_psnt_cnt', wdgt_grp: 'sec_cd', wdgt_dt_fld: 'stud_attn_sum_day', wdgt_dt_frm: 0, wdgt_dt_to: 0,
    }),
    w('Fees Collected per Day', 'Chart', 'Line', 'collected_fee', {
      wdgt_msr: 'fee_coll_amt', wdgt_dt_fld: 'fee_coll_crt_dt', wdgt_dt_frm: -29, wdgt_dt_to: 0, wdgt_whr: JSON.stringify({ fee_coll_sts: 'Active' }),
    }),
    w('Fee Defaulters', 'Count', null, 'fee_report'),
    w('Students by Gender', 'Chart', 'Doughnut', 'student', { wdgt_grp: 'stud_gnd' }),
    w('Upcoming Holidays', 'List', null, 'holiday', { wdgt_dt_fld: 'hly_frm_dt', wdgt_dt_frm: 0, wdgt_dt_to: 90, wdgt_lmt: 5 }),
    w('Upcoming Exams', 'List', null, 'exam', { wdgt_dt_fld: 'exm_strt_dt', wdgt_dt_frm: 0, wdgt_dt_to: 90, wdgt_lmt: 5 }),
    ...(school ? [w('Books Overdue', 'Count', null, 'book_checkinout_summary', { wdgt_dt_fld: 'usr_bk_stk_due_dt', wdgt_dt_to: -1 })] : []),
  ];
  await d.add('widget', list.map((r, i) => scoped(d, { ...r, wdgt_ord: i + 1 })));
}

/** The office administrator's own shortcuts (features/quick_menu: each user's own) to real, built pages. */
export async function quickMenu(d: OfficeDemo): Promise<void> {
  const links: [string, string, string][] = [
    ['Quick Fee Collection', 'fee', 'quick_fee_collection'],
    ['Student Profile', 'student', 'profile'],
    ['Daywise Attendance', 'student', 'daywise_attendance'],
    ['Circulars', 'institute', 'circular'],
    ...(d.kind === 'school' ? ([['Book Issue', 'library', 'book_checkout']] as [string, string, string][]) : []),
  ];
  const list = links.map(([nm, module, page], i) => {
    const pg = findPage(module, page);
    if (!pg || !isLive(pg)) throw new Error(`demo: quick menu to a page that is not built: ${module}/${page}`);
    return scoped(d, { usr_cd: d.admin, qm_pg_nm: nm, qm_pg_pth: pagePath(pg), qm_pg_icn: menuGroups.find((g) => g.module === pg.module)?.icon ?? null, qm_ord: i + 1 });
  });
  await d.add('quick_menu', list);
}

/**
 * Sign-in alerts (features/notification), each a structured query (engine/entity-query.ts) checked by the
 * engine's own validator, the one the notification routes apply on every save, then split over the spec's
 * columns as the routes store them (ruleParts).
 */
export async function notifications(d: OfficeDemo): Promise<void> {
  const q = (entity: string, columns: string[], date: string | null, days: number, where: [string, string][], order: [string, 'asc' | 'desc'][], group: string[] = [], limit = 50): EntityQueryDef => ({
    entity,
    columns,
    dateFilter: date ? { field: date, from: 0, to: days } : null,
    where: where.map(([field, value]) => ({ field, op: 'eq', value })),
    limit,
    order: order.map(([field, dir]) => ({ field, dir })),
    group,
  });
  type Plan = [code: string, name: string, days: number, active: boolean, dscr: string, query: EntityQueryDef];
  const plans: Plan[] = [
    ['FEE_DUE', 'Fee due this week', 7, true, 'Fee groups whose due date falls in the next seven days, for the accounts desk.', q('fee_group', ['fee_grp_nm', 'fee_grp_fee_exp_dt', 'fee_grp_fee_prid_amt'], 'fee_grp_fee_exp_dt', 7, [], [['fee_grp_fee_exp_dt', 'asc']])],
    ['HOLIDAY_AHEAD', 'Holidays this week', 7, true, 'Holidays starting in the next seven days.', q('holiday', ['hly_nm', 'hly_frm_dt', 'hly_to_dt', 'hly_typ'], 'hly_frm_dt', 7, [], [['hly_frm_dt', 'asc']])],
    ['EXAM_AHEAD', 'Exams in the next two weeks', 14, true, 'Exam schedules starting soon, section by section.', q('exam', ['exm_nm', 'cls_cd', 'sec_cd', 'exm_strt_dt'], 'exm_strt_dt', 14, [], [['exm_strt_dt', 'asc'], ['cls_cd', 'asc']])],
    ['LEAVE_PENDING', 'Leave letters to approve', 0, true, 'Student leave requests still waiting for a decision.', q('student_leave', ['stud_cd', 'stud_leav_frm_dt', 'stud_leav_to_dt'], null, 0, [['stud_leav_sts', 'Pending']], [['stud_leav_frm_dt', 'asc']])],
    ['ABSENT_TODAY', 'Absentees today by section', 0, true, "Count of today's absentees in each section.", q('student_attendance', ['cls_cd', 'sec_cd'], 'stud_attn_dt', 0, [['stud_attn_sts', 'Absent']], [['cls_cd', 'asc']], ['cls_cd', 'sec_cd'])],
    ['BUS_DELAYED', 'Buses running late', 0, d.kind === 'school', 'Trips marked Delayed today; off where the institute runs no buses.', q('bus_trip', ['bs_trck_cd', 'bs_trip_typ', 'bs_trip_eta', 'bs_trip_rmks'], 'bs_trip_dt', 0, [['bs_trip_sts', 'Delayed']], [['bs_trip_eta', 'asc']], [], 20)],
  ];
  const json = (v: unknown): string | null => (v === null ? null : JSON.stringify(v));
  const list = plans.map(([code, name, days, active, dscr, query], i) => {
    const parts = ruleParts(checkEntityQuery(query));
    // jsonb columns take the JSON text.
    return scoped(d, {
      ntf_cd: code,
      ntf_nm: name,
      ntf_mapp_day: days,
      ntf_mapp_sts: active,
      ntf_mapp_odr: i + 1,
      ntf_dscr: dscr,
      ...Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, json(v)])),
    });
  });
  const made = await d.add('notification', list, ['ntf_id', 'ntf_mapp_sts']);
  // The office administrator gets every active rule each day, so the bell has something to say after the
  // first daily run (notification-daily, 06:00) or an admin's 'run now'.
  await d.add(
    'notification_mapping',
    made.filter((r) => r.ntf_mapp_sts).map((r, i) => scoped(d, { ntf_id: r.ntf_id, ntf_mapp_usr_cd: d.admin, ntf_mapp_day: 'Every day', ntf_mapp_sts: true, ntf_mapp_odr: i + 1 })),
  );
}

/** Messages to the parents' app (features/mob_notification): sent ones, one ready, one draft, one called off. */
export async function mobileNotifications(d: OfficeDemo): Promise<Row[]> {
  const school = d.kind === 'school';
  type Msg = [sub: string, text: string, status: string, daysAgo: number];
  const list: Msg[] = school
    ? [
        ['Parent-teacher meeting', 'Dear parent, the parent-teacher meeting is on Saturday from 9.30 am to 12.30 pm. Please meet the class teacher with the progress card.', 'Sent', 45],
        ['Quarterly exam timetable', 'The quarterly exam timetable has been given to your ward. Please see that the portions are revised at home.', 'Sent', 70],
        ['School reopens after the holidays', 'School reopens tomorrow. Buses run on the usual routes and timings.', 'Sent', 25],
        ['Rain holiday', 'Due to heavy rain the Collector has declared a holiday for all schools today.', 'Sent', 12],
        ['Term fee reminder', 'This is a reminder that the term fee is due this month. Please pay at the office counter or by UPI to avoid the late fee.', 'Ready', 2],
        ['Annual Day practice timings', 'Children taking part in the Annual Day programme will stay back till 5 pm on practice days. Transport will be arranged.', 'Draft', 1],
        ['Sports day postponed', 'Sports day is postponed owing to the ground work. The new date will be informed.', 'Cancelled', 6],
      ]
    : [
        ['Semester exam hall tickets', 'Hall tickets can be collected from the department office from Monday.', 'Sent', 20],
        ['CIA test schedule', 'The second CIA test begins next week. Timetable on the department notice board.', 'Sent', 34],
        ['Fee payment last date', 'The last date for the semester fee without fine is this Friday.', 'Ready', 1],
        ['Industrial visit consent', 'Consent letters for the industrial visit must reach the class advisor by Wednesday.', 'Draft', 0],
      ];
  // Nothing sent before the year began: early in the year only the recent messages exist.
  const opened = iso(d.startYear, d.joinMonth, 1);
  return d.add(
    'mob_notification',
    list.filter(([, , , ago]) => ago <= 2 || addDays(d.today, -ago) >= opened).map(([sub, text, status, ago]) => scoped(d, { mob_ntf_dtl_sub: sub, mob_ntf_dtl_msg: text, mob_ntf_dtl_sts: status, mob_ntf_dtl_crt_dt: addDays(d.today, -ago) })),
    ['mob_ntf_dtl_sub', 'mob_ntf_dtl_sts', 'mob_ntf_dtl_crt_dt'],
  );
}
