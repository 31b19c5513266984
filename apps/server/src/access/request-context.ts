import { findPage, isAdminRole, type PageDef } from '@campus/entities/pages';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { genericPlanDb, rows, sql, type Db } from '../db/client';
import type { RouteDocs } from '../engine/openapi-docs';
import { CREDENTIALS_CHANGED, forbidden, unauthorized } from '../lib/http-error';
import { combinePermissions, hasButton, permissionColumnsSql, permissionRowsSql, type EffectivePermission, type PermRow } from './permission';
import { dropSocketsOf, hashToken } from './session';

type PageRef = Pick<PageDef, 'module' | 'page'>;

/**
 * What a route needs. Every /api route declares one in its config; a route without one is refused, so a
 * forgotten declaration fails closed.
 */
export type Access =
  | { kind: 'public' }
  | { kind: 'signed-in' }
  /** One of these pages must be allowed; button (if any) must be granted on it. */
  | {
      kind: 'page';
      pages: readonly PageRef[];
      button?: string;
      /** Without the page, the user may still reach their own row (My Profile): see RequestContext.selfOnly. */
      self?: boolean;
      /**
       * An earlier (inactive) year, otherwise open to admins only, is let in on this route for a user who
       * holds this page (and the button): collecting last year's arrears opens that route, not the year.
       */
      earlierYear?: PageRef;
    };

export interface SignedInUser {
  usr_cd: number;
  usr_nm: string;
  usr_full_nm: string;
  usr_id: string | null;
  rl_nm: string | null;
  /** Home institute. */
  usr_inst_cd: number;
  is_admin: boolean;
}

export interface RequestContext {
  user: SignedInUser;
  token: string;
  instCd: number;
  acdmCd: number | null;
  /** Institutes this user may enter. */
  myInstCds: number[];
  page: PageRef | null;
  perm: EffectivePermission | null;
  /** 'access his students only', from the permission row, never from the header. */
  dataChk: boolean;
  /** Let in without the page, for the user's own row only (the handler checks the id). */
  selfOnly: boolean;
  ip: string;
  platform: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    ctx: RequestContext | null;
  }
  interface FastifyContextConfig {
    access?: Access;
    /** JSON Schemas shown in the API documentation (the handler validates with zod itself). */
    docs?: RouteDocs;
  }
}

const header = (req: FastifyRequest, name: string): string => {
  const v = req.headers[name];
  return (Array.isArray(v) ? v[0] : v ?? '').trim();
};

/** An id header: absent (empty) means 'the default'; anything present must be a real id, or the request is refused. */
const intHeader = (req: FastifyRequest, name: string, refusal: string): number | null => {
  const v = header(req, name);
  if (v === '') return null;
  if (!/^\d{1,9}$/.test(v) || Number(v) <= 0) throw forbidden(refusal);
  return Number(v);
};

/** A value computed now whose refusal (if any) is thrown later, by get(). */
function deferred<T>(f: () => T): { ok: true; value: T; get(): T } | { ok: false; get(): T } {
  try {
    const value = f();
    return { ok: true, value, get: () => value };
  } catch (err) {
    return {
      ok: false,
      get: () => {
        throw err;
      },
    };
  }
}

const NOT_MAPPED = 'You are not mapped to this institute.';
const FOREIGN_YEAR = 'This academic year does not belong to the institute.';

export const platformOf = (req: FastifyRequest): string => header(req, 'platform') || 'web';

interface UserRow {
  usr_cd: number;
  usr_nm: string;
  usr_full_nm: string;
  usr_id: string | null;
  inst_cd: number;
  usr_is_lgn: boolean;
  rl_nm: string | null;
}

export async function loadUser(db: Db, where: { usrCd: number } | { usrNm: string }): Promise<(UserRow & { usr_pwd: string | null }) | undefined> {
  const cond = 'usrCd' in where ? sql`e.usr_cd = ${where.usrCd}` : sql`lower(e.usr_nm) = lower(${where.usrNm})`;
  const [u] = await rows<UserRow & { usr_pwd: string | null }>(
    db,
    sql`SELECT e.usr_cd, e.usr_nm, e.usr_full_nm, e.usr_id, e.inst_cd, e.usr_is_lgn, e.usr_pwd, r.rl_nm
        FROM employee e LEFT JOIN role r ON r.rl_cd = e.usr_typ WHERE ${cond}`,
  );
  return u;
}

export interface InstituteChoice {
  inst_cd: number;
  inst_nm: string;
  inst_typ: string;
  is_active: boolean;
}

/** The home institute plus active employee mappings; closed institutes only for admins (to reopen them). */
export async function institutesOf(db: Db, usrCd: number, homeInstCd: number, isAdmin: boolean): Promise<InstituteChoice[]> {
  const list = await rows<InstituteChoice>(
    db,
    sql`SELECT i.inst_cd, i.inst_nm, i.inst_typ, i.is_active FROM institute i
        WHERE (i.inst_cd = ${homeInstCd}
               OR i.inst_cd IN (SELECT m.inst_cd FROM user_institute m WHERE m.usr_cd = ${usrCd} AND m.usr_inst_sts))
        ORDER BY (i.inst_cd = ${homeInstCd}) DESC, i.inst_nm`,
  );
  return list.filter((i) => isAdmin || i.is_active);
}

export function registerRequestContext(app: FastifyInstance, db: Db, cfg: Config): void {
  app.decorateRequest('ctx', null);
  app.addHook('preHandler', async (req) => {
    // Decided by the matched route's pattern, never the raw URL ('//api/x' and '/%61pi/x' reach the same
    // handler). Unknown paths fall through to the 404 handler; documentation is public.
    const route = req.routeOptions.url ?? '';
    if (req.is404 || !route.startsWith('/api/') || route.startsWith('/api/docs')) return;
    const access = req.routeOptions.config.access;
    if (!access) throw forbidden('This route is not open to any page.');
    if (access.kind === 'public') return;
    req.ctx = await buildContext(req, db, cfg, access);
  });
}

interface ContextRow extends Partial<UserRow> {
  /** The session's user; null when the session is live but the employee row is gone. */
  sess_usr_cd: number;
  insts: InstituteChoice[] | null;
  years: { acdm_cd: number; acdm_sts: boolean; acdm_strt_yr: number | string }[] | null;
  perms: PermRow[] | null;
}

/**
 * Everything a request's context is decided from, in ONE statement: the live session (refreshing its
 * last-seen time at most once a minute, as resolveSession does), its user and role, the institutes they may
 * enter, the asked (or home) institute's years, and the stored permission rows of the route's pages there.
 * No row: the token is unknown, revoked, past its absolute expiry or idle too long. Nothing is decided
 * here: the same checks as before run on the answer (buildContext), so a foreign institute's years or
 * rows fetched for a refused request are never used.
 */
async function loadContext(db: Db, cfg: Config, token: string, askedInst: number | null, pages: readonly PageRef[] | null): Promise<ContextRow | undefined> {
  const now = new Date();
  const idleLimit = new Date(now.getTime() - cfg.sessionIdleMinutes * 60_000);
  const touchBefore = new Date(now.getTime() - 60_000);
  const inst = sql`c.cur_inst`;
  const usr = sql`c.usr_cd`;
  const perms = pages
    ? sql`(SELECT json_agg(json_build_object('usr_prms_mdl', p.usr_prms_mdl, 'usr_prms_page', p.usr_prms_page,
              'usr_prms_is_alw', p.usr_prms_is_alw, 'usr_prms_btns', p.usr_prms_btns, 'usr_need_data_chk', p.usr_need_data_chk,
              'own', p.usr_prms_usr_cd IS NOT DISTINCT FROM ${usr}))
           ${permissionRowsSql(usr, inst, pages)})`
    : sql`NULL::json`;
  // On the generic-plan connections: PostgreSQL's 'auto' settles on this statement's generic plan anyway
  // (a session by its token's unique hash), and a list request then stays on one backend for its
  // context, page and count instead of hopping between two (each hop wakes another process).
  const [r] = await rows<ContextRow>(
    genericPlanDb(db),
    sql`WITH s AS (
          SELECT sess_cd, usr_cd, sess_seen_at FROM session
          WHERE sess_token_hash = ${hashToken(token)} AND sess_revoked_at IS NULL
            AND sess_expires_at > ${now.toISOString()}::timestamptz AND sess_seen_at > ${idleLimit.toISOString()}::timestamptz
        ), touched AS (
          UPDATE session SET sess_seen_at = ${now.toISOString()}::timestamptz
          WHERE sess_cd IN (SELECT sess_cd FROM s WHERE sess_seen_at < ${touchBefore.toISOString()}::timestamptz)
          RETURNING sess_cd
        ), c AS (
          SELECT s.usr_cd AS sess_usr_cd, e.usr_cd, e.usr_nm, e.usr_full_nm, e.usr_id, e.inst_cd, e.usr_is_lgn, r.rl_nm,
                 coalesce(${askedInst}::int, e.inst_cd) AS cur_inst
          FROM s LEFT JOIN employee e ON e.usr_cd = s.usr_cd LEFT JOIN role r ON r.rl_cd = e.usr_typ
        )
        SELECT c.sess_usr_cd, c.usr_cd, c.usr_nm, c.usr_full_nm, c.usr_id, c.inst_cd, c.usr_is_lgn, c.rl_nm,
          (SELECT json_agg(json_build_object('inst_cd', i.inst_cd, 'inst_nm', i.inst_nm, 'inst_typ', i.inst_typ, 'is_active', i.is_active)
                           ORDER BY (i.inst_cd = c.inst_cd) DESC, i.inst_nm)
             FROM institute i
             WHERE i.inst_cd = c.inst_cd
                OR i.inst_cd IN (SELECT m.inst_cd FROM user_institute m WHERE m.usr_cd = c.usr_cd AND m.usr_inst_sts)) AS insts,
          (SELECT json_agg(json_build_object('acdm_cd', a.acdm_cd, 'acdm_sts', a.acdm_sts, 'acdm_strt_yr', a.acdm_strt_yr)
                           ORDER BY a.acdm_sts DESC, a.acdm_strt_yr DESC)
             FROM academic a WHERE a.inst_cd = c.cur_inst) AS years,
          ${perms} AS perms
        FROM c`,
  );
  return r;
}

async function buildContext(req: FastifyRequest, db: Db, cfg: Config, access: Exclude<Access, { kind: 'public' }>): Promise<RequestContext> {
  const token = header(req, 'auth_token');
  if (!token || token === 'login') throw unauthorized('Please sign in.');
  // A malformed id header is refused at the same step as before (after the session and user checks), so the
  // answer to any request is the one it was; only a well-formed institute id is sent with the statement.
  const instHeader = deferred(() => intHeader(req, 'inst_cd', NOT_MAPPED));
  const pages = access.kind === 'page' ? [...access.pages, ...(access.earlierYear ? [access.earlierYear] : [])] : null;
  const row = await loadContext(db, cfg, token, instHeader.ok ? instHeader.value : null, pages);
  if (!row) {
    // Found dead at use (expired, idle or ended): its realtime sockets go too.
    dropSocketsOf(token);
    throw unauthorized('Your session has ended. Please sign in again.');
  }
  if (row.usr_cd == null || !row.usr_is_lgn) throw unauthorized('Your login has been disabled. Please contact the administrator.');
  const u = row as ContextRow & UserRow;
  // The headers must describe the token's own user: a client that edits them is refused, not obeyed.
  if (header(req, 'username').toLowerCase() !== u.usr_nm.toLowerCase() || header(req, 'usercode') !== String(u.usr_cd)) {
    throw unauthorized(CREDENTIALS_CHANGED);
  }
  const isAdmin = isAdminRole(u.rl_nm);
  const user: SignedInUser = {
    usr_cd: u.usr_cd,
    usr_nm: u.usr_nm,
    usr_full_nm: u.usr_full_nm,
    usr_id: u.usr_id,
    rl_nm: u.rl_nm,
    usr_inst_cd: u.inst_cd,
    is_admin: isAdmin,
  };

  const myInsts = (row.insts ?? []).filter((i) => isAdmin || i.is_active);
  const myInstCds = myInsts.map((i) => i.inst_cd);
  const askedInst = instHeader.get();
  const instCd = askedInst ?? u.inst_cd;
  if (!myInstCds.includes(instCd)) throw forbidden(NOT_MAPPED);

  const askedYear = intHeader(req, 'acdm_cd', FOREIGN_YEAR);
  const years = row.years ?? [];
  let acdmCd: number | null = null;
  let earlierYear = false;
  if (askedYear !== null) {
    const y = years.find((r) => r.acdm_cd === askedYear);
    if (!y) throw forbidden(FOREIGN_YEAR);
    const closed = !y.acdm_sts && !isAdmin;
    // Arrears are owed for a year already behind the school: a closed year after the newest open one (next
    // year, rolled over but not yet opened) stays shut even to the arrears page.
    const newestOpen = Math.max(...years.filter((r) => r.acdm_sts).map((r) => Number(r.acdm_strt_yr)));
    earlierYear = closed && Number(y.acdm_strt_yr) < newestOpen;
    if (closed && !(earlierYear && access.kind === 'page' && access.earlierYear)) throw forbidden(FOREIGN_YEAR);
    acdmCd = y.acdm_cd;
  } else {
    acdmCd = years[0]?.acdm_cd ?? null;
  }

  const ctx: RequestContext = {
    user,
    token,
    instCd,
    acdmCd,
    myInstCds,
    page: null,
    perm: null,
    dataChk: false,
    selfOnly: false,
    ip: req.ip,
    platform: platformOf(req),
  };
  if (access.kind === 'signed-in') return ctx;

  const perms = combinePermissions(row.perms ?? [], isAdmin);
  if (earlierYear && access.earlierYear) {
    // Only the page that collects arrears counts in an earlier year; holding it is what lets the year in.
    const chosen = choosePage(req, perms, [access.earlierYear]);
    if (!chosen) throw forbidden(FOREIGN_YEAR);
    admit(ctx, chosen, access.button);
    return ctx;
  }
  const chosen = choosePage(req, perms, access.pages);
  if (!chosen && access.self) {
    ctx.page = access.pages[0];
    ctx.selfOnly = true;
    return ctx;
  }
  if (!chosen) throw forbidden(NOT_ALLOWED);
  admit(ctx, chosen, access.button);
  return ctx;
}

const NOT_ALLOWED = 'You are not allowed to open this page.';

/** Authorizes ctx for one of these pages (and a button on it); for routes that decide per request. */
export async function enterPage(req: FastifyRequest, db: Db, ctx: RequestContext, pages: readonly PageRef[], button?: string): Promise<void> {
  const u = sql`${ctx.user.usr_cd}`;
  const found = await rows<PermRow>(db, sql`SELECT ${permissionColumnsSql(u)} ${permissionRowsSql(u, sql`${ctx.instCd}`, pages)}`);
  const chosen = choosePage(req, combinePermissions(found, ctx.user.is_admin), pages);
  if (!chosen) throw forbidden(NOT_ALLOWED);
  admit(ctx, chosen, button);
}

function admit(ctx: RequestContext, chosen: { page: PageRef; perm: EffectivePermission }, button?: string): void {
  ctx.page = chosen.page;
  ctx.perm = chosen.perm;
  ctx.dataChk = chosen.perm.usr_need_data_chk;
  if (button) requireButton(ctx, button);
}

/**
 * Among the pages a route serves, the pagename/modulename headers pick one; they only choose, the
 * permission row of the chosen page still decides. Without a usable hint the first allowed page is used.
 */
function choosePage(req: FastifyRequest, perms: Map<string, EffectivePermission>, candidates: readonly PageRef[]): { page: PageRef; perm: EffectivePermission } | null {
  const pageName = header(req, 'pagename');
  const moduleName = header(req, 'modulename');
  const hinted = candidates.filter((c) => c.page === pageName && (!moduleName || c.module === moduleName));
  for (const c of [...hinted, ...candidates]) {
    const p = perms.get(`${c.module}/${c.page}`);
    if (p?.usr_prms_is_alw && findPage(c.module, c.page)) return { page: c, perm: p };
  }
  return null;
}

export function requireButton(ctx: RequestContext, button: string): void {
  if (!hasButton(ctx.perm ?? undefined, button)) {
    throw forbidden(`You do not have the '${button}' permission on this page.`);
  }
}

export function mustCtx(req: FastifyRequest): RequestContext {
  if (!req.ctx) throw unauthorized('Please sign in.');
  return req.ctx;
}
