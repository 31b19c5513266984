import { isAdminRole } from '@campus/entities/pages';
import { hash, verify } from '@node-rs/argon2';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Config } from '../config';
import { rows, sql, type Db } from '../db/client';
import { dyn } from '../db/dyn-table';
import { entityTable } from '../db/tables';
import { localDateTime } from '../lib/clock';
import { badRequest, CREDENTIALS_CHANGED, HttpError, unauthorized } from '../lib/http-error';
import { institutesOf, loadUser, mustCtx, platformOf } from './request-context';
import { registerLoginLockRoutes } from './login-lock.routes';
import { checkOwnPassword, MUST_CHANGE_PASSWORD, mustChangePassword, registerPasswordRoutes, setOwnPassword } from './password-change';
import { countersFor, countTry, deviceHashOf, forgiveTry, isKnownDevice, rememberDevice } from './login-throttle';
import { createSession, revokeToken } from './session';
import { registerSessionRoutes } from './sessions.routes';
import { challengeError, MFA_ENROL_NEEDED, secondFactor } from './mfa';
import { registerMfaRoutes } from './mfa.routes';

export const BAD_LOGIN = 'Invalid login id or password.';
export const XSRF_COOKIE = 'XSRF-TOKEN';

const loginBody = z.object({
  usr_nm: z.string({ error: "Please enter the 'Login Id'." }).trim().min(1, "Please enter the 'Login Id'.").max(60),
  usr_pwd: z.string({ error: "Please enter the 'Password'." }).min(1, "Please enter the 'Password'.").max(200),
  // Only after an administrator's reset: the new password the owner chooses as they sign in.
  usr_pwd_new: z.string().max(200).optional(),
  // Two-step sign-in (access/mfa.ts): a code from the app or a recovery code, and 'remember this device'.
  mfa_code: z.string({ error: 'The code must be the 6 digits the app shows.' }).max(12, 'The code must be the 6 digits the app shows.').optional(),
  mfa_enrol_code: z.string({ error: 'The code must be the 6 digits the app shows.' }).max(12, 'The code must be the 6 digits the app shows.').optional(),
  mfa_recovery: z.string({ error: 'Please enter the recovery code as it was given.' }).max(40, 'Please enter the recovery code as it was given.').optional(),
  mfa_remember: z.boolean({ error: "'Remember this device' must be true or false." }).optional(),
});

type LoginType = 'LOGIN' | 'LOGOUT' | 'FAILED' | 'LOCKED';

async function logLogin(db: Db, req: FastifyRequest, u: { usr_cd: number; usr_nm: string; inst_cd: number }, type: LoginType): Promise<void> {
  const { date, time } = localDateTime();
  await db.insert(dyn(entityTable('login_history').table)).values({
    inst_cd: u.inst_cd,
    usr_cd: u.usr_cd,
    log_hsty_usr_nm: u.usr_nm,
    log_hsty_typ: type,
    log_hsty_pfm: platformOf(req).slice(0, 60),
    log_hsty_ip: req.ip.slice(0, 60),
    log_hsty_dt: date,
    log_hsty_tm: time,
    crt_by: u.usr_cd,
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function setXsrfCookie(reply: FastifyReply, cfg: Config): string {
  const value = randomBytes(24).toString('base64url');
  reply.setCookie(XSRF_COOKIE, value, { path: '/', sameSite: 'strict', httpOnly: false, secure: cfg.secureCookies });
  return value;
}

export async function registerAuthRoutes(app: FastifyInstance, db: Db, cfg: Config): Promise<void> {
  // Verifying against a real hash for unknown users keeps their answer as slow as a wrong password's.
  const dummyHash = await hash(randomBytes(16).toString('hex'));
  registerLoginLockRoutes(app, db);
  registerPasswordRoutes(app, db, cfg);
  registerSessionRoutes(app, db, cfg);
  registerMfaRoutes(app, db, cfg);

  app.post('/api/employee/login/', { config: { access: { kind: 'public' } }, schema: { tags: ['Auth'], summary: 'Sign in' } }, async (req, reply) => {
    const body = loginBody.safeParse(req.body);
    if (!body.success) throw badRequest(body.error.issues[0]?.message ?? 'Please enter the login id and password.');
    const { usr_nm, usr_pwd, usr_pwd_new } = body.data;
    const u = await loadUser(db, { usrNm: usr_nm });
    // A browser that signed in as this user before is held to its own counter only (login-throttle.ts).
    const device = deviceHashOf(req);
    const known = (await isKnownDevice(db, device, u?.usr_cd)) ? device : null;
    const counters = countersFor(cfg, usr_nm, req.ip, known);
    try {
      await countTry(db, cfg, counters, reply);
    } catch (err) {
      if (u) await logLogin(db, req, u, 'LOCKED');
      throw err;
    }

    const ok = (await verify(u?.usr_pwd || dummyHash, usr_pwd).catch(() => false)) && !!u?.usr_pwd && !!u?.usr_is_lgn;
    if (!ok || !u) {
      if (u) await logLogin(db, req, u, 'FAILED');
      req.log.warn({ usr_nm, ip: req.ip, knownDevice: !!known }, 'sign-in failed');
      const [c] = await rows<{ n: number }>(db, sql`SELECT atmpt_fail_cnt AS n FROM login_attempt WHERE atmpt_key = ${counters[0].key}`);
      const n = c?.n ?? 0;
      if (n > 2) await sleep(Math.min(cfg.failureDelayMs * (n - 2), 5000));
      throw unauthorized(BAD_LOGIN);
    }

    // After an administrator's reset no session is given until the owner has chosen a new password: the
    // sign-in page asks for it and sends it along (usr_pwd_new) with the one the administrator gave. Asked and
    // checked before the second factor, so that a refused new password never uses up the code typed with it.
    const mustChange = await mustChangePassword(db, u.usr_cd);
    if (mustChange) {
      try {
        if (!usr_pwd_new) throw new HttpError(403, MUST_CHANGE_PASSWORD, [{ field: 'usr_pwd_new', message: MUST_CHANGE_PASSWORD }]);
        checkOwnPassword(u.usr_nm, usr_pwd, usr_pwd_new, 'usr_pwd_new');
      } catch (err) {
        await forgiveTry(db, cfg, counters);
        await rememberDevice(db, cfg, req, reply, u.usr_cd, req.ip, platformOf(req));
        throw err;
      }
    }
    // The second factor before the try is forgiven: a wrong or replayed code is a failed try like a password.
    const factor = await secondFactor(db, cfg, req, reply, u, body.data);
    if (factor.kind === 'wrong') {
      await logLogin(db, req, u, 'FAILED');
      throw new HttpError(401, factor.message, [{ field: factor.field, message: factor.message }]);
    }
    await forgiveTry(db, cfg, counters);
    if (factor.kind === 'challenge') throw challengeError();
    // Past the grace deadline without a factor: what the app scans, and no session until its first code.
    if (factor.kind === 'enrol') {
      return reply.code(403).send({ statusCode: 403, error: 'Forbidden', message: MFA_ENROL_NEEDED, details: [{ field: 'mfa_enrol', message: MFA_ENROL_NEEDED }], ...factor.setup });
    }
    await rememberDevice(db, cfg, req, reply, u.usr_cd, req.ip, platformOf(req));
    if (mustChange && usr_pwd_new) await setOwnPassword(db, u, usr_pwd, usr_pwd_new, 'usr_pwd_new');
    const token = await createSession(db, cfg, u.usr_cd, req.ip, platformOf(req), req.headers['user-agent'] ?? '');
    await logLogin(db, req, u, 'LOGIN');
    setXsrfCookie(reply, cfg);
    const isAdmin = isAdminRole(u.rl_nm);
    return {
      usr_nm: u.usr_nm,
      usr_cd: u.usr_cd,
      usr_id: u.usr_id,
      usr_token: token,
      rl_nm: u.rl_nm,
      usr_inst_cd: u.inst_cd,
      usr_full_nm: u.usr_full_nm,
      is_admin: isAdmin,
      // Must use two-step sign-in and has not set it up: the sign-in page opens My Profile's card.
      mfa_enrol: factor.enrol,
      // Until when the password alone still signs in (then the sign-in makes the user set it up).
      ...(factor.graceUntil ? { mfa_grace_until: factor.graceUntil.toISOString() } : {}),
      // The factor was just set up inside the sign-in: its recovery codes, shown this once.
      ...(factor.recoveryCodes ? { recovery_codes: factor.recoveryCodes } : {}),
      institutes: await institutesOf(db, u.usr_cd, u.inst_cd, isAdmin),
    };
  });

  app.get('/api/employee/logout/', { config: { access: { kind: 'signed-in' } }, schema: { tags: ['Auth'], summary: 'Sign out' } }, async (req) => {
    const ctx = mustCtx(req);
    const named = (req.query as { usr_nm?: string }).usr_nm;
    if (named && named.toLowerCase() !== ctx.user.usr_nm.toLowerCase()) throw unauthorized(CREDENTIALS_CHANGED);
    await revokeToken(db, ctx.token);
    await logLogin(db, req, { usr_cd: ctx.user.usr_cd, usr_nm: ctx.user.usr_nm, inst_cd: ctx.user.usr_inst_cd }, 'LOGOUT');
    return { ok: true };
  });
}
