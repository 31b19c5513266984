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
}

export async function factorOf(db: DbOrTx, usrCd: number): Promise<FactorRow | null> {
  const [r] = await rows<FactorRow>(db, sql`SELECT usr_cd, mfa_secret_enc, mfa_enrolled_at, mfa_last_step, mfa_required FROM mfa_factor WHERE usr_cd = ${usrCd}`);
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

export interface SecondFactorInput {
  mfa_code?: string | undefined;
  mfa_recovery?: string | undefined;
  mfa_remember?: boolean | undefined;
}

export type SecondFactorOutcome =
  /** Signed in: no factor needed, a remembered device, or a right code. */
  | { kind: 'ok'; enrol: boolean }
  /** The password was right; the code is asked for (no session yet). */
  | { kind: 'challenge' }
  /** A wrong or replayed code or recovery code: a failed sign-in try. */
  | { kind: 'wrong'; field: 'mfa_code' | 'mfa_recovery'; message: string };

/**
 * The sign-in's second step, after a right password. Someone who must use a factor and has none yet is let in
 * and told to enrol (`enrol`): the sign-in page sends them to My Profile's 'Two-step sign-in' card.
 */
export async function secondFactor(db: Db, cfg: Config, req: FastifyRequest, reply: FastifyReply, u: { usr_cd: number; rl_nm: string | null }, input: SecondFactorInput): Promise<SecondFactorOutcome> {
  const f = await factorOf(db, u.usr_cd);
  const enrolled = !!f?.mfa_enrolled_at && !!f.mfa_secret_enc;
  if (!enrolled) return { kind: 'ok', enrol: needsFactor(u.rl_nm, f) };
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
export async function startEnrolment(db: DbOrTx, cfg: Config, u: { usr_cd: number; usr_nm: string }): Promise<{ secret: string; otpauth_uri: string; qr_svg: string }> {
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
