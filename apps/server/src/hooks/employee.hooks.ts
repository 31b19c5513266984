import { revokeUserSessions } from '../access/session';
import { registerHooks } from '../engine/entity-hooks';
import { badRequest } from '../lib/http-error';

/** A disabled login or a changed password ends every open session of that employee at once. */
export function registerEmployeeHooks(): void {
  registerHooks('employee', {
    async beforeCreate(_tx, _ctx, values) {
      if (values.usr_is_lgn && !values.usr_pwd) throw badRequest("Please enter the 'Password' to allow login.");
    },
    async beforeUpdate(tx, ctx, before, changes) {
      if (Number(before.usr_cd) === ctx.user.usr_cd && changes.usr_is_lgn === false) {
        throw badRequest('You cannot disable your own login.');
      }
      if (changes.usr_is_lgn === false || typeof changes.usr_pwd === 'string') await revokeUserSessions(tx, Number(before.usr_cd));
    },
  });
}
