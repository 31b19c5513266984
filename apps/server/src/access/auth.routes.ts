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
import { createSession, revokeToken } from './session';

export const BAD_LOGIN = 'Invalid login id or password.';
export const XSRF_COOKIE = 'XSRF-TOKEN';

const loginBody = z.object({
  usr_nm: z.string({ error: "Please enter the 'Login Id'." }).trim().min(1, "Please enter the 'Login Id'.").max(60),
  usr_pwd: z.string({ error: "Please enter the 'Password'." }).min(1, "Please enter the 'Password'.").max(200),
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

interface Attempt {
  atmpt_fail_cnt: number;
  atmpt_locked_until: Date | string | null;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Failed sign-ins are counted per login id and per IP. After the second failure each attempt waits a
 * little longer; at the limit the id is locked for a while (429). The IP limit is wider, for an office
 * where many clerks share one address.
 */
async function lockedFor(db: Db, keys: string[]): Promise<number> {
  const found = await rows<Attempt>(db, sql`SELECT atmpt_fail_cnt, atmpt_next_at AS atmpt_locked_until FROM login_attempt WHERE atmpt_key IN (${sql.join(keys.map((k) => sql`${k}`), sql`, `)})`);
  let ms = 0;
  for (const a of found) {
    if (a.atmpt_locked_until) ms = Math.max(ms, new Date(a.atmpt_locked_until).getTime() - Date.now());
  }
  return ms;
}

/**
 * Counts one attempt against a key (failures and attempts still being checked, within the window) and
 * returns the count. Counting BEFORE the password is checked means a burst of parallel guesses cannot all
 * slip past the lock check while the first ones are still being verified.
 */
async function countAttempt(db: Db, cfg: Config, key: string): Promise<number> {
  const windowStart = new Date(Date.now() - cfg.lockoutMinutes * 60_000);
  const [r] = await rows<{ atmpt_fail_cnt: number }>(
    db,
    sql`INSERT INTO login_attempt (atmpt_key, atmpt_fail_cnt, atmpt_first_at) VALUES (${key}, 1, now())
        ON CONFLICT (atmpt_key) DO UPDATE SET
          atmpt_fail_cnt = CASE WHEN login_attempt.atmpt_first_at < ${windowStart.toISOString()} THEN 1 ELSE login_attempt.atmpt_fail_cnt + 1 END,
          atmpt_first_at = CASE WHEN login_attempt.atmpt_first_at < ${windowStart.toISOString()} THEN now() ELSE login_attempt.atmpt_first_at END
        RETURNING atmpt_fail_cnt`,
  );
  return r.atmpt_fail_cnt;
}

async function lock(db: Db, cfg: Config, key: string): Promise<void> {
  const lockUntil = new Date(Date.now() + cfg.lockoutMinutes * 60_000);
  await db.execute(sql`UPDATE login_attempt SET atmpt_next_at = ${lockUntil.toISOString()} WHERE atmpt_key = ${key}`);
}

export function setXsrfCookie(reply: FastifyReply, cfg: Config): string {
  const value = randomBytes(24).toString('base64url');
  reply.setCookie(XSRF_COOKIE, value, { path: '/', sameSite: 'strict', httpOnly: false, secure: cfg.secureCookies });
  return value;
}

export async function registerAuthRoutes(app: FastifyInstance, db: Db, cfg: Config): Promise<void> {
  // Verifying against a real hash for unknown users keeps their answer as slow as a wrong password's.
  const dummyHash = await hash(randomBytes(16).toString('hex'));

  app.post('/api/employee/login/', { config: { access: { kind: 'public' } }, schema: { tags: ['Auth'], summary: 'Sign in' } }, async (req, reply) => {
    const body = loginBody.safeParse(req.body);
    if (!body.success) throw badRequest(body.error.issues[0]?.message ?? 'Please enter the login id and password.');
    const { usr_nm, usr_pwd } = body.data;
    const userKey = `u:${usr_nm.toLowerCase()}`;
    const ipKey = `ip:${req.ip}`;
    const u = await loadUser(db, { usrNm: usr_nm });

    const wait = await lockedFor(db, [userKey, ipKey]);
    if (wait > 0) {
      if (u) await logLogin(db, req, u, 'LOCKED');
      throw new HttpError(429, `Too many failed sign-ins. Try again in ${Math.ceil(wait / 60_000)} minute(s).`);
    }

    const ipLimit = cfg.lockoutFailures * 6;
    const n = await countAttempt(db, cfg, userKey);
    const nIp = await countAttempt(db, cfg, ipKey);
    if (n > cfg.lockoutFailures || nIp > ipLimit) {
      // More attempts in flight than the limit allows: refuse without checking the password.
      if (n > cfg.lockoutFailures) await lock(db, cfg, userKey);
      if (nIp > ipLimit) await lock(db, cfg, ipKey);
      if (u) await logLogin(db, req, u, 'LOCKED');
      throw new HttpError(429, `Too many failed sign-ins. Try again in ${cfg.lockoutMinutes} minute(s).`);
    }

    const ok = (await verify(u?.usr_pwd || dummyHash, usr_pwd).catch(() => false)) && !!u?.usr_pwd && !!u?.usr_is_lgn;
    if (!ok || !u) {
      if (n >= cfg.lockoutFailures) await lock(db, cfg, userKey);
      if (nIp >= ipLimit) await lock(db, cfg, ipKey);
      if (u) await logLogin(db, req, u, 'FAILED');
      req.log.warn({ usr_nm, ip: req.ip, failures: n }, 'sign-in failed');
      if (n > 2) await sleep(Math.min(cfg.failureDelayMs * (n - 2), 5000));
      throw unauthorized(BAD_LOGIN);
    }

    // A success clears the login id's count and takes back its own attempt from the IP's, so that a whole
    // staff room signing in from one school address never locks that address.
    await db.execute(sql`UPDATE login_attempt SET atmpt_fail_cnt = greatest(atmpt_fail_cnt - 1, 0) WHERE atmpt_key = ${ipKey}`);
    await db.execute(sql`DELETE FROM login_attempt WHERE atmpt_key = ${userKey}`);
    const token = await createSession(db, cfg, u.usr_cd, req.ip, platformOf(req));
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
