import { rows, sql, type DbOrTx } from '../../db/client';

export interface SummaryScope {
  instCd: number;
  acdmCd: number;
  usrCd: number;
}

const list = (xs: readonly (number | string)[]) => sql.join(xs.map((x) => sql`${x}`), sql`, `);

/**
 * Rewrites the daywise summary (one row per section and day) from the students' rows, from scratch, for the
 * given days and sections (all sections of those days when none are named). Counting from the rows rather
 * than adding to the old counts is what makes a re-save replace, never double, and a section left with no
 * rows (its students all moved on that day's sheet of another section) loses its summary row.
 */
export async function recomputeDaySummaries(tx: DbOrTx, scope: SummaryScope, days: readonly string[], secCds?: readonly number[]): Promise<void> {
  if (days.length === 0) return;
  const inSections = secCds && secCds.length ? sql`AND a.sec_cd IN (${list(secCds)})` : sql``;
  const inSummarySections = secCds && secCds.length ? sql`AND m.sec_cd IN (${list(secCds)})` : sql``;
  await tx.execute(sql`
    INSERT INTO student_daywise_attendance_summary
      (inst_cd, acdm_cd, stud_attn_sum_day, cls_cd, sec_cd, stud_attn_sum_psnt_cnt, stud_attn_sum_absnt_cnt, stud_attn_sum_od_cnt, crt_by)
    SELECT a.inst_cd, a.acdm_cd, a.stud_attn_dt, s.cls_cd, a.sec_cd,
           count(*) FILTER (WHERE a.stud_attn_sts = 'Present')::int,
           count(*) FILTER (WHERE a.stud_attn_sts = 'Absent')::int,
           count(*) FILTER (WHERE a.stud_attn_sts = 'OD')::int,
           ${scope.usrCd}::int
    FROM student_attendance a JOIN section s ON s.sec_cd = a.sec_cd
    WHERE a.inst_cd = ${scope.instCd} AND a.acdm_cd = ${scope.acdmCd} AND a.stud_attn_dt IN (${list(days)}) ${inSections}
    GROUP BY a.inst_cd, a.acdm_cd, a.stud_attn_dt, s.cls_cd, a.sec_cd
    ON CONFLICT (inst_cd, acdm_cd, sec_cd, stud_attn_sum_day) DO UPDATE SET
      cls_cd = EXCLUDED.cls_cd,
      stud_attn_sum_psnt_cnt = EXCLUDED.stud_attn_sum_psnt_cnt,
      stud_attn_sum_absnt_cnt = EXCLUDED.stud_attn_sum_absnt_cnt,
      stud_attn_sum_od_cnt = EXCLUDED.stud_attn_sum_od_cnt,
      row_ver = student_daywise_attendance_summary.row_ver + 1,
      updt_by = ${scope.usrCd}::int,
      updt_dt = now()
    WHERE (student_daywise_attendance_summary.stud_attn_sum_psnt_cnt, student_daywise_attendance_summary.stud_attn_sum_absnt_cnt,
           student_daywise_attendance_summary.stud_attn_sum_od_cnt, student_daywise_attendance_summary.cls_cd)
          IS DISTINCT FROM (EXCLUDED.stud_attn_sum_psnt_cnt, EXCLUDED.stud_attn_sum_absnt_cnt, EXCLUDED.stud_attn_sum_od_cnt, EXCLUDED.cls_cd)`);
  await tx.execute(sql`
    DELETE FROM student_daywise_attendance_summary m
    WHERE m.inst_cd = ${scope.instCd} AND m.acdm_cd = ${scope.acdmCd} AND m.stud_attn_sum_day IN (${list(days)}) ${inSummarySections}
      AND NOT EXISTS (SELECT 1 FROM student_attendance a WHERE a.inst_cd = m.inst_cd AND a.acdm_cd = m.acdm_cd
                      AND a.sec_cd = m.sec_cd AND a.stud_attn_dt = m.stud_attn_sum_day)`);
}

export interface DayCounts {
  present: number;
  absent: number;
  od: number;
}

export async function sectionDayCounts(tx: DbOrTx, scope: Omit<SummaryScope, 'usrCd'>, secCd: number, day: string): Promise<DayCounts> {
  const [r] = await rows<DayCounts>(
    tx,
    sql`SELECT stud_attn_sum_psnt_cnt AS present, stud_attn_sum_absnt_cnt AS absent, coalesce(stud_attn_sum_od_cnt, 0) AS od
        FROM student_daywise_attendance_summary
        WHERE inst_cd = ${scope.instCd} AND acdm_cd = ${scope.acdmCd} AND sec_cd = ${secCd} AND stud_attn_sum_day = ${day}`,
  );
  return r ? { present: Number(r.present), absent: Number(r.absent), od: Number(r.od) } : { present: 0, absent: 0, od: 0 };
}
