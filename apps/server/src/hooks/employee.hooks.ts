import { isAdminRole } from '@campus/entities/pages';
import { passwordProblem } from '../access/password-policy';
import { revokeUserSessions } from '../access/session';
import type { RequestContext } from '../access/request-context';
import { rows, sql, type Tx } from '../db/client';
import { registerHooks } from '../engine/entity-hooks';
import { badRequest, forbidden } from '../lib/http-error';

export const OWN_PASSWORD_ELSEWHERE = 'To change your own password, use Change Password in the menu under your name: it asks for your current password.';

/** A new password must pass the policy (password-policy.ts); the refusal names the field. */
function assertPasswordAcceptable(pwd: unknown, loginId: unknown): void {
  if (typeof pwd !== 'string' || pwd === '') return;
  const problem = passwordProblem(pwd, typeof loginId === 'string' ? loginId : null);
  if (problem) throw badRequest(problem, [{ field: 'usr_pwd', message: problem }]);
}

async function assertRoleGrantable(tx: Tx, ctx: RequestContext, roleCd: unknown): Promise<void> {
  if (roleCd === null || roleCd === undefined || ctx.user.is_admin) return;
  const [r] = await rows<{ rl_nm: string }>(tx, sql`SELECT rl_nm FROM role WHERE rl_cd = ${Number(roleCd)}`);
  if (r && isAdminRole(r.rl_nm)) throw forbidden('Only an administrator can give an administrator role.');
}

/**
 * Role and login changes are where a clerk could lift themselves up: an admin role is given only by an
 * admin, nobody changes their own role or disables their own login, and a disabled login or a changed
 * password ends every open session of that employee at once.
 */
export function registerEmployeeHooks(): void {
  registerHooks('employee', {
    async beforeCreate(tx, ctx, values) {
      if (values.usr_is_lgn && !values.usr_pwd) throw badRequest("Please enter the 'Password' to allow login.");
      assertPasswordAcceptable(values.usr_pwd, values.usr_nm);
      await assertRoleGrantable(tx, ctx, values.usr_typ);
    },
    async beforeUpdate(tx, ctx, before, changes) {
      const self = Number(before.usr_cd) === ctx.user.usr_cd;
      // Whoever can set a password can sign in as its owner: only the owner, or an administrator.
      if (!self && !ctx.user.is_admin && isAdminRole(String(before.rl_nm ?? ''))) throw forbidden("Only an administrator can change an administrator's record.");
      if (!self && !ctx.user.is_admin && typeof changes.usr_pwd === 'string') throw forbidden("Only an administrator can change another employee's password.");
      if (self && changes.usr_is_lgn === false) throw badRequest('You cannot disable your own login.');
      if (typeof changes.usr_pwd === 'string') {
        // One's own: only with the current password (POST /api/employee/password/), so a session left open on
        // a shared computer cannot be turned into the account. Someone else's (an administrator's reset):
        // the owner must choose a new one at the next sign-in, since the administrator knows this one.
        if (self) throw badRequest(OWN_PASSWORD_ELSEWHERE, [{ field: 'usr_pwd', message: OWN_PASSWORD_ELSEWHERE }]);
        assertPasswordAcceptable(changes.usr_pwd, before.usr_nm);
        changes.usr_pwd_chg_req = true;
      }
      if ('usr_typ' in changes) {
        if (self) throw forbidden('You cannot change your own role.');
        await assertRoleGrantable(tx, ctx, changes.usr_typ);
        if (!ctx.user.is_admin && isAdminRole(String(before.rl_nm ?? ''))) throw forbidden("Only an administrator can change an administrator's role.");
      }
      // Changing one's own password keeps the session that did it (the others end: a stolen one among them).
      if (changes.usr_is_lgn === false || typeof changes.usr_pwd === 'string') await revokeUserSessions(tx, Number(before.usr_cd), self ? ctx.token : undefined);
    },
    async beforeDelete(_tx, ctx, rows) {
      if (rows.some((r) => Number(r.usr_cd) === ctx.user.usr_cd)) throw badRequest('You cannot delete your own record.');
      if (!ctx.user.is_admin && rows.some((r) => isAdminRole(String(r.rl_nm ?? '')))) throw forbidden("Only an administrator can delete an administrator's record.");
    },
  });
}
