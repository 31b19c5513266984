import { findPage } from '@campus/entities/pages';
import { entity } from '@campus/entities/registry';
import type { FastifyInstance } from 'fastify';
import { mustCtx, requireButton, type RequestContext } from '../../access/request-context';
import { rows, sql, type Db, type DbOrTx } from '../../db/client';
import { writeAudit } from '../../engine/audit';
import { withDbErrors } from '../../engine/crud.service';
import { badRequest } from '../../lib/http-error';
import { MARKS_RE, saveSheetSchema, sheetQuerySchema, subjectsQuerySchema, type SheetRowInput } from './enter-marks.schema';
import { examChoices, examOf, markRowOf, markRowsOf, requireYear, type ExamChoice } from './exam-marks.service';

const studentMark = entity('student_mark');
// The sheet is the mark list page's create mode; whoever sets up the exam's subjects (exam/mark) may enter too.
const markPages = [findPage('exam', 'mark_list')!, findPage('exam', 'mark')!];

const firstIssue = (e: { issues: { message: string }[] }): string => e.issues[0]?.message ?? 'Invalid input.';

export interface SheetRow {
  stud_cd: number;
  stud_fs_nm: string;
  stud_adm_cd: string;
  stud_roll_nmb: number | null;
  /** The stored marks as a 2-decimal string ('45.50'), null when absent or not entered. */
  marks: string | null;
  absent: boolean;
  remarks: string | null;
  saved: boolean;
}

/** The exam's class-section students this year, register order, with their saved marks for the subject. */
async function sheetRows(db: DbOrTx, ctx: RequestContext, acdmCd: number, exam: ExamChoice, mrkCd: number): Promise<SheetRow[]> {
  return rows<SheetRow>(
    db,
    sql`SELECT s.stud_cd, s.stud_fs_nm, s.stud_adm_cd, s.stud_roll_nmb,
               m.stud_mrk_obt::text AS marks, coalesce(m.stud_mrk_abs, false) AS absent, m.stud_mrk_rmks AS remarks,
               (m.stud_mrk_cd IS NOT NULL) AS saved
        FROM student s
        LEFT JOIN student_mark m ON m.stud_cd = s.stud_cd AND m.mrk_cd = ${mrkCd} AND m.inst_cd = s.inst_cd AND m.acdm_cd = s.acdm_cd
        WHERE s.inst_cd = ${ctx.instCd} AND s.acdm_cd = ${acdmCd} AND s.cls_cd = ${exam.cls_cd} AND s.sec_cd = ${exam.sec_cd}
        ORDER BY s.stud_roll_nmb NULLS LAST, s.stud_fs_nm, s.stud_cd`,
  );
}

/**
 * Why one typed row cannot be saved, naming the student, or null. Marks are whole or half marks from 0 to
 * the maximum; compared in half marks (integers), so no float rounding decides a boundary.
 */
export function rowRefusal(r: SheetRowInput, name: string, max: number): string | null {
  if (r.absent && r.marks !== null) return `${name} is marked absent: leave the marks empty.`;
  if (r.marks === null) return null;
  if (!MARKS_RE.test(r.marks)) return `Marks of ${name} must be a whole or half mark (such as 45 or 45.5).`;
  if (Math.round(Number(r.marks) * 2) > max * 2) return `Marks of ${name} cannot be more than the maximum mark ${max}.`;
  return null;
}

export function registerEnterMarksRoutes(app: FastifyInstance, db: Db): void {
  const tags = [studentMark.label];
  const page = (button?: string) => ({ access: { kind: 'page' as const, pages: markPages, button } });

  app.get('/api/student_mark/exams', { config: page(), schema: { tags, summary: 'Exams whose marks the user may see' } }, async (req) => examChoices(db, mustCtx(req)));

  app.get('/api/student_mark/subjects', { config: page(), schema: { tags, summary: "An exam's subjects the user may enter marks for" } }, async (req) => {
    const ctx = mustCtx(req);
    const q = subjectsQuerySchema.safeParse(req.query);
    if (!q.success) throw badRequest(firstIssue(q.error));
    const exam = await examOf(db, ctx, q.data.exm_cd);
    return markRowsOf(db, ctx, exam, true);
  });

  app.get('/api/student_mark/sheet', { config: page(), schema: { tags, summary: "One subject's marks entry sheet of an exam" } }, async (req) => {
    const ctx = mustCtx(req);
    const q = sheetQuerySchema.safeParse(req.query);
    if (!q.success) throw badRequest(firstIssue(q.error));
    const acdmCd = requireYear(ctx);
    const m = await markRowOf(db, ctx, q.data.mrk_cd);
    const students = await sheetRows(db, ctx, acdmCd, m.exam, m.mrk_cd);
    return { ...m.exam, mrk_cd: m.mrk_cd, sub_cd: m.sub_cd, sub_nm: m.sub_nm, mrk_max_mrk: m.mrk_max_mrk, mrk_min_mrk: m.mrk_min_mrk, saved: students.some((s) => s.saved), rows: students };
  });

  app.post('/api/student_mark/sheet', { config: page('create'), schema: { tags, summary: "Save one subject's marks of an exam" } }, async (req) => {
    const ctx = mustCtx(req);
    const parsed = saveSheetSchema.safeParse(req.body);
    if (!parsed.success) throw badRequest(firstIssue(parsed.error));
    const input = parsed.data;
    const acdmCd = requireYear(ctx);
    const ids = input.rows.map((r) => r.stud_cd);
    const twice = ids.find((id, i) => ids.indexOf(id) !== i);
    if (twice !== undefined) throw badRequest(`Student ${twice} is on the sheet twice.`);
    const idList = sql.join(ids.map((id) => sql`${id}`), sql`, `);

    return withDbErrors(() =>
      db.transaction(async (tx) => {
        const m = await markRowOf(tx, ctx, input.mrk_cd, true);
        const { exam } = m;
        const students = await rows<{ stud_cd: number; stud_fs_nm: string; cls_cd: number; sec_cd: number }>(
          tx,
          sql`SELECT stud_cd, stud_fs_nm, cls_cd, sec_cd FROM student
              WHERE inst_cd = ${ctx.instCd} AND acdm_cd = ${acdmCd} AND stud_cd IN (${idList})`,
        );
        for (const r of input.rows) {
          const s = students.find((x) => x.stud_cd === r.stud_cd);
          if (!s || s.cls_cd !== exam.cls_cd || s.sec_cd !== exam.sec_cd) {
            throw badRequest(`${s ? s.stud_fs_nm : `Student ${r.stud_cd}`} is not a student of ${exam.cls_nm} ${exam.sec_nm} this year.`);
          }
          const refusal = rowRefusal(r, s.stud_fs_nm, m.mrk_max_mrk);
          if (refusal) throw badRequest(refusal, [{ field: `rows.${r.stud_cd}`, message: refusal }]);
        }

        const before = await rows<{ stud_cd: number; marks: string | null; absent: boolean; remarks: string | null }>(
          tx,
          sql`SELECT stud_cd, stud_mrk_obt::text AS marks, stud_mrk_abs AS absent, stud_mrk_rmks AS remarks FROM student_mark
              WHERE inst_cd = ${ctx.instCd} AND acdm_cd = ${acdmCd} AND mrk_cd = ${m.mrk_cd} AND stud_cd IN (${idList})
              FOR UPDATE`,
        );
        // A row exists only for a student with marks or marked absent: emptying a saved row removes it.
        const entered = input.rows.filter((r) => r.absent || r.marks !== null);
        const cleared = input.rows.filter((r) => !r.absent && r.marks === null && before.some((b) => b.stud_cd === r.stud_cd));
        const differs = (r: SheetRowInput, b: (typeof before)[number]) =>
          b.absent !== r.absent || (b.marks === null ? r.marks !== null : r.marks === null || Number(b.marks) !== Number(r.marks)) || (b.remarks ?? null) !== r.remarks;
        const changed = entered.filter((r) => {
          const b = before.find((x) => x.stud_cd === r.stud_cd);
          return b && differs(r, b);
        });
        // First entry is 'create'; changing or clearing marks already saved is a correction, which needs 'edit'.
        if (changed.length > 0 || cleared.length > 0) requireButton(ctx, 'edit');

        const by = ctx.user.usr_full_nm.slice(0, 150);
        if (entered.length > 0) {
          const values = entered.map(
            (r) =>
              sql`(${ctx.instCd}::int, ${acdmCd}::int, ${r.stud_cd}::int, ${exam.exm_cd}::int, ${m.sub_cd}::int, ${m.mrk_cd}::int, ${exam.cls_cd}::int, ${exam.sec_cd}::int,
                   ${r.absent ? null : r.marks}::numeric, ${r.absent}::boolean, ${r.remarks}, ${by}, ${ctx.user.usr_cd}::int)`,
          );
          await tx.execute(sql`
            INSERT INTO student_mark
              (inst_cd, acdm_cd, stud_cd, exm_cd, sub_cd, mrk_cd, cls_cd, sec_cd, stud_mrk_obt, stud_mrk_abs, stud_mrk_rmks, stud_mrk_entd_by, crt_by)
            VALUES ${sql.join(values, sql`, `)}
            ON CONFLICT (inst_cd, acdm_cd, stud_cd, mrk_cd) DO UPDATE SET
              stud_mrk_obt = EXCLUDED.stud_mrk_obt,
              stud_mrk_abs = EXCLUDED.stud_mrk_abs,
              stud_mrk_rmks = EXCLUDED.stud_mrk_rmks,
              stud_mrk_entd_by = EXCLUDED.stud_mrk_entd_by,
              row_ver = student_mark.row_ver + 1,
              updt_by = EXCLUDED.crt_by,
              updt_dt = now()
            WHERE (student_mark.stud_mrk_obt, student_mark.stud_mrk_abs, student_mark.stud_mrk_rmks)
                  IS DISTINCT FROM (EXCLUDED.stud_mrk_obt, EXCLUDED.stud_mrk_abs, EXCLUDED.stud_mrk_rmks)`);
        }
        if (cleared.length > 0) {
          await tx.execute(sql`
            DELETE FROM student_mark WHERE inst_cd = ${ctx.instCd} AND acdm_cd = ${acdmCd} AND mrk_cd = ${m.mrk_cd}
              AND stud_cd IN (${sql.join(cleared.map((r) => sql`${r.stud_cd}`), sql`, `)})`);
        }
        const added = entered.filter((r) => !before.some((b) => b.stud_cd === r.stud_cd)).length;
        await writeAudit(tx, ctx, studentMark, 'POST', `${m.mrk_cd}`, before.length ? { rows: before } : null, { mrk_cd: m.mrk_cd, exm_cd: exam.exm_cd, rows: input.rows });
        return { mrk_cd: m.mrk_cd, saved: entered.length, added, changed: changed.length, cleared: cleared.length };
      }),
    );
  });
}
