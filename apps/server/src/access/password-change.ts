import { entity } from '@campus/entities/registry';
import { hash, verify } from '@node-rs/argon2';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Config } from '../config';
import { rows, sql, type Db } from '../db/client';
import { writeAudit } from '../engine/audit';
import { badRequest } from '../lib/http-error';
import { countersFor, countTry, deviceHashOf, forgiveTry, isKnownDevice } from './login-throttle';
import { passwordProblem } from './password-policy';
import { loadUser, mustCtx } from './request-context';
import { revokeUserSessions } from './session';

export const MUST_CHANGE_PASSWORD = 'An administrator has reset your password. Please choose a new one to sign in.';
export const WRONG_CURRENT_PASSWORD = 'The current password is not right.';
export const SAME_PASSWORD = 'The new password must differ from the current one.';

const employeeEntity = entity('employee');

const changeBody = z.object({
  usr_pwd_current: z.string({ error: "Please enter the 'Current Password'." }).min(1, "Please enter the 'Current Password'.").max(200),
  usr_pwd: z.string({ error: "Please enter the 'New Password'." }).min(1, "Please enter the 'New Password'.").max(200),
});

/**
 * Stores a password its owner chose (knowing the current one, checked by the caller): the policy first, then
 * the hash; clears 'must change' and ends the owner's other sessions (all of them at sign-in, where there is
 * none to keep yet). `field` names the box the refusal belongs to.
 */
export async function setOwnPassword(db: Db, u: { usr_cd: number; usr_nm: string }, current: string, next: string, field: string, keepToken?: string): Promise<void> {
  checkOwnPassword(u.usr_nm, current, next, field);
  const hashed = await hash(next);
  await db.transaction(async (tx) => {
    await tx.execute(sql`UPDATE employee SET usr_pwd = ${hashed}, usr_pwd_chg_req = false, row_ver = row_ver + 1 WHERE usr_cd = ${u.usr_cd}`);
    await revokeUserSessions(tx, u.usr_cd, keepToken);
  });
}

/** Refuses (400, on `field`) a new password the policy refuses or that repeats the current one. */
export function checkOwnPassword(usrNm: string, current: string, next: string, field: string): void {
  const problem = passwordProblem(next, usrNm);
  if (problem) throw badRequest(problem, [{ field, message: problem }]);
  if (next === current) throw badRequest(SAME_PASSWORD, [{ field, message: SAME_PASSWORD }]);
}

/** Whether an administrator's reset is waiting for the owner's own choice. */
export async function mustChangePassword(db: Db, usrCd: number): Promise<boolean> {
  const [r] = await rows<{ req: boolean }>(db, sql`SELECT usr_pwd_chg_req AS req FROM employee WHERE usr_cd = ${usrCd}`);
  return r?.req === true;
}

/**
 * Change Password (issue 11): the signed-in user's own password, only with the current one. A wrong current
 * password is a failed sign-in try for the throttle (a session left open must not become a way to guess).
 */
export function registerPasswordRoutes(app: FastifyInstance, db: Db, cfg: Config): void {
  app.post(
    '/api/employee/password/',
    { config: { access: { kind: 'signed-in' } }, schema: { tags: ['Auth'], summary: 'Change one’s own password (asks for the current one)' } },
    async (req, reply) => {
      const ctx = mustCtx(req);
      const body = changeBody.safeParse(req.body);
      if (!body.success) throw badRequest(body.error.issues[0]?.message ?? 'Please enter the current and the new password.');
      const u = await loadUser(db, { usrCd: ctx.user.usr_cd });
      if (!u?.usr_pwd) throw badRequest(WRONG_CURRENT_PASSWORD);
      const device = deviceHashOf(req);
      const counters = countersFor(cfg, u.usr_nm, req.ip, (await isKnownDevice(db, device, u.usr_cd)) ? device : null);
      await countTry(db, cfg, counters, reply);
      const ok = await verify(u.usr_pwd, body.data.usr_pwd_current).catch(() => false);
      if (!ok) throw badRequest(WRONG_CURRENT_PASSWORD, [{ field: 'usr_pwd_current', message: WRONG_CURRENT_PASSWORD }]);
      await forgiveTry(db, cfg, counters);
      await setOwnPassword(db, u, body.data.usr_pwd_current, body.data.usr_pwd, 'usr_pwd', ctx.token);
      // The history says that it changed, never what to.
      await writeAudit(db, ctx, employeeEntity, 'PUT', u.usr_cd, null, { usr_pwd: 'changed by its owner' });
      return { ok: true };
    },
  );
}
