import { isAdminRole } from '@campus/entities/pages';
import { registerHooks } from '../engine/entity-hooks';
import { forbidden } from '../lib/http-error';

const ADMIN_ROLE_ONLY = 'Only an administrator can create, rename or delete a role named ADMIN or HEAD: such a role makes its holders administrators.';

/**
 * Admin rights follow the role's name (spec section 6), so naming is granting: a clerk who could rename
 * their own role to 'Office Head' would become an administrator, and renaming ADMIN would demote them all.
 */
export function registerRoleHooks(): void {
  registerHooks('role', {
    async beforeCreate(_tx, ctx, values) {
      if (!ctx.user.is_admin && isAdminRole(String(values.rl_nm ?? ''))) throw forbidden(ADMIN_ROLE_ONLY);
    },
    async beforeUpdate(_tx, ctx, before, changes) {
      if (ctx.user.is_admin || !('rl_nm' in changes)) return;
      if (isAdminRole(String(before.rl_nm ?? '')) || isAdminRole(String(changes.rl_nm ?? ''))) throw forbidden(ADMIN_ROLE_ONLY);
    },
    async beforeDelete(_tx, ctx, rows) {
      if (!ctx.user.is_admin && rows.some((r) => isAdminRole(String(r.rl_nm ?? '')))) throw forbidden(ADMIN_ROLE_ONLY);
    },
  });
}
