import { dataChkApplies, dataChkNotApplicable } from '@campus/entities/data-chk';
import { findPage, isAdminRole, livePages, pagesOfEntity, parseButtons } from '@campus/entities/pages';
import { entity } from '@campus/entities/registry';
import { and, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { enterPage, mustCtx, type RequestContext } from '../../access/request-context';
import { dataChkGrantRefusal, effectivePermissions, grantRefusal, hasButton, type Grant } from '../../access/permission';
import { rows, type Db } from '../../db/client';
import { dyn } from '../../db/dyn-table';
import { entityTable } from '../../db/tables';
import { writeAudit } from '../../engine/audit';
import { insertValidated, listRows, withDbErrors } from '../../engine/crud.service';
import { parseListParams } from '../../engine/list-query';
import { localDateTime } from '../../lib/clock';
import { badRequest, forbidden } from '../../lib/http-error';
import { savePermissionsSchema, type PermissionRowInput } from './save-permissions.schema';

const permissionPages = pagesOfEntity('user_permission');
const permEntity = entity('user_permission');

/** Academic detail returned with a page's permission: the request's year. */
async function academicDetail(db: Db, ctx: RequestContext) {
  if (ctx.acdmCd === null) return [];
  return rows<Record<string, unknown>>(
    db,
    sql`SELECT acdm_cd, acdm_strt_yr, acdm_strt_mn, acdm_end_yr, acdm_end_mn, acdm_sts,
               acdm_strt_yr::text || '-' || lpad((acdm_end_yr % 100)::text, 2, '0') AS label
        FROM academic WHERE acdm_cd = ${ctx.acdmCd}`,
  );
}

/** Is the target user someone who may work in this institute (home or mapped)? */
async function userInInstitute(db: Db, usrCd: number, instCd: number): Promise<{ admin: boolean } | null> {
  const [u] = await rows<{ rl_nm: string | null }>(
    db,
    sql`SELECT r.rl_nm FROM employee e LEFT JOIN role r ON r.rl_cd = e.usr_typ
        WHERE e.usr_cd = ${usrCd}
          AND (e.inst_cd = ${instCd} OR EXISTS (SELECT 1 FROM user_institute m WHERE m.usr_cd = e.usr_cd AND m.inst_cd = ${instCd}))`,
  );
  return u ? { admin: isAdminRole(u.rl_nm) } : null;
}

export function registerUserPermissionRoutes(app: FastifyInstance, db: Db): void {
  const tags = ['User Permission'];

  /**
   * One path, three readings (spec section 7): the route guard's
   * ?usr_prms_usr_cd&usr_prms_pth_url&usr_sts=1 -> [permission, table settings, academic detail];
   * the editor's ?usr_prms_usr_cd (or ?upg_cd) -> that subject's rows; anything else -> the paged grid.
   */
  app.get('/api/user_permission/', { config: { access: { kind: 'signed-in' } }, schema: { tags, summary: 'Permission of a page / rows of a user / grid' } }, async (req) => {
    const ctx = mustCtx(req);
    const q = req.query as Record<string, string | undefined>;
    if (q.usr_prms_pth_url !== undefined) {
      // Anyone signed in may ask for their OWN permission on a page; never someone else's this way.
      if (q.usr_prms_usr_cd && q.usr_prms_usr_cd !== String(ctx.user.usr_cd)) throw forbidden('You can only read your own permissions here.');
      const [, mod, pg] = q.usr_prms_pth_url.replace(/^\/+/, '').split('/');
      const perms = await effectivePermissions(db, ctx.user.usr_cd, ctx.instCd, ctx.user.is_admin);
      const p = mod && pg && findPage(mod, pg) ? perms.get(`${mod}/${pg}`) : undefined;
      const settings = await rows<Record<string, unknown>>(
        db,
        sql`SELECT tbl_setg_tbl_nm, tbl_setg_obj FROM table_setting WHERE tbl_setg_usr_cd = ${ctx.user.usr_cd}`,
      );
      return [p ? [p] : [], settings, await academicDetail(db, ctx)];
    }
    await enterPage(req, db, ctx, permissionPages);
    const subjectFilter = q.usr_prms_usr_cd ? { f_usr_prms_usr_cd: q.usr_prms_usr_cd } : q.upg_cd ? { f_upg_cd: q.upg_cd } : null;
    if (subjectFilter) {
      const res = await listRows(db, permEntity, ctx, parseListParams(permEntity, { ...subjectFilter, size: '500' }));
      return res.rows;
    }
    return listRows(db, permEntity, ctx, parseListParams(permEntity, q));
  });

  app.get('/api/user_permission/userDetail', { config: { access: { kind: 'signed-in' } }, schema: { tags, summary: 'Signed-in user and allowed pages' } }, async (req) => {
    const ctx = mustCtx(req);
    const perms = await effectivePermissions(db, ctx.user.usr_cd, ctx.instCd, ctx.user.is_admin);
    return { user: ctx.user, inst_cd: ctx.instCd, acdm_cd: ctx.acdmCd, permissions: [...perms.values()].filter((p) => p.usr_prms_is_alw) };
  });

  app.get('/api/user_permission/crudpage', { config: { access: { kind: 'page', pages: permissionPages } }, schema: { tags, summary: 'Pages and buttons that can be granted' } }, async () =>
    livePages().map((pg) => {
      // Whether 'his students only' can narrow the page; where not, the editor greys the box out with the note.
      const dataChk = dataChkApplies(pg);
      return { module: pg.module, page: pg.page, label: pg.label, path: `sms/${pg.module}/${pg.page}`, buttons: pg.buttons, data_chk: dataChk, ...(dataChk ? {} : { data_chk_note: dataChkNotApplicable(pg) }) };
    }),
  );

  app.post('/api/user_permission/', { config: { access: { kind: 'page', pages: permissionPages } }, schema: { tags, summary: 'Save a user or group permission list' } }, async (req) => {
    const ctx = mustCtx(req);
    if (!hasButton(ctx.perm ?? undefined, 'create') && !hasButton(ctx.perm ?? undefined, 'edit')) {
      throw forbidden("You do not have the 'create' or 'edit' permission on this page.");
    }
    const parsed = savePermissionsSchema.safeParse(req.body);
    if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'Invalid permission list.');
    const q = req.query as { usrNeedDataChk?: string };
    const dataChk = q.usrNeedDataChk === '1' || q.usrNeedDataChk === 'true';
    return { saved: await savePermissions(db, ctx, parsed.data, dataChk) };
  });
}

/**
 * Replaces a user's (or group's) rows for the listed pages. Nobody grants what they do not hold: every
 * allowed page, button and unrestricted data access must be the editor's own. Only admins edit admins.
 * 'His students only' is each row's own flag when it names one, else the save's; an allowed page it cannot
 * narrow is refused with it (400), and a page not allowed is stored without it.
 */
export async function savePermissions(db: Db, ctx: RequestContext, list: PermissionRowInput[], dataChk: boolean): Promise<number> {
  const subjects = new Set(list.map((r) => (r.usr_prms_usr_cd ? `u${r.usr_prms_usr_cd}` : `g${r.upg_cd}`)));
  if (subjects.size !== 1) throw badRequest('Save the permissions of one employee or one group at a time.');
  const first = list[0];
  if (first.usr_prms_usr_cd) {
    const target = await userInInstitute(db, first.usr_prms_usr_cd, ctx.instCd);
    if (!target) throw badRequest('This employee does not work in the institute.');
    if (target.admin && !ctx.user.is_admin) throw forbidden("Only an administrator can change an administrator's permissions.");
  } else {
    const g = dyn(entityTable('user_permission_group').table);
    const [hit] = await db.select({ k: g.upg_cd }).from(g).where(and(eq(g.upg_cd, first.upg_cd), eq(g.inst_cd, ctx.instCd)));
    if (!hit) throw badRequest('This permission group does not exist in the institute.');
  }
  const mine = await effectivePermissions(db, ctx.user.usr_cd, ctx.instCd, ctx.user.is_admin);
  const seen = new Set<string>();
  for (const r of list) {
    const pg = findPage(r.usr_prms_mdl, r.usr_prms_page);
    if (!pg || !pg.entity) throw badRequest(`Unknown page ${r.usr_prms_mdl}/${r.usr_prms_page}.`);
    const k = `${pg.module}/${pg.page}`;
    if (seen.has(k)) throw badRequest(`The page ${k} is listed twice.`);
    seen.add(k);
    const btns = parseButtons(r.usr_prms_btns);
    const unknown = btns.filter((b) => !pg.buttons.includes(b));
    if (unknown.length) throw badRequest(`The page ${k} has no button(s) ${unknown.join(', ')}.`);
  }
  const flagOf = (r: PermissionRowInput): boolean => {
    const pg = findPage(r.usr_prms_mdl, r.usr_prms_page);
    return (r.usr_need_data_chk ?? dataChk) && (r.usr_prms_is_alw || (pg !== undefined && dataChkApplies(pg)));
  };
  const grants: Grant[] = list.map((r) => ({ module: r.usr_prms_mdl, page: r.usr_prms_page, allowed: r.usr_prms_is_alw, buttons: parseButtons(r.usr_prms_btns), dataChk: flagOf(r) }));
  const misplaced = dataChkGrantRefusal(grants);
  if (misplaced) throw badRequest(misplaced);
  const refusal = grantRefusal(mine, grants);
  if (refusal) throw forbidden(refusal);

  const t = dyn(entityTable('user_permission').table);
  const subjectCond = first.usr_prms_usr_cd
    ? and(eq(t.usr_prms_usr_cd, first.usr_prms_usr_cd), isNull(t.upg_cd))
    : and(eq(t.upg_cd, first.upg_cd), isNull(t.usr_prms_usr_cd));
  return withDbErrors(() =>
    db.transaction(async (tx) => {
      const pageConds = list.map((r) => and(eq(t.usr_prms_mdl, r.usr_prms_mdl), eq(t.usr_prms_page, r.usr_prms_page)));
      const old = await tx.select().from(t).where(and(eq(t.inst_cd, ctx.instCd), subjectCond, or(...pageConds))).for('update');
      if (old.length) await tx.delete(t).where(inArray(t.usr_prms_cd, old.map((o) => o.usr_prms_cd)));
      for (const r of list) {
        await insertValidated(tx, permEntity, ctx, {
          usr_prms_usr_cd: r.usr_prms_usr_cd ?? null,
          upg_cd: r.upg_cd ?? null,
          usr_prms_mdl: r.usr_prms_mdl,
          usr_prms_page: r.usr_prms_page,
          usr_prms_pth_url: `sms/${r.usr_prms_mdl}/${r.usr_prms_page}`,
          usr_prms_is_alw: r.usr_prms_is_alw,
          usr_prms_btns: parseButtons(r.usr_prms_btns).join(','),
          usr_need_data_chk: flagOf(r),
          usr_prms_dscr: r.usr_prms_dscr ?? null,
          usr_sts: true,
        });
      }
      // Before and after images of the whole replaced set, so that history shows who gave or took what.
      const subject = first.usr_prms_usr_cd ? `usr:${first.usr_prms_usr_cd}` : `grp:${first.upg_cd}`;
      await writeAudit(tx, ctx, permEntity, 'REPLACE', subject, { rows: old }, { rows: list.map((r) => ({ ...r, usr_need_data_chk: flagOf(r) })), at: localDateTime().date });
      return list.length;
    }),
  );
}
