import { findPage } from '@campus/entities/pages';
import { effectivePermissions, hasButton } from '../access/permission';
import type { RequestContext } from '../access/request-context';
import { sql, type Tx } from '../db/client';
import { forbidden } from '../lib/http-error';
import { dyn } from '../db/dyn-table';
import { entityTable } from '../db/tables';
import { registerHooks } from '../engine/entity-hooks';

/**
 * Institute rows are listed across every institute the user is mapped to, but permissions are per
 * institute: changing another institute's row needs the same page and button THERE, not just here.
 */
async function assertButtonIn(tx: Tx, ctx: RequestContext, instCd: number, buttons: readonly string[]): Promise<void> {
  if (instCd === ctx.instCd) return;
  const page = ctx.page ? findPage(ctx.page.module, ctx.page.page) : undefined;
  if (!page) throw forbidden('You are not allowed to open this page.');
  const there = (await effectivePermissions(tx, ctx.user.usr_cd, instCd, ctx.user.is_admin, page)).get(`${page.module}/${page.page}`);
  const lacking = buttons.filter((b) => !hasButton(there, b));
  if (lacking.length) throw forbidden(`You do not have the '${lacking.join(', ')}' permission on this page in that institute.`);
}

/**
 * Whoever creates an institute is mapped to it and keeps, there, the permissions they hold here; otherwise
 * they could not open what they just made.
 */
export function registerInstituteHooks(): void {
  registerHooks('institute', {
    async afterCreate(tx, ctx, row) {
      if (Number(row.inst_cd) === ctx.user.usr_inst_cd) return;
      await tx.insert(dyn(entityTable('user_institute').table)).values({
        inst_cd: Number(row.inst_cd),
        usr_cd: ctx.user.usr_cd,
        usr_inst_sts: true,
        usr_inst_dscr: 'Creator of the institute',
        crt_by: ctx.user.usr_cd,
      });
      await tx.execute(sql`
        INSERT INTO user_permission (inst_cd, usr_prms_usr_cd, usr_prms_mdl, usr_prms_page, usr_prms_pth_url, usr_prms_is_alw,
                                     usr_prms_btns, usr_need_data_chk, usr_prms_dscr, usr_sts, usr_prms_hdr_crt_dt, crt_by)
        SELECT ${Number(row.inst_cd)}, usr_prms_usr_cd, usr_prms_mdl, usr_prms_page, usr_prms_pth_url, usr_prms_is_alw,
               usr_prms_btns, usr_need_data_chk, usr_prms_dscr, usr_sts, current_date, ${ctx.user.usr_cd}
        FROM user_permission WHERE inst_cd = ${ctx.instCd} AND usr_prms_usr_cd = ${ctx.user.usr_cd}`);
    },
    async beforeUpdate(tx, ctx, before, changes) {
      const keys = Object.keys(changes);
      const buttons = [...(keys.some((k) => k !== 'is_active') ? ['edit'] : []), ...('is_active' in changes ? ['active'] : [])];
      await assertButtonIn(tx, ctx, Number(before.inst_cd), buttons);
    },
    // An institute's own set-up (who may enter it, their permissions, settings) goes with it; any real
    // data (staff, masters, years, history) still blocks the delete with a message naming it.
    async beforeDelete(tx, ctx, rows) {
      for (const r of rows) {
        const id = Number(r.inst_cd);
        if (id === ctx.instCd) throw forbidden('You cannot delete the institute you are working in: switch to another institute first.');
        await assertButtonIn(tx, ctx, id, ['delete']);
        await tx.execute(sql`DELETE FROM user_permission WHERE inst_cd = ${id}`);
        await tx.execute(sql`DELETE FROM user_permission_mapping WHERE inst_cd = ${id}`);
        await tx.execute(sql`DELETE FROM user_institute WHERE inst_cd = ${id}`);
        await tx.execute(sql`DELETE FROM setting WHERE inst_cd = ${id}`);
      }
    },
  });
}
