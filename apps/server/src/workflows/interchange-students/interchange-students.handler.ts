import { findPage } from '@campus/entities/pages';
import { entity } from '@campus/entities/registry';
import type { FastifyInstance } from 'fastify';
import { mustCtx } from '../../access/request-context';
import { rows, sql, type Db } from '../../db/client';
import { writeAudit } from '../../engine/audit';
import { withDbErrors } from '../../engine/crud.service';
import { localDateTime } from '../../lib/clock';
import { badRequest } from '../../lib/http-error';
import { requireYear, sectionChoices, sectionOfClass } from '../section-choice/section-choice.service';
import { moveStudentsSchema } from './interchange-students.schema';

const interchange = entity('student_interchange');
const student = entity('student');
const interchangePage = [findPage('student', 'interchange')!];
const OWN_SECTIONS_ONLY = 'You can only move students between your own sections.';

export interface MovedStudent {
  stud_intchg_cd: number;
  stud_cd: number;
  stud_fs_nm: string;
}

/**
 * Interchange: students of this year moved between two sections of the same class (rebalancing 9-A and 9-B).
 * A swap of two students is two moves, one each way. Roll numbers stay as they were: renumbering a register
 * is the office's decision, made in the student form.
 */
export function registerInterchangeRoutes(app: FastifyInstance, db: Db): void {
  const tags = [interchange.label];
  const page = (button?: string) => ({ access: { kind: 'page' as const, pages: interchangePage, button } });

  app.get('/api/student_interchange/sections', { config: page(), schema: { tags, summary: 'Sections the user may move students between' } }, async (req) =>
    sectionChoices(db, mustCtx(req)),
  );

  // The from-section's students to pick from: the student grid's page is not needed for this one list.
  app.get('/api/student_interchange/students', { config: page(), schema: { tags, summary: "A section's students, to pick the ones to move" } }, async (req) => {
    const ctx = mustCtx(req);
    const q = req.query as { cls_cd?: string; sec_cd?: string };
    const cls = Number(q.cls_cd);
    const secCd = Number(q.sec_cd);
    if (!Number.isInteger(cls) || cls <= 0 || !Number.isInteger(secCd) || secCd <= 0) throw badRequest('Choose the class and the section.');
    const acdmCd = requireYear(ctx);
    const sec = await sectionOfClass(db, ctx, cls, secCd, OWN_SECTIONS_ONLY);
    return rows<{ stud_cd: number; stud_fs_nm: string; stud_adm_cd: string; stud_roll_nmb: number | null }>(
      db,
      sql`SELECT stud_cd, stud_fs_nm, stud_adm_cd, stud_roll_nmb FROM student
          WHERE inst_cd = ${ctx.instCd} AND acdm_cd = ${acdmCd} AND cls_cd = ${sec.cls_cd} AND sec_cd = ${sec.sec_cd}
          ORDER BY stud_roll_nmb NULLS LAST, stud_fs_nm, stud_cd`,
    );
  });

  app.post('/api/student_interchange/move', { config: page('create'), schema: { tags, summary: 'Move students to another section of their class' } }, async (req) => {
    const ctx = mustCtx(req);
    const parsed = moveStudentsSchema.safeParse(req.body);
    if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'Invalid input.');
    const input = parsed.data;
    const acdmCd = requireYear(ctx);
    if (input.frm_sec_cd === input.to_sec_cd) throw badRequest('Choose a different section to move the students to.');
    const from = await sectionOfClass(db, ctx, input.cls_cd, input.frm_sec_cd, OWN_SECTIONS_ONLY);
    const to = await sectionOfClass(db, ctx, input.cls_cd, input.to_sec_cd, OWN_SECTIONS_ONLY);
    const ids = [...new Set(input.stud_cds)];
    const idList = sql.join(ids.map((id) => sql`${id}`), sql`, `);
    const today = localDateTime().date;
    const by = ctx.user.usr_full_nm.slice(0, 150);

    return withDbErrors(() =>
      db.transaction(async (tx) => {
        // Locked in key order: a concurrent move or edit of the same students waits, then sees them moved.
        const found = await rows<{ stud_cd: number; stud_fs_nm: string; cls_cd: number; sec_cd: number; row_ver: number }>(
          tx,
          sql`SELECT stud_cd, stud_fs_nm, cls_cd, sec_cd, row_ver FROM student
              WHERE inst_cd = ${ctx.instCd} AND acdm_cd = ${acdmCd} AND stud_cd IN (${idList})
              ORDER BY stud_cd FOR UPDATE`,
        );
        for (const id of ids) {
          const s = found.find((x) => x.stud_cd === id);
          if (!s || s.cls_cd !== from.cls_cd || s.sec_cd !== from.sec_cd) {
            throw badRequest(`${s ? s.stud_fs_nm : `Student ${id}`} is not in ${from.cls_nm} ${from.sec_nm} this year.`);
          }
        }
        await tx.execute(sql`
          UPDATE student SET sec_cd = ${to.sec_cd}, row_ver = row_ver + 1, updt_by = ${ctx.user.usr_cd}, updt_dt = now()
          WHERE inst_cd = ${ctx.instCd} AND acdm_cd = ${acdmCd} AND stud_cd IN (${idList})`);
        const values = ids.map(
          (id) =>
            sql`(${ctx.instCd}::int, ${acdmCd}::int, ${id}::int, ${from.cls_cd}::int, ${from.sec_cd}::int, ${to.sec_cd}::int, ${today}::date, ${input.reason}, ${by}, ${ctx.user.usr_cd}::int)`,
        );
        const written = await rows<{ stud_intchg_cd: number; stud_cd: number }>(
          tx,
          sql`INSERT INTO student_interchange
                (inst_cd, acdm_cd, stud_cd, cls_cd, frm_sec_cd, to_sec_cd, stud_intchg_dt, stud_intchg_rsn, stud_intchg_by, crt_by)
              VALUES ${sql.join(values, sql`, `)}
              RETURNING stud_intchg_cd, stud_cd`,
        );
        const moved: MovedStudent[] = [];
        for (const w of written) {
          const s = found.find((x) => x.stud_cd === w.stud_cd)!;
          moved.push({ stud_intchg_cd: w.stud_intchg_cd, stud_cd: s.stud_cd, stud_fs_nm: s.stud_fs_nm });
          // The student's own history shows the section change like any edit, and the record its creation.
          await writeAudit(tx, ctx, student, 'PUT', s.stud_cd, { sec_cd: from.sec_cd, row_ver: s.row_ver }, { sec_cd: to.sec_cd, row_ver: s.row_ver + 1 });
          await writeAudit(tx, ctx, interchange, 'POST', w.stud_intchg_cd, null, { stud_cd: s.stud_cd, cls_cd: from.cls_cd, frm_sec_cd: from.sec_cd, to_sec_cd: to.sec_cd, stud_intchg_rsn: input.reason });
        }
        return { cls_nm: from.cls_nm, frm_sec_nm: from.sec_nm, to_sec_nm: to.sec_nm, moved };
      }),
    );
  });
}
