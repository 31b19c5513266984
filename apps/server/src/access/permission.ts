import { dataChkApplies, dataChkRefusal } from '@campus/entities/data-chk';
import { findPage, isAdminOnlyButton, livePages, parseButtons, type PageDef } from '@campus/entities/pages';
import type { SQL } from 'drizzle-orm';
import { rows, sql, type DbOrTx } from '../db/client';

export interface EffectivePermission {
  usr_prms_mdl: string;
  usr_prms_page: string;
  usr_prms_pth_url: string;
  usr_prms_is_alw: boolean;
  usr_prms_btns: string;
  usr_need_data_chk: boolean;
}

/** One permission row as stored: the user's own (own = true) or one of a group they belong to. */
export interface PermRow {
  usr_prms_mdl: string;
  usr_prms_page: string;
  usr_prms_is_alw: boolean;
  usr_prms_btns: string | null;
  usr_need_data_chk: boolean;
  own: boolean;
}

/**
 * The stored rows behind a user's effective permissions in an institute, as a sub-select's FROM/WHERE
 * (the signed-in context reads them in the same statement as the session). `pages` limits them to those
 * pages; the combination per page does not depend on other pages' rows, so the result for them is the same.
 */
export function permissionRowsSql(usrCd: SQL, instCd: SQL, pages?: readonly Pick<PageDef, 'module' | 'page'>[], groupsOnly = false): SQL {
  const pageFilter = pages
    ? pages.length
      ? sql`AND (p.usr_prms_mdl, p.usr_prms_page) IN (${sql.join(pages.map((pg) => sql`(${pg.module}, ${pg.page})`), sql`, `)})`
      : sql`AND false`
    : sql``;
  const ownRows = groupsOnly ? sql`false` : sql`p.usr_prms_usr_cd = ${usrCd}`;
  return sql`FROM user_permission p
        WHERE p.inst_cd = ${instCd} AND p.usr_sts ${pageFilter}
          AND (${ownRows}
               OR p.upg_cd IN (SELECT m.upg_cd FROM user_permission_mapping m WHERE m.usr_cd = ${usrCd} AND m.inst_cd = ${instCd}))`;
}

export const permissionColumnsSql = (usrCd: SQL): SQL =>
  sql`p.usr_prms_mdl, p.usr_prms_page, p.usr_prms_is_alw, p.usr_prms_btns, p.usr_need_data_chk, (p.usr_prms_usr_cd = ${usrCd}) AS own`;

/**
 * Effective permissions of a user in an institute, per page. The user's own row wins; without one, the
 * rows of the groups they belong to are combined (allowed if any group allows, buttons united, data
 * restricted only if every allowing group restricts). Buttons are limited to those the page declares,
 * and 'login' buttons to admins. A row holding 'his students only' on a page the flag cannot narrow (one
 * stored before saves refused it) grants nothing: fail closed, never the whole page.
 */
export async function effectivePermissions(
  db: DbOrTx,
  usrCd: number,
  instCd: number,
  isAdmin: boolean,
  only?: Pick<PageDef, 'module' | 'page'>,
  /** What the groups alone give (what the user would have without their own rows). */
  groupsOnly = false,
): Promise<Map<string, EffectivePermission>> {
  const u = sql`${usrCd}`;
  const found = await rows<PermRow>(
    db,
    sql`SELECT ${permissionColumnsSql(u)} ${permissionRowsSql(u, sql`${instCd}`, only ? [only] : undefined, groupsOnly)}`,
  );
  return combinePermissions(found, isAdmin);
}

/** The stored rows of a user (own and groups') combined into one effective permission per live page. */
export function combinePermissions(found: readonly PermRow[], isAdmin: boolean): Map<string, EffectivePermission> {
  const byPage = new Map<string, PermRow[]>();
  for (const r of found) {
    const k = `${r.usr_prms_mdl}/${r.usr_prms_page}`;
    byPage.set(k, [...(byPage.get(k) ?? []), r]);
  }
  const out = new Map<string, EffectivePermission>();
  for (const pg of livePages()) {
    const k = `${pg.module}/${pg.page}`;
    const rs = byPage.get(k);
    if (!rs) continue;
    const own = rs.find((r) => r.own);
    const narrows = dataChkApplies(pg);
    const grants = (r: PermRow): boolean => r.usr_prms_is_alw && (narrows || !r.usr_need_data_chk);
    const granting = own ? (grants(own) ? [own] : []) : rs.filter(grants);
    const btns = new Set(granting.flatMap((r) => parseButtons(r.usr_prms_btns)));
    const allowedBtns = pg.buttons.filter((b) => btns.has(b) && (isAdmin || !isAdminOnlyButton(b)));
    out.set(k, {
      usr_prms_mdl: pg.module,
      usr_prms_page: pg.page,
      usr_prms_pth_url: `sms/${pg.module}/${pg.page}`,
      usr_prms_is_alw: granting.length > 0,
      usr_prms_btns: allowedBtns.join(','),
      usr_need_data_chk: granting.length > 0 && granting.every((r) => r.usr_need_data_chk),
    });
  }
  return out;
}

export const hasButton = (p: EffectivePermission | undefined, button: string): boolean =>
  !!p?.usr_prms_is_alw && parseButtons(p.usr_prms_btns).includes(button);

/** One page's worth of rights someone is about to receive (a saved row, a group joined, a row removed). */
export interface Grant {
  module: string;
  page: string;
  allowed: boolean;
  buttons: readonly string[];
  /** Limited to 'his students only'. */
  dataChk: boolean;
}

/**
 * The flag given on an allowed page it cannot narrow: the save's refusal (400), or null. Stored rows like that
 * grant nothing (combinePermissions), so refusing them at the save keeps what the editor shows what counts.
 */
export function dataChkGrantRefusal(grants: readonly Grant[]): string | null {
  for (const g of grants) {
    const pg = findPage(g.module, g.page);
    if (g.allowed && g.dataChk && pg && !dataChkApplies(pg)) return dataChkRefusal(pg);
  }
  return null;
}

/**
 * Nobody hands out what they do not hold: every allowed page, button and unrestricted data access of
 * the grants must be the granter's own. Returns the refusal sentence, or null when all may be given.
 */
export function grantRefusal(mine: Map<string, EffectivePermission>, grants: readonly Grant[]): string | null {
  for (const g of grants) {
    if (!g.allowed) continue;
    const label = findPage(g.module, g.page)?.label ?? `${g.module}/${g.page}`;
    const own = mine.get(`${g.module}/${g.page}`);
    if (!own?.usr_prms_is_alw) return `You cannot grant the page ${label}: you do not have it yourself.`;
    const held = parseButtons(own.usr_prms_btns);
    const lacking = g.buttons.filter((b) => !held.includes(b));
    if (lacking.length) return `You cannot grant '${lacking.join(', ')}' on ${label}: you do not have it yourself.`;
    if (!g.dataChk && own.usr_need_data_chk) return `You cannot grant access to all students on ${label}: you only have your own.`;
  }
  return null;
}

export const grantOf = (p: EffectivePermission): Grant => ({
  module: p.usr_prms_mdl,
  page: p.usr_prms_page,
  allowed: p.usr_prms_is_alw,
  buttons: parseButtons(p.usr_prms_btns),
  dataChk: p.usr_need_data_chk,
});
