import { rows, sql } from '../client';
import type { Row } from './insert-rows';
import type { DemoScope } from './demo-scope';

export type MarksDemo = DemoScope;

/**
 * Marks of every exam that has ended, as the entry sheet stores them: each child has a steady ability (most
 * pass comfortably, about one in ten is weak and fails a subject or two), a subject's mark wanders around
 * it, the odd half mark, about 2% absent. Entered by the teacher the subject mapping names. Run after the
 * section moves, so marks sit in the section the child is in.
 */
export async function marksDemo(d: MarksDemo): Promise<void> {
  const r = d.rng('marks');
  const markRows = await rows<{ mrk_cd: number; exm_cd: number; sub_cd: number; cls_cd: number; sec_cd: number; max: number }>(
    d.tx,
    sql`SELECT m.mrk_cd, m.exm_cd, m.sub_cd, e.cls_cd, e.sec_cd, m.mrk_max_mrk AS max
        FROM mark m JOIN exam e ON e.exm_cd = m.exm_cd
        WHERE m.inst_cd = ${d.instCd} AND m.acdm_cd = ${d.acdmCd} AND e.exm_end_dt < ${d.today}
        ORDER BY m.exm_cd, m.sub_cd`,
  );
  if (markRows.length === 0) return;
  const students = await rows<{ stud_cd: number; sec_cd: number }>(
    d.tx,
    sql`SELECT stud_cd, sec_cd FROM student WHERE inst_cd = ${d.instCd} AND acdm_cd = ${d.acdmCd} ORDER BY stud_cd`,
  );
  const teachers = await rows<{ sec_cd: number; sub_cd: number; usr_cd: number; usr_full_nm: string }>(
    d.tx,
    sql`SELECT d.sec_cd, d.sub_cd, d.usr_cd, e.usr_full_nm FROM subject_detail d JOIN employee e ON e.usr_cd = d.usr_cd
        WHERE d.inst_cd = ${d.instCd} AND d.acdm_cd = ${d.acdmCd}`,
  );
  const teacherOf = new Map(teachers.map((t) => [`${t.sec_cd}|${t.sub_cd}`, t]));
  const ability = new Map(students.map((s) => [s.stud_cd, r.chance(0.1) ? 0.28 + r.next() * 0.15 : 0.5 + r.next() * 0.42]));
  const bySection = new Map<number, number[]>();
  for (const s of students) bySection.set(s.sec_cd, [...(bySection.get(s.sec_cd) ?? []), s.stud_cd]);

  const list: Row[] = [];
  for (const m of markRows) {
    const who = teacherOf.get(`${m.sec_cd}|${m.sub_cd}`);
    for (const studCd of bySection.get(m.sec_cd) ?? []) {
      const absent = r.chance(0.02);
      const share = Math.min(1, Math.max(0, ability.get(studCd)! + (r.next() - 0.5) * 0.24));
      // Whole marks mostly, now and then a half (exact in binary, written with two decimals).
      const whole = Math.round(share * m.max);
      const marks = whole > 0 && r.chance(0.12) ? whole - 0.5 : whole;
      list.push({
        inst_cd: d.instCd,
        acdm_cd: d.acdmCd,
        stud_cd: studCd,
        exm_cd: m.exm_cd,
        sub_cd: m.sub_cd,
        mrk_cd: m.mrk_cd,
        cls_cd: m.cls_cd,
        sec_cd: m.sec_cd,
        stud_mrk_obt: absent ? null : marks.toFixed(2),
        stud_mrk_abs: absent,
        stud_mrk_rmks: absent ? r.pick(['Fever', 'On leave', 'Medical leave']) : null,
        stud_mrk_entd_by: who?.usr_full_nm ?? null,
        crt_by: who?.usr_cd ?? d.admin,
      });
    }
  }
  await d.add('student_mark', list);
}
