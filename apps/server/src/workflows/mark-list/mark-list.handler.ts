import { findPage } from '@campus/entities/pages';
import type { FastifyInstance } from 'fastify';
import { mustCtx, type RequestContext } from '../../access/request-context';
import { rows, sql, type Db, type DbOrTx } from '../../db/client';
import { academicYearLabel, printedBy } from '../../documents/exam-print';
import { markSheetDocument } from '../../documents/mark-sheet.document';
import { printSetup, renderPdf, sendPdf } from '../../documents/pdf-render';
import { reportCardDocument } from '../../documents/report-card.document';
import { badRequest } from '../../lib/http-error';
import { examOf, markRowsOf, requireYear, type ExamChoice, type MarkRowChoice } from '../enter-marks/exam-marks.service';
import { markListSchema, studentParamSchema } from './mark-list.schema';
import { reportCardOf } from './report-card.service';

const markListPage = [findPage('exam', 'mark_list')!];

export type MarkResult = 'Pass' | 'Fail' | 'Incomplete';

export interface MarkListRow {
  stud_cd: number;
  stud_roll_nmb: number | null;
  stud_fs_nm: string;
  stud_adm_cd: string;
  /** By mrk_cd: the marks as a 2-decimal string, null when absent or not entered. */
  marks: Record<string, { marks: string | null; absent: boolean }>;
  total: string;
  max_total: number;
  percentage: string | null;
  result: MarkResult | null;
  rank: number | null;
}

export interface MarkList {
  exam: ExamChoice;
  subjects: MarkRowChoice[];
  rows: MarkListRow[];
}

/**
 * The exam's mark list: one row per student of the exam's section (and any student with marks in it who
 * has moved since), a column per subject. Totals, percentage, result and rank are computed in SQL numeric,
 * so 83.333... is rounded once, half up, to 83.33. Under data_chk only an exam of the user's own sections
 * (403 otherwise). The screen, its GET twin and the printed mark sheet all read this one function.
 */
export async function markListOf(db: DbOrTx, ctx: RequestContext, exmCd: number): Promise<MarkList> {
  const acdmCd = requireYear(ctx);
  const exam = await examOf(db, ctx, exmCd);
  const subjects = await markRowsOf(db, ctx, exam, false);
  const scope = sql`inst_cd = ${ctx.instCd} AND acdm_cd = ${acdmCd}`;

  const students = await rows<Omit<MarkListRow, 'marks'>>(
    db,
    sql`WITH subj AS (SELECT mrk_cd, mrk_max_mrk, mrk_min_mrk FROM mark WHERE exm_cd = ${exam.exm_cd} AND ${scope}),
             studs AS (
               SELECT s.stud_cd, s.stud_roll_nmb, s.stud_fs_nm, s.stud_adm_cd FROM student s
               WHERE s.inst_cd = ${ctx.instCd} AND s.acdm_cd = ${acdmCd}
                 AND ((s.cls_cd = ${exam.cls_cd} AND s.sec_cd = ${exam.sec_cd})
                      OR EXISTS (SELECT 1 FROM student_mark x WHERE x.stud_cd = s.stud_cd AND x.exm_cd = ${exam.exm_cd} AND x.inst_cd = s.inst_cd AND x.acdm_cd = s.acdm_cd))),
             per AS (
               SELECT st.stud_cd,
                      coalesce(sum(sm.stud_mrk_obt), 0) AS total,
                      count(sm.stud_mrk_cd) AS entered,
                      count(sj.mrk_cd) AS subjects,
                      bool_or(sm.stud_mrk_cd IS NOT NULL AND (sm.stud_mrk_abs OR sm.stud_mrk_obt < sj.mrk_min_mrk)) AS failed
               FROM studs st
               LEFT JOIN subj sj ON true
               LEFT JOIN student_mark sm ON sm.stud_cd = st.stud_cd AND sm.mrk_cd = sj.mrk_cd AND sm.inst_cd = ${ctx.instCd} AND sm.acdm_cd = ${acdmCd}
               GROUP BY st.stud_cd),
             tot AS (SELECT coalesce(sum(mrk_max_mrk), 0)::int AS max_total FROM subj),
             res AS (
               SELECT p.stud_cd, p.total, t.max_total,
                      CASE WHEN p.subjects = 0 THEN NULL
                           WHEN p.failed THEN 'Fail'
                           WHEN p.entered < p.subjects THEN 'Incomplete'
                           ELSE 'Pass' END AS result
               FROM per p CROSS JOIN tot t)
        SELECT st.stud_cd, st.stud_roll_nmb, st.stud_fs_nm, st.stud_adm_cd,
               r.total::numeric(14, 2)::text AS total, r.max_total,
               CASE WHEN r.max_total > 0 THEN round(r.total * 100 / r.max_total, 2)::numeric(7, 2)::text END AS percentage,
               r.result,
               CASE WHEN r.result = 'Pass' THEN dense_rank() OVER (PARTITION BY r.result = 'Pass' ORDER BY r.total DESC)::int END AS rank
        FROM studs st JOIN res r ON r.stud_cd = st.stud_cd
        ORDER BY st.stud_roll_nmb NULLS LAST, st.stud_fs_nm, st.stud_cd`,
  );
  const marks = await rows<{ stud_cd: number; mrk_cd: number; marks: string | null; absent: boolean }>(
    db,
    sql`SELECT stud_cd, mrk_cd, stud_mrk_obt::text AS marks, stud_mrk_abs AS absent FROM student_mark
        WHERE exm_cd = ${exam.exm_cd} AND ${scope}`,
  );
  const byStudent = new Map<number, MarkListRow['marks']>();
  for (const m of marks) {
    const own = byStudent.get(m.stud_cd) ?? {};
    own[String(m.mrk_cd)] = { marks: m.marks, absent: m.absent };
    byStudent.set(m.stud_cd, own);
  }
  const list: MarkListRow[] = students.map((s) => ({ ...s, marks: byStudent.get(s.stud_cd) ?? {} }));
  return { exam, subjects, rows: list };
}

/** The exam code of a request (body or query string), or a 400 naming the missing choice. */
function examCode(input: unknown): number {
  const parsed = markListSchema.safeParse(input ?? {});
  if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'Invalid mark list request.');
  return parsed.data.exm_cd;
}

export function registerMarkListRoutes(app: FastifyInstance, db: Db): void {
  const config = { access: { kind: 'page' as const, pages: markListPage } };
  // The screen's read: the exam travels in the body (spec section 8 names POST /api/mark/list).
  app.post('/api/mark/list', { config, schema: { tags: ['Mark'], summary: "An exam's mark list" } }, async (req) => markListOf(db, mustCtx(req), examCode(req.body)));
  // Section 7 lists /api/mark/list among the list grids: the same rows for ?exm_cd=, so a GET is not read
  // as the record 'list' of /api/mark/:id.
  app.get('/api/mark/list', { config, schema: { tags: ['Mark'], summary: "An exam's mark list (?exm_cd=)" } }, async (req) => markListOf(db, mustCtx(req), examCode(req.query)));

  // The printed mark sheet and report card show what the page shows, so they ask what its read asks: the
  // page, and under data_chk the user's own sections (markListOf / reportCardOf). ?size=A4|A5, ?lang=.
  app.get('/api/mark/list/pdf', { config, schema: { tags: ['Mark'], summary: "An exam's mark sheet as PDF (?exm_cd=&size=&lang=)" } }, async (req, reply) => {
    const ctx = mustCtx(req);
    const exmCd = examCode(req.query);
    const setup = await printSetup(db, ctx.instCd, req.query, 'A4');
    const list = await markListOf(db, ctx, exmCd);
    const doc = markSheetDocument(list, setup, await academicYearLabel(db, ctx.acdmCd), printedBy(setup, ctx));
    return sendPdf(reply, await renderPdf(doc), `mark-sheet-${list.exam.exm_nm}-${list.exam.cls_nm}-${list.exam.sec_nm}.pdf`);
  });
  app.get('/api/mark/report_card/:stud_cd/pdf', { config, schema: { tags: ['Mark'], summary: "A student's report card across the year's exams as PDF" } }, async (req, reply) => {
    const ctx = mustCtx(req);
    const p = studentParamSchema.safeParse(req.params);
    if (!p.success) throw badRequest(p.error.issues[0]?.message ?? 'Invalid student.');
    const setup = await printSetup(db, ctx.instCd, req.query, 'A5');
    const card = await reportCardOf(db, ctx, p.data.stud_cd);
    const doc = reportCardDocument(card, setup, await academicYearLabel(db, ctx.acdmCd), printedBy(setup, ctx));
    return sendPdf(reply, await renderPdf(doc), `report-card-${card.student.stud_adm_cd}.pdf`);
  });
}
