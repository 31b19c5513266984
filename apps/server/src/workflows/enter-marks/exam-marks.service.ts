import type { RequestContext } from '../../access/request-context';
import type { SQL } from 'drizzle-orm';
import { rows, sql, type DbOrTx } from '../../db/client';
import { badRequest, forbidden } from '../../lib/http-error';

export interface ExamChoice {
  exm_cd: number;
  exm_nm: string;
  cls_cd: number;
  cls_nm: string;
  sec_cd: number;
  sec_nm: string;
  exm_strt_dt: string;
  exm_end_dt: string;
}

export interface MarkRowChoice {
  mrk_cd: number;
  exm_cd: number;
  sub_cd: number;
  sub_nm: string;
  mrk_max_mrk: number;
  mrk_min_mrk: number;
}

export const OWN_SECTIONS_ONLY = 'You can only see the marks of your own sections.';
export const OWN_SUBJECTS_ONLY = 'You can only enter the marks of the subjects you teach in your own sections.';

export function requireYear(ctx: RequestContext): number {
  if (ctx.acdmCd === null) throw badRequest('Choose an academic year first.');
  return ctx.acdmCd;
}

/**
 * Under data_chk a section is the user's when this year's subject mapping names them on it (the student
 * grid's rule); entering marks asks more: the mapping must name them for that very subject.
 */
export const mapped = (ctx: RequestContext, acdmCd: number, sec: SQL, sub?: SQL) =>
  sql`EXISTS (SELECT 1 FROM subject_detail d WHERE d.sec_cd = ${sec} ${sub ? sql`AND d.sub_cd = ${sub}` : sql``}
              AND d.usr_cd = ${ctx.user.usr_cd} AND d.inst_cd = ${ctx.instCd} AND d.acdm_cd = ${acdmCd})`;

const examSelect = sql`SELECT e.exm_cd, e.exm_nm, e.cls_cd, c.cls_nm, e.sec_cd, s.sec_nm,
                              e.exm_strt_dt::text AS exm_strt_dt, e.exm_end_dt::text AS exm_end_dt
                       FROM exam e JOIN class c ON c.cls_cd = e.cls_cd JOIN section s ON s.sec_cd = e.sec_cd`;

/** The year's exams the user may open: all of them, or those of their own sections under data_chk. */
export async function examChoices(db: DbOrTx, ctx: RequestContext): Promise<ExamChoice[]> {
  const acdmCd = requireYear(ctx);
  const mine = ctx.dataChk ? sql`AND ${mapped(ctx, acdmCd, sql`e.sec_cd`)}` : sql``;
  return rows<ExamChoice>(
    db,
    sql`${examSelect} WHERE e.inst_cd = ${ctx.instCd} AND e.acdm_cd = ${acdmCd} ${mine}
        ORDER BY e.exm_strt_dt DESC, c.cls_odr NULLS LAST, c.cls_nm, s.sec_nm, e.exm_cd`,
  );
}

/** One exam of the request's year (400 otherwise); under data_chk one of the user's sections (403 otherwise). */
export async function examOf(db: DbOrTx, ctx: RequestContext, exmCd: number): Promise<ExamChoice> {
  const acdmCd = requireYear(ctx);
  const [exam] = await rows<ExamChoice>(db, sql`${examSelect} WHERE e.exm_cd = ${exmCd} AND e.inst_cd = ${ctx.instCd} AND e.acdm_cd = ${acdmCd}`);
  if (!exam) throw badRequest("'Exam' is not a valid choice.");
  if (ctx.dataChk) {
    const [own] = await rows<{ k: number }>(db, sql`SELECT 1 AS k WHERE ${mapped(ctx, acdmCd, sql`${exam.sec_cd}::int`)}`);
    if (!own) throw forbidden(OWN_SECTIONS_ONLY);
  }
  return exam;
}

/** The exam's subjects (mark rows) in subject order; under data_chk only those the user teaches there. */
export async function markRowsOf(db: DbOrTx, ctx: RequestContext, exam: ExamChoice, teachingOnly: boolean): Promise<MarkRowChoice[]> {
  const acdmCd = requireYear(ctx);
  const mine = teachingOnly && ctx.dataChk ? sql`AND ${mapped(ctx, acdmCd, sql`${exam.sec_cd}::int`, sql`m.sub_cd`)}` : sql``;
  return rows<MarkRowChoice>(
    db,
    sql`SELECT m.mrk_cd, m.exm_cd, m.sub_cd, b.sub_nm, m.mrk_max_mrk, m.mrk_min_mrk
        FROM mark m JOIN subject b ON b.sub_cd = m.sub_cd
        WHERE m.exm_cd = ${exam.exm_cd} AND m.inst_cd = ${ctx.instCd} AND m.acdm_cd = ${acdmCd} ${mine}
        ORDER BY b.sub_cd, m.mrk_cd`,
  );
}

/**
 * One exam-subject row with its exam, for the entry sheet; under data_chk the user must teach that subject
 * in the exam's section (403). With forUpdate the mark row is locked: saves of one sheet queue up, and its
 * maximum cannot change under a save.
 */
export async function markRowOf(db: DbOrTx, ctx: RequestContext, mrkCd: number, forUpdate = false): Promise<MarkRowChoice & { exam: ExamChoice }> {
  const acdmCd = requireYear(ctx);
  const [m] = await rows<MarkRowChoice>(
    db,
    sql`SELECT m.mrk_cd, m.exm_cd, m.sub_cd, b.sub_nm, m.mrk_max_mrk, m.mrk_min_mrk
        FROM mark m JOIN subject b ON b.sub_cd = m.sub_cd
        WHERE m.mrk_cd = ${mrkCd} AND m.inst_cd = ${ctx.instCd} AND m.acdm_cd = ${acdmCd}
        ${forUpdate ? sql`FOR UPDATE OF m` : sql``}`,
  );
  if (!m) throw badRequest("'Subject' is not a valid choice.");
  const exam = await examOf(db, ctx, m.exm_cd);
  if (ctx.dataChk) {
    const [own] = await rows<{ k: number }>(db, sql`SELECT 1 AS k WHERE ${mapped(ctx, acdmCd, sql`${exam.sec_cd}::int`, sql`${m.sub_cd}::int`)}`);
    if (!own) throw forbidden(OWN_SUBJECTS_ONLY);
  }
  return { ...m, exam };
}
