import { sql } from '../db/client';
import { dyn } from '../db/dyn-table';
import { entityTable } from '../db/tables';
import { registerHooks } from '../engine/entity-hooks';

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
    // An institute's own set-up (who may enter it, their permissions, settings) goes with it; any real
    // data (staff, masters, years, history) still blocks the delete with a message naming it.
    async beforeDelete(tx, _ctx, rows) {
      for (const r of rows) {
        const id = Number(r.inst_cd);
        await tx.execute(sql`DELETE FROM user_permission WHERE inst_cd = ${id}`);
        await tx.execute(sql`DELETE FROM user_permission_mapping WHERE inst_cd = ${id}`);
        await tx.execute(sql`DELETE FROM user_institute WHERE inst_cd = ${id}`);
        await tx.execute(sql`DELETE FROM setting WHERE inst_cd = ${id}`);
      }
    },
  });
}
