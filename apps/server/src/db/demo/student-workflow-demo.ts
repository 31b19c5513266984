import { recomputeDaySummaries } from '../../workflows/mark-attendance/attendance-summary.service';
import { rows, sql } from '../client';
import { addDays, holidaysOf, iso } from './calendar';
import type { Row } from './insert-rows';
import type { DemoScope } from './demo-scope';

export interface StudentWorkflowDemo extends DemoScope {
  /** 'VI|A' -> sec_cd. */
  sections: ReadonlyMap<string, number>;
  /** Subjects of each section with their teacher: the first one marks the register. */
  mapping: ReadonlyMap<string, readonly { usr: number }[]>;
  counts: Record<string, number>;
}

/** School days the demo has a register for: the last four weeks up to today, Monday to Friday, no holidays. */
export function markedDays(d: Pick<StudentWorkflowDemo, 'kind' | 'startYear' | 'joinMonth' | 'today'>, weeks = 4): string[] {
  const yearStart = iso(d.startYear, d.joinMonth, 1);
  const holidays = holidaysOf(d.startYear, d.kind);
  const out: string[] = [];
  for (let k = weeks * 7 - 1; k >= 0; k--) {
    const day = addDays(d.today, -k);
    const dow = new Date(`${day}T00:00:00Z`).getUTCDay();
    if (day < yearStart || dow === 0 || dow === 6) continue;
    if (holidays.some((h) => h.from <= day && day <= h.to)) continue;
    out.push(day);
  }
  return out;
}

/**
 * A few section moves early in the year (school only), then a register for the recent school days: about
 * 92% present, a few children absent often, the odd one on duty, marked by each section's first teacher.
 * Rows as the marking sheet writes them, and the daywise summary computed by the sheet's own code.
 */
export async function studentWorkflowDemo(d: StudentWorkflowDemo): Promise<void> {
  if (d.kind === 'school') await interchanges(d);
  const r = d.rng('attendance');
  const days = markedDays(d);
  if (days.length === 0) return;
  const students = await rows<{ stud_cd: number; cls_cd: number; sec_cd: number }>(
    d.tx,
    sql`SELECT stud_cd, cls_cd, sec_cd FROM student WHERE inst_cd = ${d.instCd} AND acdm_cd = ${d.acdmCd} ORDER BY stud_cd`,
  );
  const names = new Map(
    (await rows<{ usr_cd: number; usr_full_nm: string }>(d.tx, sql`SELECT usr_cd, usr_full_nm FROM employee WHERE inst_cd = ${d.instCd}`)).map((e) => [e.usr_cd, e.usr_full_nm]),
  );
  const markerOf = new Map<number, number>();
  for (const [key, secCd] of d.sections) markerOf.set(secCd, d.mapping.get(key)?.[0]?.usr ?? d.admin);
  // Most children miss a day now and then; one in ten is often away. Averages to about 92% present.
  const awayRate = new Map(students.map((s) => [s.stud_cd, r.chance(0.1) ? 0.2 + r.next() * 0.15 : 0.02 + r.next() * 0.06]));
  const list: Row[] = [];
  for (const day of days) {
    for (const s of students) {
      const marker = markerOf.get(s.sec_cd) ?? d.admin;
      const roll = r.next();
      const away = awayRate.get(s.stud_cd)!;
      const status = roll < away ? 'Absent' : roll < away + 0.01 ? 'OD' : 'Present';
      const remarks = status === 'Absent' && r.chance(0.3) ? r.pick(['Fever', 'Family function', 'Not informed', 'Informed by parent']) : status === 'OD' ? r.pick(['Sports practice', 'Inter-school quiz', 'Scouts camp']) : null;
      list.push({
        inst_cd: d.instCd,
        acdm_cd: d.acdmCd,
        stud_cd: s.stud_cd,
        stud_attn_dt: day,
        cls_cd: s.cls_cd,
        sec_cd: s.sec_cd,
        stud_attn_sts: status,
        stud_attn_rmks: remarks,
        stud_attn_mrkd_by: names.get(marker) ?? 'Administrator',
        crt_by: marker,
      });
    }
  }
  await d.add('student_attendance', list);
  // Statistics first: taken for an empty table, the register's 12,000 new rows are read in a nested loop,
  // once per summary row, by the summary's check for rows left without a register (2.4 million row visits,
  // 0.5-2 s); with them, one hash join. Only the columns that check joins on (all of them took 0.3-0.5 s);
  // the demo's closing ANALYZE does the rest.
  await d.tx.execute(sql`ANALYZE student_attendance (inst_cd, acdm_cd, sec_cd, stud_attn_dt)`);
  await recomputeDaySummaries(d.tx, { instCd: d.instCd, acdmCd: d.acdmCd, usrCd: d.admin }, days);
  const [{ n }] = await rows<{ n: number }>(
    d.tx,
    sql`SELECT count(*)::int AS n FROM student_daywise_attendance_summary WHERE inst_cd = ${d.instCd} AND acdm_cd = ${d.acdmCd}`,
  );
  d.counts.student_daywise_attendance_summary = (d.counts.student_daywise_attendance_summary ?? 0) + n;
}

const moves: readonly { cls: string; roll: number; reason: string; month: number; day: number }[] = [
  { cls: 'VIII', roll: 7, reason: 'Parent request: sibling in the same section', month: 1, day: 8 },
  { cls: 'VIII', roll: 19, reason: 'Second language group (Hindi) is in the other section', month: 1, day: 8 },
  { cls: 'VII', roll: 12, reason: 'Rebalancing the sections after re-admissions', month: 1, day: 15 },
];

/**
 * Swaps of two children with the same roll number between sections A and B, so that each register keeps
 * its numbers 1..n without gaps or repeats; one record per child, as the interchange workflow writes.
 */
async function interchanges(d: StudentWorkflowDemo): Promise<void> {
  const records: Row[] = [];
  for (const m of moves) {
    const a = d.sections.get(`${m.cls}|A`);
    const b = d.sections.get(`${m.cls}|B`);
    if (a === undefined || b === undefined) continue;
    const pair = await rows<{ stud_cd: number; cls_cd: number; sec_cd: number }>(
      d.tx,
      sql`SELECT stud_cd, cls_cd, sec_cd FROM student
          WHERE inst_cd = ${d.instCd} AND acdm_cd = ${d.acdmCd} AND sec_cd IN (${a}, ${b}) AND stud_roll_nmb = ${m.roll} ORDER BY sec_cd`,
    );
    if (pair.length !== 2) continue;
    const date = iso(d.startYear, d.joinMonth + m.month, m.day);
    if (date > d.today) continue;
    for (const s of pair) {
      const to = s.sec_cd === a ? b : a;
      await d.tx.execute(sql`UPDATE student SET sec_cd = ${to}, row_ver = row_ver + 1, updt_by = ${d.admin}, updt_dt = now() WHERE stud_cd = ${s.stud_cd}`);
      records.push({
        inst_cd: d.instCd,
        acdm_cd: d.acdmCd,
        stud_cd: s.stud_cd,
        cls_cd: s.cls_cd,
        frm_sec_cd: s.sec_cd,
        to_sec_cd: to,
        stud_intchg_dt: date,
        stud_intchg_rsn: m.reason,
        stud_intchg_by: 'Administrator',
        crt_by: d.admin,
      });
    }
  }
  await d.add('student_interchange', records);
}
