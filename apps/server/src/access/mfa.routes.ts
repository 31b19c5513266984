import { apiUrl } from '@campus/entities/define';
import { entity } from '@campus/entities/registry';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Config } from '../config';
import { rows, sql, type Db, type DbOrTx } from '../db/client';
import { writeAudit } from '../engine/audit';
import { badRequest, notFound } from '../lib/http-error';
import { acceptCode, factorOf, MFA_CODE_WRONG, needsFactor, newRecoveryCodes, recoveryLeft, startEnrolment } from './mfa';
import { mustCtx } from './request-context';

const employeeEntity = entity('employee');
const resetButton = employeeEntity.workflowButtons!.find((b) => b.path === 'mfa_reset')!;
const requireButton = employeeEntity.workflowButtons!.find((b) => b.path === 'mfa_require')!;

export const MFA_ALREADY = 'Two-step sign-in is already set up. To set it up on another phone, turn it off first or ask an administrator to reset it.';
export const MFA_NOT_STARTED = 'Start the set-up first: the code belongs to the key shown with the QR code.';
export const MFA_NOT_SET = 'Two-step sign-in is not set up.';
export const MFA_CANNOT_DISABLE = 'Two-step sign-in is required for your account; it cannot be turned off (an administrator can reset it).';

const codeBody = z.object({
  mfa_code: z.string({ error: "Please enter the 'Code'." }).trim().min(1, "Please enter the 'Code'.").max(12),
});
const requireBody = z.object({ required: z.boolean().optional() }).optional();

const badCode = () => badRequest(MFA_CODE_WRONG, [{ field: 'mfa_code', message: MFA_CODE_WRONG }]);

/**
 * Two-step sign-in on My Profile (own factor: status, set up with a QR code, confirm with a first code, new
 * recovery codes, turn off when not required) and an administrator's Reset / Require on the employee page.
 */
export function registerMfaRoutes(app: FastifyInstance, db: Db, cfg: Config): void {
  const own = { config: { access: { kind: 'signed-in' as const } } };

  app.get('/api/employee/mfa/', { ...own, schema: { tags: ['Auth'], summary: 'One’s own two-step sign-in: set up, required, recovery codes left' } }, async (req) => {
    const ctx = mustCtx(req);
    const f = await factorOf(db, ctx.user.usr_cd);
    return {
      enrolled: !!f?.mfa_enrolled_at,
      enrolled_at: f?.mfa_enrolled_at ?? null,
      required: needsFactor(ctx.user.rl_nm, f),
      recovery_left: f?.mfa_enrolled_at ? await recoveryLeft(db, ctx.user.usr_cd) : 0,
      // Required and not set up: the date after which the password alone no longer signs in.
      grace_until: !f?.mfa_enrolled_at && needsFactor(ctx.user.rl_nm, f) && f?.mfa_grace_until ? new Date(f.mfa_grace_until).toISOString() : null,
    };
  });

  app.post('/api/employee/mfa/enrol', { ...own, schema: { tags: ['Auth'], summary: 'Start setting up two-step sign-in: a new key and its QR code' } }, async (req) => {
    const ctx = mustCtx(req);
    const f = await factorOf(db, ctx.user.usr_cd);
    if (f?.mfa_enrolled_at) throw badRequest(MFA_ALREADY);
    return startEnrolment(db, cfg, ctx.user);
  });

  app.post('/api/employee/mfa/confirm', { ...own, schema: { tags: ['Auth'], summary: 'Finish setting up with a first code; answers the recovery codes, shown once' } }, async (req) => {
    const ctx = mustCtx(req);
    const body = codeBody.safeParse(req.body);
    if (!body.success) throw badRequest(body.error.issues[0]?.message ?? "Please enter the 'Code'.");
    const f = await factorOf(db, ctx.user.usr_cd);
    if (f?.mfa_enrolled_at) throw badRequest(MFA_ALREADY);
    if (!f?.mfa_secret_enc) throw badRequest(MFA_NOT_STARTED);
    return db.transaction(async (tx) => {
      if (!(await acceptCode(tx, cfg, ctx.user.usr_cd, f.mfa_secret_enc!, f.mfa_last_step, body.data.mfa_code, true))) throw badCode();
      const recovery_codes = await newRecoveryCodes(tx, ctx.user.usr_cd);
      await writeAudit(tx, ctx, employeeEntity, 'PUT', ctx.user.usr_cd, null, { mfa: 'two-step sign-in set up by its owner' });
      return { ok: true, recovery_codes };
    });
  });

  app.post('/api/employee/mfa/recovery', { ...own, schema: { tags: ['Auth'], summary: 'Ten new recovery codes (the old ones stop working), with a current code' } }, async (req) => {
    const ctx = mustCtx(req);
    const body = codeBody.safeParse(req.body);
    if (!body.success) throw badRequest(body.error.issues[0]?.message ?? "Please enter the 'Code'.");
    const f = await factorOf(db, ctx.user.usr_cd);
    if (!f?.mfa_enrolled_at || !f.mfa_secret_enc) throw badRequest(MFA_NOT_SET);
    return db.transaction(async (tx) => {
      if (!(await acceptCode(tx, cfg, ctx.user.usr_cd, f.mfa_secret_enc!, f.mfa_last_step, body.data.mfa_code))) throw badCode();
      const recovery_codes = await newRecoveryCodes(tx, ctx.user.usr_cd);
      await writeAudit(tx, ctx, employeeEntity, 'PUT', ctx.user.usr_cd, null, { mfa: 'new recovery codes' });
      return { ok: true, recovery_codes };
    });
  });

  app.post('/api/employee/mfa/disable', { ...own, schema: { tags: ['Auth'], summary: 'Turn off one’s own two-step sign-in (only when not required), with a current code' } }, async (req) => {
    const ctx = mustCtx(req);
    const body = codeBody.safeParse(req.body);
    if (!body.success) throw badRequest(body.error.issues[0]?.message ?? "Please enter the 'Code'.");
    const f = await factorOf(db, ctx.user.usr_cd);
    if (!f?.mfa_enrolled_at || !f.mfa_secret_enc) throw badRequest(MFA_NOT_SET);
    if (needsFactor(ctx.user.rl_nm, f)) throw badRequest(MFA_CANNOT_DISABLE);
    return db.transaction(async (tx) => {
      if (!(await acceptCode(tx, cfg, ctx.user.usr_cd, f.mfa_secret_enc!, f.mfa_last_step, body.data.mfa_code))) throw badCode();
      await clearFactor(tx, ctx.user.usr_cd);
      await writeAudit(tx, ctx, employeeEntity, 'PUT', ctx.user.usr_cd, null, { mfa: 'two-step sign-in turned off by its owner' });
      return { ok: true };
    });
  });

  const adminRoute = (button: { path: string; button: string }, summary: string) => ({
    url: apiUrl(employeeEntity, `:usr_cd/${button.path}`),
    opts: {
      config: { access: { kind: 'page' as const, pages: [{ module: 'employee' as const, page: 'profile' }], button: button.button } },
      schema: { tags: ['Auth'], summary },
    },
  });
  const targetOf = async (raw: string) => {
    const id = Number(raw);
    if (!/^\d{1,10}$/.test(raw) || id <= 0 || id > 2147483647) throw badRequest('The record code must be a whole number from 1 to 2147483647.');
    const [u] = await rows<{ usr_cd: number; usr_full_nm: string }>(db, sql`SELECT usr_cd, usr_full_nm FROM employee WHERE usr_cd = ${id}`);
    if (!u) throw notFound('This employee is no longer there.');
    return u;
  };

  const reset = adminRoute(resetButton, 'Reset an employee’s two-step sign-in (administrators only)');
  app.post(reset.url, reset.opts, async (req) => {
    const ctx = mustCtx(req);
    const u = await targetOf((req.params as { usr_cd: string }).usr_cd);
    return db.transaction(async (tx) => {
      await clearFactor(tx, u.usr_cd);
      await writeAudit(tx, ctx, employeeEntity, 'PUT', u.usr_cd, null, { mfa: 'two-step sign-in reset by an administrator' });
      return { ok: true };
    });
  });

  const requireRoute = adminRoute(requireButton, 'Require (or with {"required": false} no longer require) two-step sign-in of an employee');
  app.post(requireRoute.url, requireRoute.opts, async (req) => {
    const ctx = mustCtx(req);
    const u = await targetOf((req.params as { usr_cd: string }).usr_cd);
    const body = requireBody.safeParse(req.body ?? undefined);
    if (!body.success) throw badRequest("'required' must be true or false.");
    const required = body.data?.required ?? true;
    return db.transaction(async (tx) => {
      await tx.execute(
        sql`INSERT INTO mfa_factor (usr_cd, mfa_required) VALUES (${u.usr_cd}, ${required})
            ON CONFLICT (usr_cd) DO UPDATE SET mfa_required = excluded.mfa_required, mfa_upd_at = now()`,
      );
      await writeAudit(tx, ctx, employeeEntity, 'PUT', u.usr_cd, null, { mfa_required: required });
      return { ok: true, required };
    });
  });
}

/** Forgets the key, recovery codes and remembered devices; whether the factor is required stays. */
async function clearFactor(tx: DbOrTx, usrCd: number): Promise<void> {
  await tx.execute(sql`UPDATE mfa_factor SET mfa_secret_enc = NULL, mfa_enrolled_at = NULL, mfa_last_step = NULL, mfa_upd_at = now() WHERE usr_cd = ${usrCd}`);
  await tx.execute(sql`DELETE FROM mfa_recovery_code WHERE usr_cd = ${usrCd}`);
  await tx.execute(sql`DELETE FROM mfa_device WHERE usr_cd = ${usrCd}`);
}
