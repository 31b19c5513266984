import type { RequestContext } from '../../access/request-context';
import { rows, sql, type DbOrTx } from '../../db/client';
import { localDateTime } from '../../lib/clock';
import { forbidden, notFound } from '../../lib/http-error';
import { examChoices, mapped, OWN_SECTIONS_ONLY, requireYear, type ExamChoice, type MarkRowChoice } from '../enter-marks/exam-marks.service';
import { markListOf, type MarkListRow } from './mark-list.handler';

export interface ReportCardStudent {
  stud_cd: number;
  stud_fs_nm: string;
  stud_adm_cd: string;
  stud_roll_nmb: number | null;
  stud_fthr_nm: string | null;
  cls_nm: string;
  sec_nm: string;
}

/** One exam of the card: its subjects and the student's row of that exam's mark list (null if not on it). */
export interface ReportCardExam {
  exam: ExamChoice;
  subjects: MarkRowChoice[];
  row: MarkListRow | null;
}

export interface ReportCard {
  student: ReportCardStudent;
  exams: ReportCardExam[];
}

/**
 * A student's year on one card: every exam of the year for their class-section that has ended, and any
 * exam they have marks in (one under way, or of a section they moved from), oldest first, each with the very figures of that exam's
 * mark list (total, percentage, result, rank among the section). Under data_chk the student must be in one
 * of the user's sections (403, the mark list's sentence), and only exams of the user's sections are shown.
 */
export async function reportCardOf(db: DbOrTx, ctx: RequestContext, studCd: number): Promise<ReportCard> {
  const acdmCd = requireYear(ctx);
  const [s] = await rows<ReportCardStudent & { cls_cd: number; sec_cd: number }>(
    db,
    sql`SELECT s.stud_cd, s.stud_fs_nm, s.stud_adm_cd, s.stud_roll_nmb, s.stud_fthr_nm, s.cls_cd, s.sec_cd, c.cls_nm, x.sec_nm
        FROM student s JOIN class c ON c.cls_cd = s.cls_cd JOIN section x ON x.sec_cd = s.sec_cd
        WHERE s.stud_cd = ${studCd} AND s.inst_cd = ${ctx.instCd} AND s.acdm_cd = ${acdmCd}`,
  );
  if (!s) throw notFound(`Student ${studCd} was not found.`);
  if (ctx.dataChk) {
    const [own] = await rows<{ k: number }>(db, sql`SELECT 1 AS k WHERE ${mapped(ctx, acdmCd, sql`${Number(s.sec_cd)}::int`)}`);
    if (!own) throw forbidden(OWN_SECTIONS_ONLY);
  }
  const withMarks = new Set(
    (await rows<{ exm_cd: number }>(db, sql`SELECT DISTINCT exm_cd FROM student_mark WHERE stud_cd = ${studCd} AND inst_cd = ${ctx.instCd} AND acdm_cd = ${acdmCd}`)).map((r) =>
      Number(r.exm_cd),
    ),
  );
  // examChoices already keeps a data_chk user to their own sections' exams. An exam of the section that has
  // not ended and holds none of the student's marks yet is left off: it is not part of the year so far.
  const today = localDateTime().date;
  const exams = (await examChoices(db, ctx))
    .filter((e) => withMarks.has(Number(e.exm_cd)) || (Number(e.cls_cd) === Number(s.cls_cd) && Number(e.sec_cd) === Number(s.sec_cd) && e.exm_end_dt < today))
    .sort((a, b) => a.exm_strt_dt.localeCompare(b.exm_strt_dt) || a.exm_cd - b.exm_cd);
  const out: ReportCardExam[] = [];
  for (const e of exams) {
    const list = await markListOf(db, ctx, e.exm_cd);
    out.push({ exam: list.exam, subjects: list.subjects, row: list.rows.find((r) => Number(r.stud_cd) === studCd) ?? null });
  }
  const { cls_cd: _c, sec_cd: _s, ...student } = s;
  return { student: { ...student, stud_cd: Number(student.stud_cd) }, exams: out };
}
