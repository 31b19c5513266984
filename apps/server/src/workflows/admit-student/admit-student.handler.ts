import { findPage } from '@campus/entities/pages';
import { entity } from '@campus/entities/registry';
import type { FastifyInstance } from 'fastify';
import { mustCtx, type RequestContext } from '../../access/request-context';
import { sql, type Db } from '../../db/client';
import { writeAudit } from '../../engine/audit';
import { getRow, insertValidated, withDbErrors } from '../../engine/crud.service';
import type { Row } from '../../engine/entity-hooks';
import { localDateTime } from '../../lib/clock';
import { badRequest, conflict } from '../../lib/http-error';
import { registerAdmissionHooks } from './admission.hooks';
import { nextAdmissionNumber } from './admission-number';
import { parseAdmitStudent, type AdmitStudentInput } from './admit-student.schema';

const admission = entity('student_admission');
const student = entity('student');
const admissionPage = [findPage('student', 'admission')!];

export const ALREADY_ADMITTED = 'This application is already admitted.';

const refusedStatus: Record<string, string> = {
  Admitted: ALREADY_ADMITTED,
  Rejected: 'This application was rejected; a rejected application cannot be admitted.',
  Withdrawn: 'This application was withdrawn; a withdrawn application cannot be admitted.',
};

/**
 * One application becomes this year's student, in one transaction: the application is locked first, so of
 * two admits at once the second waits and then finds it admitted (409). The student row goes through the
 * engine's own insert (links, section of the class, joining not before birth, hooks, audit), numbered from
 * the institute's pattern.
 */
export async function admitStudent(db: Db, ctx: RequestContext, input: AdmitStudentInput): Promise<Row> {
  if (ctx.acdmCd === null) throw badRequest('Choose an academic year first.');
  return withDbErrors(() =>
    db.transaction(async (tx) => {
      const app = await getRow(tx, admission, ctx, input.stud_admn_cd, true);
      const status = String(app.stud_admn_status);
      if (refusedStatus[status]) throw conflict(refusedStatus[status]);
      const clsCd = input.cls_cd ?? (app.cls_cd === null ? null : Number(app.cls_cd));
      if (clsCd === null) throw badRequest("Please select the 'Class'.", [{ field: 'cls_cd', message: "Please select the 'Class'." }]);
      const doj = input.stud_doj ?? localDateTime().date;
      const values: Row = {
        stud_fs_nm: app.stud_admn_stud_nm,
        stud_adm_cd: await nextAdmissionNumber(tx, ctx.instCd, Number(doj.slice(0, 4))),
        cls_cd: clsCd,
        sec_cd: input.sec_cd,
        stud_dob: app.stud_admn_stud_dob ?? null,
        stud_doj: doj,
        stud_ph: app.stud_admn_stud_mob ?? null,
      };
      const created = await insertValidated(tx, student, ctx, values);
      await tx.execute(
        sql`UPDATE student_admission SET stud_admn_status = 'Admitted', stud_cd = ${Number(created.stud_cd)}, row_ver = row_ver + 1,
              updt_by = ${ctx.user.usr_cd}, updt_dt = now()
            WHERE stud_admn_cd = ${input.stud_admn_cd}`,
      );
      const after = await getRow(tx, admission, ctx, input.stud_admn_cd);
      // The class the child was admitted into is the student's; the application keeps the class applied for,
      // and its history names both when they differ.
      await writeAudit(tx, ctx, admission, 'PUT', input.stud_admn_cd, app, { ...after, admitted_cls_cd: clsCd });
      return created;
    }),
  );
}

export function registerAdmitStudentRoutes(app: FastifyInstance, db: Db): void {
  registerAdmissionHooks();
  app.post(
    '/api/student_admission/admit',
    {
      config: { access: { kind: 'page', pages: admissionPage, button: 'admit' } },
      schema: { tags: [admission.label], summary: "Admit an application: this year's student with a new admission number" },
    },
    async (req, reply) => {
      const parsed = parseAdmitStudent(req.body);
      if (!parsed.ok) throw badRequest(parsed.message, parsed.field ? [{ field: parsed.field, message: parsed.message }] : undefined);
      const created = await admitStudent(db, mustCtx(req), parsed.data);
      reply.code(201);
      return created;
    },
  );
}

