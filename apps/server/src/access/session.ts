import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, gt, inArray, isNull, ne, sql, type SQL } from 'drizzle-orm';
import type { Config } from '../config';
import type { DbOrTx } from '../db/client';
import { session } from '../db/tables';

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/**
 * The realtime room of one session's sockets. Named by half the token's hash, not the row's number: rooms
 * travel through Redis between processes, and a number would name a different session in another database
 * (tests run several in one process); half a hash cannot be turned back into a token or matched to a row.
 */
export const sessionRoom = (tokenHash: string): string => `session:${tokenHash.slice(0, 32)}`;

type EndedListener = (rooms: string[]) => void;
const endedListeners = new Set<EndedListener>();

/** realtime.ts listens here to close the sockets of sessions that end (logout, limit, password, ...). */
export function onSessionsEnded(listener: EndedListener): () => void {
  endedListeners.add(listener);
  return () => endedListeners.delete(listener);
}

/**
 * Called as soon as the ending statement ran, inside its transaction when there is one: a rolled-back end
 * then costs the browser its socket only (it is not reconnected by socket.io after a server disconnect, and
 * reconnects on the next page load), while announcing after the commit would need every caller's help.
 */
function announceEnded(hashes: readonly string[]): void {
  if (hashes.length === 0) return;
  const rooms = hashes.map(sessionRoom);
  for (const l of endedListeners) l(rooms);
}

/** A session that is neither revoked, past its absolute expiry nor idle too long. */
function liveAt(cfg: Config, now: Date): SQL {
  const idleLimit = new Date(now.getTime() - cfg.sessionIdleMinutes * 60_000);
  return and(isNull(session.sess_revoked_at), gt(session.sess_expires_at, now), gt(session.sess_seen_at, idleLimit))!;
}

/**
 * A short readable name for a User-Agent ('Chrome on Windows'); the raw text when neither part is known.
 * Order matters: Edge and Opera also say Chrome, Chrome also says Safari, Android also says Linux.
 */
export function deviceLabel(userAgent: string): string {
  const ua = userAgent.trim();
  if (!ua) return 'Unknown device';
  const browsers: [RegExp, string][] = [
    [/Edg(e|A|iOS)?\//, 'Edge'],
    [/OPR\/|Opera/, 'Opera'],
    [/SamsungBrowser\//, 'Samsung Internet'],
    [/Firefox\/|FxiOS\//, 'Firefox'],
    [/Chrome\/|CriOS\/|Chromium\//, 'Chrome'],
    [/Safari\//, 'Safari'],
  ];
  const systems: [RegExp, string][] = [
    [/Windows/, 'Windows'],
    [/Android/, 'Android'],
    [/iPhone|iPod/, 'iPhone'],
    [/iPad/, 'iPad'],
    [/CrOS/, 'ChromeOS'],
    [/Mac OS X|Macintosh/, 'macOS'],
    [/Linux/, 'Linux'],
  ];
  const browser = browsers.find(([re]) => re.test(ua))?.[1];
  const system = systems.find(([re]) => re.test(ua))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  return (browser ?? system ?? ua).slice(0, 80);
}

/**
 * A new session; beyond the user's limit (SESSION_MAX_PER_USER) the least recently used live ones end.
 * Last use is kept to the minute (see resolveSession), so ties go to the older session.
 */
export async function createSession(db: DbOrTx, cfg: Config, usrCd: number, ip: string, platform: string, userAgent = ''): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = new Date();
  const expires = new Date(now.getTime() + cfg.sessionMaxHours * 3600_000);
  await db.insert(session).values({
    sess_token_hash: hashToken(token),
    usr_cd: usrCd,
    sess_expires_at: expires,
    sess_ip: ip.slice(0, 60),
    sess_pfm: platform.slice(0, 60),
    sess_dev: deviceLabel(userAgent),
  });
  const beyond = await db
    .select({ cd: session.sess_cd })
    .from(session)
    .where(and(eq(session.usr_cd, usrCd), liveAt(cfg, now)))
    .orderBy(desc(session.sess_seen_at), desc(session.sess_cd))
    .offset(cfg.sessionMaxPerUser);
  if (beyond.length > 0) {
    const ended = await db
      .update(session)
      .set({ sess_revoked_at: sql`now()` })
      .where(inArray(session.sess_cd, beyond.map((b) => b.cd)))
      .returning({ hash: session.sess_token_hash });
    announceEnded(ended.map((e) => e.hash));
  }
  return token;
}

/**
 * The user a token belongs to, or null when it is unknown, revoked, past its absolute expiry or idle too
 * long. A live session's last-seen time is refreshed at most once a minute to keep reads cheap.
 */
export async function resolveSession(db: DbOrTx, cfg: Config, token: string): Promise<number | null> {
  const now = new Date();
  const [s] = await db
    .select({ cd: session.sess_cd, usr: session.usr_cd, seen: session.sess_seen_at })
    .from(session)
    .where(and(eq(session.sess_token_hash, hashToken(token)), liveAt(cfg, now)));
  if (!s) {
    // Found dead at use (expired or idle): its sockets, wherever they are, go too.
    dropSocketsOf(token);
    return null;
  }
  if (now.getTime() - s.seen.getTime() > 60_000) {
    await db.update(session).set({ sess_seen_at: now }).where(eq(session.sess_cd, s.cd));
  }
  return s.usr;
}

/** Closes the realtime sockets of a token found dead when used (request-context.ts, resolveSession). */
export function dropSocketsOf(token: string): void {
  // Only a token of our own shape (32 random bytes, base64url): made-up ones must not each cost a Redis message.
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return;
  announceEnded([hashToken(token)]);
}

/** Of these token hashes, the ones whose sessions are still live (the realtime sweep). */
export async function liveHashes(db: DbOrTx, cfg: Config, hashes: readonly string[]): Promise<Set<string>> {
  if (hashes.length === 0) return new Set();
  const found = await db
    .select({ hash: session.sess_token_hash })
    .from(session)
    .where(and(inArray(session.sess_token_hash, [...hashes]), liveAt(cfg, new Date())));
  return new Set(found.map((f) => f.hash));
}

export async function revokeToken(db: DbOrTx, token: string): Promise<void> {
  const ended = await db
    .update(session)
    .set({ sess_revoked_at: sql`now()` })
    .where(and(eq(session.sess_token_hash, hashToken(token)), isNull(session.sess_revoked_at)))
    .returning({ hash: session.sess_token_hash });
  announceEnded(ended.map((e) => e.hash));
}

/**
 * Ends every session of a user: on disable (allow login off) and on password change; `keepToken` spares
 * the one making the change (changing one's own password).
 */
export async function revokeUserSessions(db: DbOrTx, usrCd: number, keepToken?: string): Promise<void> {
  const ended = await db
    .update(session)
    .set({ sess_revoked_at: sql`now()` })
    .where(and(eq(session.usr_cd, usrCd), isNull(session.sess_revoked_at), keepToken ? ne(session.sess_token_hash, hashToken(keepToken)) : undefined))
    .returning({ hash: session.sess_token_hash });
  announceEnded(ended.map((e) => e.hash));
}

export interface LiveSession {
  sess_cd: number;
  sess_dev: string | null;
  sess_pfm: string | null;
  sess_ip: string | null;
  sess_crt_at: Date;
  sess_seen_at: Date;
  is_current: boolean;
}

/** A user's live sessions, most recently used first; the one holding `token` is marked. No hashes leave. */
export async function liveSessionsOf(db: DbOrTx, cfg: Config, usrCd: number, token: string): Promise<LiveSession[]> {
  return db
    .select({
      sess_cd: session.sess_cd,
      sess_dev: session.sess_dev,
      sess_pfm: session.sess_pfm,
      sess_ip: session.sess_ip,
      sess_crt_at: session.sess_crt_at,
      sess_seen_at: session.sess_seen_at,
      is_current: sql<boolean>`${session.sess_token_hash} = ${hashToken(token)}`,
    })
    .from(session)
    .where(and(eq(session.usr_cd, usrCd), liveAt(cfg, new Date())))
    .orderBy(desc(session.sess_seen_at), desc(session.sess_cd));
}

/** Ends one of the user's own live sessions; false when there is none such (another user's included). */
export async function endOwnSession(db: DbOrTx, cfg: Config, usrCd: number, sessCd: number): Promise<boolean> {
  const ended = await db
    .update(session)
    .set({ sess_revoked_at: sql`now()` })
    .where(and(eq(session.sess_cd, sessCd), eq(session.usr_cd, usrCd), liveAt(cfg, new Date())))
    .returning({ hash: session.sess_token_hash });
  announceEnded(ended.map((e) => e.hash));
  return ended.length > 0;
}
