import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Config } from '../config';
import type { DbOrTx } from '../db/client';
import { session } from '../db/tables';

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export async function createSession(db: DbOrTx, cfg: Config, usrCd: number, ip: string, platform: string): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const expires = new Date(Date.now() + cfg.sessionMaxHours * 3600_000);
  await db.insert(session).values({
    sess_token_hash: hashToken(token),
    usr_cd: usrCd,
    sess_expires_at: expires,
    sess_ip: ip.slice(0, 60),
    sess_pfm: platform.slice(0, 60),
  });
  return token;
}

/**
 * The user a token belongs to, or null when it is unknown, revoked, past its absolute expiry or idle too
 * long. A live session's last-seen time is refreshed at most once a minute to keep reads cheap.
 */
export async function resolveSession(db: DbOrTx, cfg: Config, token: string): Promise<number | null> {
  const now = new Date();
  const idleLimit = new Date(now.getTime() - cfg.sessionIdleMinutes * 60_000);
  const [s] = await db
    .select({ cd: session.sess_cd, usr: session.usr_cd, seen: session.sess_seen_at })
    .from(session)
    .where(
      and(
        eq(session.sess_token_hash, hashToken(token)),
        isNull(session.sess_revoked_at),
        gt(session.sess_expires_at, now),
        gt(session.sess_seen_at, idleLimit),
      ),
    );
  if (!s) return null;
  if (now.getTime() - s.seen.getTime() > 60_000) {
    await db.update(session).set({ sess_seen_at: now }).where(eq(session.sess_cd, s.cd));
  }
  return s.usr;
}

export async function revokeToken(db: DbOrTx, token: string): Promise<void> {
  await db
    .update(session)
    .set({ sess_revoked_at: sql`now()` })
    .where(and(eq(session.sess_token_hash, hashToken(token)), isNull(session.sess_revoked_at)));
}

/** Ends every session of a user: on disable (allow login off) and on password change. */
/** Ends the user's sessions; `keepToken` spares the one making the change (changing one's own password). */
export async function revokeUserSessions(db: DbOrTx, usrCd: number, keepToken?: string): Promise<void> {
  await db
    .update(session)
    .set({ sess_revoked_at: sql`now()` })
    .where(and(eq(session.usr_cd, usrCd), isNull(session.sess_revoked_at), keepToken ? ne(session.sess_token_hash, hashToken(keepToken)) : undefined));
}
