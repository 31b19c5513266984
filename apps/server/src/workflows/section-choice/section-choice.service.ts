import type { RequestContext } from '../../access/request-context';
import { rows, sql, type DbOrTx } from '../../db/client';
import { badRequest, forbidden } from '../../lib/http-error';

export interface SectionChoice {
  sec_cd: number;
  sec_nm: string;
  cls_cd: number;
  cls_nm: string;
}

/**
 * Under data_chk ('his students only') a section is the user's when this year's subject mapping names them
 * on it: the same rule the student grid follows (student's ownership through subject_detail).
 */
const mineOnly = (ctx: RequestContext) =>
  ctx.dataChk
    ? sql`AND EXISTS (SELECT 1 FROM subject_detail d WHERE d.sec_cd = s.sec_cd AND d.usr_cd = ${ctx.user.usr_cd}
                      AND d.inst_cd = ${ctx.instCd} AND d.acdm_cd = ${ctx.acdmCd ?? -1})`
    : sql``;

/** The sections a workflow screen may offer: the institute's, or only the user's own under data_chk. */
export async function sectionChoices(db: DbOrTx, ctx: RequestContext): Promise<SectionChoice[]> {
  return rows<SectionChoice>(
    db,
    sql`SELECT s.sec_cd, s.sec_nm, c.cls_cd, c.cls_nm FROM section s JOIN class c ON c.cls_cd = s.cls_cd
        WHERE s.inst_cd = ${ctx.instCd} ${mineOnly(ctx)}
        ORDER BY c.cls_odr NULLS LAST, c.cls_nm, s.sec_nm`,
  );
}

export function requireYear(ctx: RequestContext): number {
  if (ctx.acdmCd === null) throw badRequest('Choose an academic year first.');
  return ctx.acdmCd;
}

/**
 * The section as a section of the given class in the request's institute (400 otherwise), and, under
 * data_chk, one of the user's own sections (403 otherwise, with `refusal`).
 */
export async function sectionOfClass(db: DbOrTx, ctx: RequestContext, clsCd: number, secCd: number, refusal: string): Promise<SectionChoice> {
  const [sec] = await rows<SectionChoice>(
    db,
    sql`SELECT s.sec_cd, s.sec_nm, c.cls_cd, c.cls_nm FROM section s JOIN class c ON c.cls_cd = s.cls_cd
        WHERE s.sec_cd = ${secCd} AND s.inst_cd = ${ctx.instCd}`,
  );
  if (!sec) throw badRequest("'Section' is not a valid choice.");
  if (sec.cls_cd !== clsCd) throw badRequest(`Section '${sec.sec_nm}' is not a section of the chosen class.`);
  if (ctx.dataChk) {
    const [own] = await rows<{ k: number }>(db, sql`SELECT 1 AS k FROM section s WHERE s.sec_cd = ${secCd} ${mineOnly(ctx)}`);
    if (!own) throw forbidden(refusal);
  }
  return sec;
}
