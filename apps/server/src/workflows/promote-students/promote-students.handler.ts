import { findPage } from '@campus/entities/pages';
import { entity } from '@campus/entities/registry';
import type { FastifyInstance } from 'fastify';
import { mustCtx } from '../../access/request-context';
import type { Db } from '../../db/client';
import { badRequest } from '../../lib/http-error';
import { sectionChoices } from '../section-choice/section-choice.service';
import { instituteYears, planPromotion } from './promotion-plan';
import { promoteStudentsSchema, type PromoteStudentsInput } from './promote-students.schema';
import { promoteStudents } from './promote-students.service';
import { undoPromotion } from './undo-promotion.service';

const promotion = entity('promotion');
const promotionPage = [findPage('student', 'promotion')!];

function parse(body: unknown): PromoteStudentsInput {
  const parsed = promoteStudentsSchema.safeParse(body);
  if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'Invalid promotion.');
  return parsed.data;
}

/**
 * Promotion: a section's children of one year become next year's children of a section (usually of the next
 * class). The preview and the screen's choices belong to the create screen, so they need 'create' as the run
 * does; undo has its own button.
 */
export function registerPromoteStudentsRoutes(app: FastifyInstance, db: Db): void {
  const tags = [promotion.label];
  const page = (button: string) => ({ access: { kind: 'page' as const, pages: promotionPage, button } });

  app.get('/api/promotion/choices', { config: page('create'), schema: { tags, summary: "The institute's years and sections to promote between" } }, async (req) => {
    const ctx = mustCtx(req);
    const years = await instituteYears(db, ctx.instCd);
    return {
      years: years.filter((y) => y.acdm_sts || ctx.user.is_admin),
      current_acdm_cd: ctx.acdmCd,
      // Any section may receive children; the server still checks the from-sections under 'his students only'.
      sections: await sectionChoices(db, { ...ctx, dataChk: false }),
    };
  });

  app.post('/api/promotion/preview', { config: page('create'), schema: { tags, summary: 'Who would move, who is already there, who is held back, who leaves' } }, async (req) =>
    planPromotion(db, mustCtx(req), parse(req.body)),
  );

  app.post('/api/promotion/', { config: page('create'), schema: { tags, summary: "Promote: next year's student rows, one promotion per section, wallets carried" } }, async (req, reply) => {
    const result = await promoteStudents(db, mustCtx(req), parse(req.body));
    reply.code(201);
    return result;
  });

  app.post('/api/promotion/:prmtn_cd/undo', { config: page('undo'), schema: { tags, summary: "Undo a promotion: its rows leave the target year, wallets carried back" } }, async (req) => {
    const id = Number((req.params as { prmtn_cd: string }).prmtn_cd);
    if (!Number.isInteger(id) || id <= 0 || id > 2_147_483_647) throw badRequest('The promotion code must be a number.');
    return undoPromotion(db, mustCtx(req), id);
  });
}
