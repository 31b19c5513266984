import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { rows, sql, type Db, type DbOrTx } from '../db/client';
import { HttpError } from '../lib/http-error';
import { hashToken } from './session';

/**
 * Sign-in throttling that an attacker cannot turn against the owner (issue 11). There is no hard lock: each
 * counter holds a time before which it accepts no further try, and that wait doubles with every failure past
 * the counter's free ones, up to a ceiling.
 *
 * - A browser that signed in as the user before (its device cookie is known for that user) is counted on its
 *   own: failures from elsewhere, against the login id or from the same address, never hold it back.
 * - Any other browser is counted per login id and address (a guesser at one address), per login id (guesses
 *   spread over many addresses: twice the free failures) and per address (one address trying many ids: six
 *   times the free failures, and a short ceiling, so an office behind one router waits seconds, not minutes).
 *
 * Every try is counted BEFORE the password is checked, in one transaction over all its counters, so a burst
 * of parallel guesses gets no more tries than one at a time. A success takes its try back from the login id's
 * and the address's counts (those count failures only) and clears its pair or device counter.
 */

export type CounterKind = 'Login Id' | 'Login Id and Address' | 'Address' | 'Known Device';

interface Counter {
  key: string;
  kind: CounterKind;
  usrNm: string | null;
  ip: string | null;
  /** Failures with no wait: the wait starts with the free-th failure. */
  free: number;
  maxWaitMs: number;
}

export const DEVICE_COOKIE = 'CAMPUS-DEVICE';
const DEVICE_PATH = '/api/employee/login/';
const DEVICE_DAYS = 365;
const DEVICE_RE = /^[A-Za-z0-9_-]{43}$/;

export const tooManyMessage = (waitMs: number): string => {
  const s = Math.max(1, Math.ceil(waitMs / 1000));
  return s < 60 ? `Too many failed sign-ins. Try again in ${s} second(s).` : `Too many failed sign-ins. Try again in ${Math.ceil(s / 60)} minute(s).`;
};

/** The wait a counter sets once it holds `n` failures. */
export function waitAfter(cfg: Config, free: number, maxWaitMs: number, n: number): number {
  if (n < free) return 0;
  return Math.min(cfg.loginFirstWaitMs * 2 ** Math.min(n - free, 30), maxWaitMs);
}

/** The same curve in SQL, over a count expression, in milliseconds. */
const waitSql = (cfg: Config, c: Counter, n: ReturnType<typeof sql>) =>
  sql`CASE WHEN ${n} < ${c.free}::int THEN 0 ELSE least(${cfg.loginFirstWaitMs}::float8 * power(2, least(${n} - ${c.free}::int, 30)), ${c.maxWaitMs}::float8) END`;

export interface SignInAttempt {
  counters: Counter[];
  /** Hash of a device cookie known for this user, when the browser sent one. */
  deviceHash: string | null;
}

const lower = (usrNm: string) => usrNm.toLowerCase();

/** The device cookie's hash when the browser sent a well-formed one. */
export function deviceHashOf(req: FastifyRequest): string | null {
  const raw = req.cookies?.[DEVICE_COOKIE];
  return raw && DEVICE_RE.test(raw) ? hashToken(raw) : null;
}

/** Whether this browser signed in as the user before (and not longer ago than the cookie lives). */
export async function isKnownDevice(db: Db, deviceHash: string | null, usrCd: number | undefined): Promise<boolean> {
  if (!deviceHash || usrCd === undefined) return false;
  const found = await rows<{ n: number }>(
    db,
    sql`SELECT 1 AS n FROM login_device WHERE dev_token_hash = ${deviceHash} AND usr_cd = ${usrCd}
          AND dev_seen_at > now() - make_interval(days => ${DEVICE_DAYS})`,
  );
  return found.length > 0;
}

/** The counters a try is held to: the known device's own, or the login id's, the pair's and the address's. */
export function countersFor(cfg: Config, usrNm: string, ip: string, knownDevice: string | null): Counter[] {
  const id = lower(usrNm);
  const max = cfg.loginMaxWaitMinutes * 60_000;
  if (knownDevice) return [{ key: `d:${knownDevice}:${id}`, kind: 'Known Device', usrNm, ip, free: cfg.loginFreeFailures, maxWaitMs: max }];
  return [
    { key: `p:${id}|${ip}`, kind: 'Login Id and Address', usrNm, ip, free: cfg.loginFreeFailures, maxWaitMs: max },
    { key: `u:${id}`, kind: 'Login Id', usrNm, ip: null, free: cfg.loginFreeFailures * 2, maxWaitMs: max },
    { key: `a:${ip}`, kind: 'Address', usrNm: null, ip, free: cfg.loginFreeFailures * 6, maxWaitMs: cfg.loginAddressMaxWaitSeconds * 1000 },
  ];
}

class Throttled extends Error {
  constructor(readonly waitMs: number) {
    super('throttled');
  }
}

/**
 * The clock is read at each statement (clock_timestamp), not at the transaction's start (now()): a try that
 * waited for another's row lock must compare with the time it really runs, or a wait of zero set by the one
 * before would look like a wait still to come.
 *
 * Counts the try on every counter, or on none: when one of them is still waiting, nothing is counted and the
 * answer is 429 with the longest wait (Retry-After in seconds). Counters untouched for LOGIN_FORGET_HOURS
 * start again from one.
 */
export async function countTry(db: Db, cfg: Config, counters: Counter[], reply: FastifyReply): Promise<void> {
  // One order for every request, so two tries sharing counters never wait on each other in a circle.
  const ordered = [...counters].sort((a, b) => (a.key < b.key ? -1 : 1));
  try {
    await db.transaction(async (tx) => {
      let waitMs = 0;
      for (const c of ordered) {
        const stale = sql`a.atmpt_last_at < clock_timestamp() - make_interval(hours => ${cfg.loginForgetHours})`;
        const n = sql`(CASE WHEN ${stale} THEN 1 ELSE a.atmpt_fail_cnt + 1 END)`;
        const counted = await rows<{ atmpt_fail_cnt: number }>(
          tx,
          sql`INSERT INTO login_attempt AS a (atmpt_key, atmpt_kind, atmpt_usr_nm, atmpt_ip, atmpt_fail_cnt, atmpt_first_at, atmpt_last_at, atmpt_next_at)
              VALUES (${c.key}, ${c.kind}, ${c.usrNm?.slice(0, 60) ?? null}, ${c.ip?.slice(0, 60) ?? null}, 1, clock_timestamp(), clock_timestamp(),
                      clock_timestamp() + make_interval(secs => ${waitAfter(cfg, c.free, c.maxWaitMs, 1) / 1000}))
              ON CONFLICT (atmpt_key) DO UPDATE SET
                atmpt_fail_cnt = ${n},
                atmpt_first_at = CASE WHEN ${stale} THEN clock_timestamp() ELSE a.atmpt_first_at END,
                atmpt_last_at = clock_timestamp(),
                atmpt_next_at = clock_timestamp() + make_interval(secs => ${waitSql(cfg, c, n)} / 1000)
              WHERE a.atmpt_next_at <= clock_timestamp()
              RETURNING a.atmpt_fail_cnt`,
        );
        if (counted.length === 0) {
          const [w] = await rows<{ ms: number }>(
            tx,
            sql`SELECT greatest(extract(epoch FROM atmpt_next_at - clock_timestamp()) * 1000, 0)::float8 AS ms FROM login_attempt WHERE atmpt_key = ${c.key}`,
          );
          waitMs = Math.max(waitMs, Number(w?.ms ?? 0));
        }
      }
      // Throwing rolls back the counts already taken: a refused try is not a try.
      if (waitMs > 0) throw new Throttled(waitMs);
    });
  } catch (err) {
    if (!(err instanceof Throttled)) throw err;
    reply.header('Retry-After', String(Math.max(1, Math.ceil(err.waitMs / 1000))));
    throw new HttpError(429, tooManyMessage(err.waitMs));
  }
}

/**
 * The right password: the pair's or the device's counter is cleared, and the try is taken back from the
 * login id's and the address's (they count failures only). Their wait is kept while they still hold their
 * free failures or more: someone else's guesses are what set it.
 */
export async function forgiveTry(db: DbOrTx, cfg: Config, counters: Counter[]): Promise<void> {
  for (const c of counters) {
    if (c.kind === 'Login Id and Address' || c.kind === 'Known Device') {
      await db.execute(sql`DELETE FROM login_attempt WHERE atmpt_key = ${c.key}`);
    } else {
      await db.execute(
        sql`UPDATE login_attempt SET atmpt_fail_cnt = greatest(atmpt_fail_cnt - 1, 0),
              atmpt_next_at = CASE WHEN atmpt_fail_cnt - 1 < ${c.free}::int THEN least(atmpt_next_at, now()) ELSE atmpt_next_at END
            WHERE atmpt_key = ${c.key}`,
      );
    }
  }
  // Counters nobody has failed on for a while are only clutter on the Sign-in Locks page. Swept now and
  // then rather than at every success: under a spraying attack the table holds a row per id and address.
  if (Math.random() < 0.05) {
    await db.execute(
      sql`DELETE FROM login_attempt WHERE atmpt_next_at < now()
            AND (atmpt_fail_cnt = 0 OR atmpt_last_at < now() - make_interval(hours => ${cfg.loginForgetHours}))`,
    );
  }
}

/**
 * Remembers this browser for the user: the cookie it already carries (a shared office computer is known for
 * each of its users) or a new random one. HttpOnly and sent to the sign-in route only; the server keeps its
 * SHA-256 hash.
 */
export async function rememberDevice(db: DbOrTx, cfg: Config, req: FastifyRequest, reply: FastifyReply, usrCd: number, ip: string, platform: string): Promise<void> {
  const sent = req.cookies?.[DEVICE_COOKIE];
  const token = sent && DEVICE_RE.test(sent) ? sent : randomBytes(32).toString('base64url');
  await db.execute(
    sql`INSERT INTO login_device (dev_token_hash, usr_cd, dev_ip, dev_pfm) VALUES (${hashToken(token)}, ${usrCd}, ${ip.slice(0, 60)}, ${platform.slice(0, 60)})
        ON CONFLICT (dev_token_hash, usr_cd) DO UPDATE SET dev_seen_at = now(), dev_ip = excluded.dev_ip, dev_pfm = excluded.dev_pfm`,
  );
  reply.setCookie(DEVICE_COOKIE, token, {
    path: DEVICE_PATH,
    httpOnly: true,
    sameSite: 'strict',
    secure: cfg.secureCookies,
    maxAge: DEVICE_DAYS * 24 * 3600,
  });
}
