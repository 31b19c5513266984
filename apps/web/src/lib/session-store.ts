import { isAdminRole } from '@campus/entities/pages';
import { useSyncExternalStore } from 'react';
import { toast } from './toast';

export interface InstituteRef {
  inst_cd: number;
  inst_nm: string;
  inst_typ: string;
}

/** The login response (docs/api-contract.md, Auth). */
export interface SessionUser {
  usr_nm: string;
  usr_cd: number;
  usr_id: string | null;
  usr_token: string;
  rl_nm: string;
  usr_inst_cd: number;
  usr_full_nm: string;
  is_admin: boolean;
  institutes: InstituteRef[];
}

export interface AcademicYearRef {
  acdm_cd: number;
  label: string;
}

export interface SessionState {
  user: SessionUser | null;
  institute: InstituteRef | null;
  year: AcademicYearRef | null;
  /** 'access his students only' of the page being shown; sent as the data_chk header. */
  dataChk: boolean;
}

export const TAMPERED_MESSAGE = "Please don't change login credentials.";

const USER_KEY = 'campus.user';
const CONTEXT_KEY = 'campus.context';
// Not a secret: the checksum only catches hand edits of the stored record; the server checks the token.
const CHECKSUM_SALT = 'campus:user:v1';

// ---- encoding (pure, exported for tests) ----

function toBase64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

function fromBase64(b64: string): string {
  const binary = atob(b64);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}

/** FNV-1a, 32 bit: enough to notice an edited record, cheap enough to run before every request. */
export function checksum(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

export function encodeUser(user: SessionUser): string {
  const b64 = toBase64(JSON.stringify(user));
  return `${b64}.${checksum(CHECKSUM_SALT + b64)}`;
}

export type DecodeResult = { ok: true; user: SessionUser } | { ok: false };

export function decodeUser(stored: string): DecodeResult {
  const dot = stored.lastIndexOf('.');
  if (dot <= 0) return { ok: false };
  const b64 = stored.slice(0, dot);
  if (checksum(CHECKSUM_SALT + b64) !== stored.slice(dot + 1)) return { ok: false };
  try {
    const parsed: unknown = JSON.parse(fromBase64(b64));
    return isSessionUser(parsed) ? { ok: true, user: parsed } : { ok: false };
  } catch {
    return { ok: false };
  }
}

function isSessionUser(v: unknown): v is SessionUser {
  if (!v || typeof v !== 'object') return false;
  const u = v as Record<string, unknown>;
  return typeof u.usr_nm === 'string' && typeof u.usr_token === 'string' && u.usr_cd !== undefined && Array.isArray(u.institutes);
}

// ---- the store ----

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

interface StoredContext {
  institute: InstituteRef | null;
  year: AcademicYearRef | null;
}

function readContext(): StoredContext {
  const raw = storage()?.getItem(CONTEXT_KEY);
  if (!raw) return { institute: null, year: null };
  try {
    const parsed = JSON.parse(raw) as Partial<StoredContext>;
    return { institute: parsed.institute ?? null, year: parsed.year ?? null };
  } catch {
    return { institute: null, year: null };
  }
}

let tamperedAtStart = false;

function initialState(): SessionState {
  const raw = storage()?.getItem(USER_KEY);
  let user: SessionUser | null = null;
  if (raw) {
    const decoded = decodeUser(raw);
    if (decoded.ok) user = decoded.user;
    else tamperedAtStart = true;
  }
  const context = user ? readContext() : { institute: null, year: null };
  return { user, ...context, dataChk: false };
}

let state: SessionState = initialState();
const listeners = new Set<() => void>();
let tamperHandler: (() => void) | null = null;

function setState(next: SessionState): void {
  state = next;
  const s = storage();
  if (s) {
    if (next.user) s.setItem(CONTEXT_KEY, JSON.stringify({ institute: next.institute, year: next.year }));
    else s.removeItem(CONTEXT_KEY);
  }
  for (const l of listeners) l();
}

export function getSession(): SessionState {
  return state;
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Called with what the tampering leads to (navigate to login); the app registers it. */
export function onTamper(handler: () => void): void {
  tamperHandler = handler;
  if (tamperedAtStart) {
    tamperedAtStart = false;
    reportTamper();
  }
}

function reportTamper(): void {
  storage()?.removeItem(USER_KEY);
  setState({ user: null, institute: null, year: null, dataChk: false });
  toast.danger(TAMPERED_MESSAGE);
  tamperHandler?.();
}

export function signIn(user: SessionUser): void {
  storage()?.setItem(USER_KEY, encodeUser(user));
  const institute = user.institutes.find((i) => i.inst_cd === user.usr_inst_cd) ?? user.institutes[0] ?? null;
  // A different user may have signed in on this browser: never inherit the previous one's year.
  setState({ user, institute, year: null, dataChk: false });
}

export function signOut(): void {
  storage()?.removeItem(USER_KEY);
  setState({ user: null, institute: null, year: null, dataChk: false });
}

export function setInstitute(institute: InstituteRef): void {
  if (state.institute?.inst_cd === institute.inst_cd) return;
  setState({ ...state, institute, year: null });
}

export function setAcademicYear(year: AcademicYearRef | null): void {
  if (state.year?.acdm_cd === year?.acdm_cd && state.year?.label === year?.label) return;
  setState({ ...state, year });
}

export function setDataChk(dataChk: boolean): void {
  if (state.dataChk === dataChk) return;
  setState({ ...state, dataChk });
}

/**
 * Compares the stored record with the one in memory. Returns false (after the toast and sign-out) when
 * someone edited it, so the caller can stop the request it was about to send.
 */
export function verifyStoredUser(): boolean {
  if (!state.user) return true;
  const raw = storage()?.getItem(USER_KEY);
  if (raw === null || raw === undefined) {
    // Signed out in another tab: follow it quietly.
    signOut();
    tamperHandler?.();
    return false;
  }
  const decoded = decodeUser(raw);
  if (!decoded.ok) {
    reportTamper();
    return false;
  }
  if (decoded.user.usr_token !== state.user.usr_token || decoded.user.usr_cd !== state.user.usr_cd) {
    // Another tab signed in as someone else; adopt it rather than send requests as a mix of both.
    setState({ ...state, user: decoded.user, year: null });
  }
  return true;
}

export function isAdmin(user: Pick<SessionUser, 'is_admin' | 'rl_nm'> | null): boolean {
  return !!user && (user.is_admin || isAdminRole(user.rl_nm));
}

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (e) => {
    if (e.key === USER_KEY && state.user) verifyStoredUser();
  });
}

export interface SessionApi extends SessionState {
  isAdmin: boolean;
  signIn: typeof signIn;
  signOut: typeof signOut;
  setInstitute: typeof setInstitute;
  setAcademicYear: typeof setAcademicYear;
}

export function useSession(): SessionApi {
  const s = useSyncExternalStore(subscribeSession, getSession, getSession);
  return { ...s, isAdmin: isAdmin(s.user), signIn, signOut, setInstitute, setAcademicYear };
}
