import { isAdminRole } from '@campus/entities/pages';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import type { Config } from '../config';
import { rows, sql, type Db, type DbOrTx } from '../db/client';
import { HttpError } from '../lib/http-error';
import { hashToken } from './session';

/**
 * Second factor (issue 11): TOTP (RFC 6238: SHA-1, 6 digits, 30 s, what every authenticator app reads from
 * the QR code) through otplib, for every administrator and for anyone an administrator requires it of.
 *
 * - The secret is stored encrypted with AES-256-GCM (a database copy alone does not give the codes). The key is
 *   MFA_KEY (64 hex digits) or else `mfa.key` in the data folder, made on first use; a database kept in memory
 *   (tests) gets a key for the life of the process.
 * - A code is accepted at most once: the last accepted time step is kept and only later steps verify (a code
 *   seen over a shoulder or in a log cannot be used again), ±1 step of clock drift.
 * - Ten recovery codes (80 random bits each, SHA-256 hashed like session tokens), each usable once.
 * - 'Remember this device' after a right code: a random cookie for the sign-in route only, hashed in
 *   mfa_device, 30 days.
 */

export const MFA_CODE_NEEDED = 'Enter the 6-digit code from your authenticator app.';
export const MFA_CODE_WRONG = 'The code is not right, or it was used already. Wait for the next code and try again.';
export const MFA_RECOVERY_WRONG = 'This recovery code is not right or was used already.';
export const MFA_ISSUER = 'Campus';
export const MFA_DEVICE_COOKIE = 'CAMPUS-MFA';
export const MFA_ENROL_NEEDED = 'Your account needs two-step sign-in and its time to set it up has passed. Scan the QR code with your authenticator app and enter the 6-digit code it shows.';
export const RECOVERY_CODE_COUNT = 10;
const MFA_DEVICE_DAYS = 30;
const STEP_SECONDS = 30;
const COOKIE_RE = /^[A-Za-z0-9_-]{43}$/;

let memoryKey: Buffer | null = null;
let fileKey: { dir: string; key: Buffer } | null = null;

/** The secret-encryption key: MFA_KEY, else the data folder's key file (created once, owner-only). */
export function mfaKey(cfg: Pick<Config, 'dataDir'>): Buffer {
  const env = process.env.MFA_KEY?.trim();
  if (env) {
    if (!/^[0-9a-fA-F]{64}$/.test(env)) throw new Error('MFA_KEY must be 64 hexadecimal digits (32 bytes).');
    return Buffer.from(env, 'hex');
  }
  if (cfg.dataDir.startsWith('memory://')) return (memoryKey ??= randomBytes(32));
  if (fileKey?.dir === cfg.dataDir) return fileKey.key;
  const path = join(cfg.dataDir, 'mfa.key');
  if (!existsSync(path)) {
    mkdirSync(cfg.dataDir, { recursive: true });
    // 'wx': two processes starting together must not overwrite each other's key.
    try {
      writeFileSync(path, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  const key = Buffer.from(readFileSync(path, 'utf8').trim(), 'hex');
  if (key.length !== 32) throw new Error(`${path} must hold 64 hexadecimal digits.`);
  fileKey = { dir: cfg.dataDir, key };
  return key;
}

export function sealSecret(cfg: Pick<Config, 'dataDir'>, secret: string): string {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', mfaKey(cfg), iv);
  const body = Buffer.concat([c.update(secret, 'utf8'), c.final()]);
  return ['v1', iv.toString('base64url'), c.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
}

export function openSecret(cfg: Pick<Config, 'dataDir'>, sealed: string): string {
  const [v, iv, tag, body] = sealed.split('.');
  if (v !== 'v1' || !iv || !tag || !body) throw new Error('unreadable second-factor secret');
  const d = createDecipheriv('aes-256-gcm', mfaKey(cfg), Buffer.from(iv, 'base64url'));
  d.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([d.update(Buffer.from(body, 'base64url')), d.final()]).toString('utf8');
}

interface FactorRow {
  usr_cd: number;
  mfa_secret_enc: string | null;
  mfa_enrolled_at: string | null;
  mfa_last_step: number | null;
  mfa_required: boolean;
  mfa_grace_until: string | Date | null;
}

export async function factorOf(db: DbOrTx, usrCd: number): Promise<FactorRow | null> {
  const [r] = await rows<FactorRow>(db, sql`SELECT usr_cd, mfa_secret_enc, mfa_enrolled_at, mfa_last_step, mfa_required, mfa_grace_until FROM mfa_factor WHERE usr_cd = ${usrCd}`);
  return r ?? null;
}

/** Whether the user must sign in with a second factor: every administrator, and whoever one requires it of. */
export const needsFactor = (rlNm: string | null, f: FactorRow | null): boolean => isAdminRole(rlNm) || f?.mfa_required === true;

/**
 * Checks a code against the secret and, when right, records its time step in the same statement that checks
 * it is later than the last accepted one (two sign-ins racing with one code: only one gets through).
 */
export async function acceptCode(db: DbOrTx, cfg: Config, usrCd: number, sealed: string, lastStep: number | null, code: string, enrolling = false): Promise<boolean> {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return false;
  const result = await verify({
    secret: openSecret(cfg, sealed),
    token,
    epochTolerance: STEP_SECONDS,
    ...(lastStep !== null ? { afterTimeStep: lastStep } : {}),
  }).catch(() => ({ valid: false as const }));
  if (!result.valid || !('timeStep' in result)) return false;
  const step = result.timeStep;
  const done = await rows<{ usr_cd: number }>(
    db,
    sql`UPDATE mfa_factor SET mfa_last_step = ${step}, mfa_upd_at = now()
         ${enrolling ? sql`, mfa_enrolled_at = now()` : sql``}
        WHERE usr_cd = ${usrCd} AND mfa_secret_enc = ${sealed} AND (mfa_last_step IS NULL OR mfa_last_step < ${step})
        RETURNING usr_cd`,
  );
  return done.length === 1;
}

const normaliseRecovery = (code: string) => code.toUpperCase().replace(/[^A-Z0-9]/g, '');
const RECOVERY_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** Ten new recovery codes (the old ones stop working); only their hashes are kept. */
export async function newRecoveryCodes(tx: DbOrTx, usrCd: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const bytes = randomBytes(16);
    const chars = Array.from(bytes, (b) => RECOVERY_ALPHABET[b % 32]).join('');
    return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8, 12)}-${chars.slice(12, 16)}`;
  });
  await tx.execute(sql`DELETE FROM mfa_recovery_code WHERE usr_cd = ${usrCd}`);
  for (const c of codes) {
    await tx.execute(sql`INSERT INTO mfa_recovery_code (usr_cd, rc_hash) VALUES (${usrCd}, ${hashToken(normaliseRecovery(c))})`);
  }
  return codes;
}

/** Uses up one recovery code; false when it is unknown or was used. */
export async function useRecoveryCode(db: DbOrTx, usrCd: number, code: string): Promise<boolean> {
  const n = normaliseRecovery(code);
  if (n.length !== 16) return false;
  const done = await rows<{ rc_cd: number }>(
    db,
    sql`UPDATE mfa_recovery_code SET rc_used_at = now() WHERE usr_cd = ${usrCd} AND rc_hash = ${hashToken(n)} AND rc_used_at IS NULL RETURNING rc_cd`,
  );
  return done.length === 1;
}

export async function recoveryLeft(db: DbOrTx, usrCd: number): Promise<number> {
  const [r] = await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM mfa_recovery_code WHERE usr_cd = ${usrCd} AND rc_used_at IS NULL`);
  return r?.n ?? 0;
}

async function isRememberedDevice(db: DbOrTx, req: FastifyRequest, usrCd: number): Promise<boolean> {
  const raw = req.cookies?.[MFA_DEVICE_COOKIE];
  if (!raw || !COOKIE_RE.test(raw)) return false;
  const found = await rows<{ n: number }>(
    db,
    sql`SELECT 1 AS n FROM mfa_device WHERE md_token_hash = ${hashToken(raw)} AND usr_cd = ${usrCd} AND md_expires_at > now()`,
  );
  return found.length > 0;
}

async function rememberDevice(db: DbOrTx, cfg: Config, req: FastifyRequest, reply: FastifyReply, usrCd: number): Promise<void> {
  const sent = req.cookies?.[MFA_DEVICE_COOKIE];
  const token = sent && COOKIE_RE.test(sent) ? sent : randomBytes(32).toString('base64url');
  await db.execute(
    sql`INSERT INTO mfa_device (usr_cd, md_token_hash, md_expires_at) VALUES (${usrCd}, ${hashToken(token)}, now() + make_interval(days => ${MFA_DEVICE_DAYS}))
        ON CONFLICT (md_token_hash, usr_cd) DO UPDATE SET md_expires_at = excluded.md_expires_at`,
  );
  reply.setCookie(MFA_DEVICE_COOKIE, token, {
    path: '/api/employee/login/',
    httpOnly: true,
    sameSite: 'strict',
    secure: cfg.secureCookies,
    maxAge: MFA_DEVICE_DAYS * 24 * 3600,
  });
}

/** Days an account that must use the factor may still sign in without it (env MFA_GRACE_DAYS, default 14). */
export function graceDays(): number {
  const raw = process.env.MFA_GRACE_DAYS?.trim();
  if (!raw) return 14;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 365) throw new Error('MFA_GRACE_DAYS must be a whole number of days from 0 to 365.');
  return n;
}

/**
 * The grace deadline of an account that must use the factor and has none: kept when already set, else set now
 * (the first sign-in at which the requirement applied). The time is the server's clock (Date), not the
 * database's, so that one clock decides. COALESCE keeps the first deadline when two sign-ins race.
 */
async function graceUntil(db: DbOrTx, usrCd: number, f: FactorRow | null): Promise<Date> {
  if (f?.mfa_grace_until) return new Date(f.mfa_grace_until);
  const proposed = new Date(Date.now() + graceDays() * 24 * 3600 * 1000);
  const [r] = await rows<{ mfa_grace_until: string | Date }>(
    db,
    sql`INSERT INTO mfa_factor (usr_cd, mfa_grace_until) VALUES (${usrCd}, ${proposed.toISOString()})
        ON CONFLICT (usr_cd) DO UPDATE SET mfa_grace_until = COALESCE(mfa_factor.mfa_grace_until, excluded.mfa_grace_until)
        RETURNING mfa_grace_until`,
  );
  return r ? new Date(r.mfa_grace_until) : proposed;
}

export interface EnrolmentStart {
  secret: string;
  otpauth_uri: string;
  qr_svg: string;
}

export interface SecondFactorInput {
  mfa_code?: string | undefined;
  mfa_enrol_code?: string | undefined;
  mfa_recovery?: string | undefined;
  mfa_remember?: boolean | undefined;
}

export type SecondFactorOutcome =
  /** Signed in: no factor needed, a remembered device, or a right code. */
  | { kind: 'ok'; enrol: boolean; graceUntil?: Date; recoveryCodes?: string[] }
  /** Past the grace deadline without a factor: set it up now (a new pending secret), no session yet. */
  | { kind: 'enrol'; setup: EnrolmentStart }
  /** The password was right; the code is asked for (no session yet). */
  | { kind: 'challenge' }
  /** A wrong or replayed code or recovery code: a failed sign-in try. */
  | { kind: 'wrong'; field: 'mfa_code' | 'mfa_recovery' | 'mfa_enrol_code'; message: string };

/**
 * The sign-in's second step, after a right password. Someone who must use a factor and has none yet is let in
 * and told to enrol (`enrol`, with the deadline) until the grace deadline; after it the password alone no
 * longer signs in: the answer carries a new pending secret to scan (`enrol`), and the same sign-in with the
 * app's first code (`mfa_enrol_code`) confirms the factor, signs in and hands out the recovery codes once.
 */
export async function secondFactor(db: Db, cfg: Config, req: FastifyRequest, reply: FastifyReply, u: { usr_cd: number; usr_nm: string; rl_nm: string | null }, input: SecondFactorInput): Promise<SecondFactorOutcome> {
  const f = await factorOf(db, u.usr_cd);
  const enrolled = !!f?.mfa_enrolled_at && !!f.mfa_secret_enc;
  if (!enrolled) {
    if (!needsFactor(u.rl_nm, f)) return { kind: 'ok', enrol: false };
    const until = await graceUntil(db, u.usr_cd, f);
    if (Date.now() < until.getTime()) return { kind: 'ok', enrol: true, graceUntil: until };
    // Past grace. A code is checked against the pending secret of the last challenge (like the enrol route).
    if (input.mfa_enrol_code && f?.mfa_secret_enc) {
      const sealed = f.mfa_secret_enc;
      const done = await db.transaction(async (tx) => {
        if (!(await acceptCode(tx, cfg, u.usr_cd, sealed, f.mfa_last_step, input.mfa_enrol_code!, true))) return null;
        return newRecoveryCodes(tx, u.usr_cd);
      });
      if (!done) return { kind: 'wrong', field: 'mfa_enrol_code', message: MFA_CODE_WRONG };
      return { kind: 'ok', enrol: false, recoveryCodes: done };
    }
    return { kind: 'enrol', setup: await startEnrolment(db, cfg, u) };
  }
  if (await isRememberedDevice(db, req, u.usr_cd)) return { kind: 'ok', enrol: false };
  if (input.mfa_recovery) {
    if (!(await useRecoveryCode(db, u.usr_cd, input.mfa_recovery))) return { kind: 'wrong', field: 'mfa_recovery', message: MFA_RECOVERY_WRONG };
  } else if (input.mfa_code) {
    if (!(await acceptCode(db, cfg, u.usr_cd, f.mfa_secret_enc!, f.mfa_last_step, input.mfa_code))) return { kind: 'wrong', field: 'mfa_code', message: MFA_CODE_WRONG };
  } else {
    return { kind: 'challenge' };
  }
  if (input.mfa_remember) await rememberDevice(db, cfg, req, reply, u.usr_cd);
  return { kind: 'ok', enrol: false };
}

export const challengeError = (): HttpError => new HttpError(403, MFA_CODE_NEEDED, [{ field: 'mfa_code', message: MFA_CODE_NEEDED }]);

/** A new secret waiting for its first code, with what the authenticator app scans. */
export async function startEnrolment(db: DbOrTx, cfg: Config, u: { usr_cd: number; usr_nm: string }): Promise<EnrolmentStart> {
  const secret = generateSecret();
  const sealed = sealSecret(cfg, secret);
  await db.execute(
    sql`INSERT INTO mfa_factor (usr_cd, mfa_secret_enc) VALUES (${u.usr_cd}, ${sealed})
        ON CONFLICT (usr_cd) DO UPDATE SET mfa_secret_enc = excluded.mfa_secret_enc, mfa_enrolled_at = NULL, mfa_last_step = NULL, mfa_upd_at = now()`,
  );
  const otpauth_uri = generateURI({ issuer: MFA_ISSUER, label: u.usr_nm, secret });
  const qr_svg = await QRCode.toString(otpauth_uri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return { secret, otpauth_uri, qr_svg };
}
