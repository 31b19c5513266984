import { findPage, isAdminRole, parseButtons } from '@campus/entities/pages';
import { effectivePermissions, grantOf, grantRefusal, type EffectivePermission, type Grant } from '../access/permission';
import type { RequestContext } from '../access/request-context';
import { rows, sql, type Tx } from '../db/client';
import { registerHooks, type Row } from '../engine/entity-hooks';
import { forbidden } from '../lib/http-error';

const ADMIN_TARGET = "Only an administrator can change an administrator's permissions.";

async function isAdminUser(tx: Tx, usrCd: number): Promise<boolean> {
  const [u] = await rows<{ rl_nm: string | null }>(tx, sql`SELECT r.rl_nm FROM employee e LEFT JOIN role r ON r.rl_cd = e.usr_typ WHERE e.usr_cd = ${usrCd}`);
  return isAdminRole(u?.rl_nm);
}

const mineOf = (tx: Tx, ctx: RequestContext): Promise<Map<string, EffectivePermission>> =>
  effectivePermissions(tx, ctx.user.usr_cd, ctx.instCd, ctx.user.is_admin);

/** Everything a group's rows give in this institute. */
async function groupGrants(tx: Tx, instCd: number, upgCd: number): Promise<Grant[]> {
  const found = await rows<{ usr_prms_mdl: string; usr_prms_page: string; usr_prms_is_alw: boolean; usr_prms_btns: string | null; usr_need_data_chk: boolean }>(
    tx,
    sql`SELECT usr_prms_mdl, usr_prms_page, usr_prms_is_alw, usr_prms_btns, usr_need_data_chk
        FROM user_permission WHERE inst_cd = ${instCd} AND upg_cd = ${upgCd} AND usr_sts`,
  );
  return found.map((r) => ({
    module: r.usr_prms_mdl,
    page: r.usr_prms_page,
    allowed: r.usr_prms_is_alw,
    buttons: parseButtons(r.usr_prms_btns),
    dataChk: r.usr_need_data_chk,
  }));
}

/**
 * Putting someone into a group hands them the group's rights: the same rule as saving permission rows
 * applies (nobody grants what they do not hold; only admins touch admins), or a clerk with the mapping
 * page could join a stronger group and lift themselves up.
 */
async function assertMayMap(tx: Tx, ctx: RequestContext, usrCd: number, upgCd: number): Promise<void> {
  if (!ctx.user.is_admin && (await isAdminUser(tx, usrCd))) throw forbidden(ADMIN_TARGET);
  const refusal = grantRefusal(await mineOf(tx, ctx), await groupGrants(tx, ctx.instCd, upgCd));
  if (refusal) throw forbidden(`${refusal} (The group gives it to its members.)`);
}

export function registerUserPermissionHooks(): void {
  registerHooks('user_permission_mapping', {
    async beforeCreate(tx, ctx, values) {
      await assertMayMap(tx, ctx, Number(values.usr_cd), Number(values.upg_cd));
    },
    async beforeUpdate(tx, ctx, before, changes) {
      if (!ctx.user.is_admin && (await isAdminUser(tx, Number(before.usr_cd)))) throw forbidden(ADMIN_TARGET);
      await assertMayMap(tx, ctx, Number(changes.usr_cd ?? before.usr_cd), Number(changes.upg_cd ?? before.upg_cd));
    },
    async beforeDelete(tx, ctx, rs) {
      // Leaving a group only narrows rights; an admin's memberships are still the admins' business.
      if (ctx.user.is_admin) return;
      for (const r of rs) if (await isAdminUser(tx, Number(r.usr_cd))) throw forbidden(ADMIN_TARGET);
    },
  });

  registerHooks('user_permission', {
    /**
     * Removing a user's own row is a grant too: without it the user falls back to what their groups give,
     * which may be more (an own row that restricts is how a group member is held back).
     */
    async beforeDelete(tx, ctx, rs) {
      const users = rs.filter((r: Row) => r.usr_prms_usr_cd !== null && r.usr_prms_usr_cd !== undefined);
      if (users.length === 0) return;
      const mine = await mineOf(tx, ctx);
      for (const r of users) {
        const usrCd = Number(r.usr_prms_usr_cd);
        const targetIsAdmin = await isAdminUser(tx, usrCd);
        if (!ctx.user.is_admin && targetIsAdmin) throw forbidden(ADMIN_TARGET);
        const page = findPage(String(r.usr_prms_mdl), String(r.usr_prms_page));
        if (!page) continue;
        const fallback = await effectivePermissions(tx, usrCd, ctx.instCd, targetIsAdmin, page, true);
        const refusal = grantRefusal(mine, [...fallback.values()].map(grantOf));
        if (refusal) throw forbidden(`${refusal} (Removing this row leaves the employee with what their groups give.)`);
      }
    },
  });
}
