import { parseButtons } from '@campus/entities/pages';
import { truthyFlag } from '../../app/page-permission-context';

/** GET /api/user_permission/crudpage: the live pages a permission can name. */
export interface CrudPage {
  module: string;
  page: string;
  label: string;
  path: string;
  buttons: string[];
  /** Whether 'access his students only' can narrow the page (its entity declares whose rows are whose). */
  dataChk: boolean;
  /** Why not, when it cannot (the greyed-out box's tooltip). */
  dataChkNote?: string;
}

/** A stored permission row as GET /api/user_permission/?usr_prms_usr_cd=U (or ?upg_cd=G) returns it. */
export interface StoredPermission {
  usr_prms_cd?: number;
  usr_prms_usr_cd?: number | null;
  upg_cd?: number | null;
  usr_prms_mdl?: string;
  usr_prms_page?: string;
  usr_prms_pth_url?: string | null;
  usr_prms_is_alw?: unknown;
  usr_prms_btns?: string | null;
  usr_prms_dscr?: string | null;
  usr_need_data_chk?: unknown;
}

export type Subject = { kind: 'user'; usr_cd: number } | { kind: 'group'; upg_cd: number };

export interface PageGrant {
  allowed: boolean;
  buttons: string[];
}

/**
 * Editor state: one grant per page key (module/page), plus whether a row already exists for it, and per page
 * 'access his students only'.
 */
export interface EditorState {
  grants: Record<string, PageGrant>;
  existing: Set<string>;
  description: string;
  ownOnly: Record<string, boolean>;
}

/** The row sent by POST /api/user_permission/?usrNeedDataChk=0|1. */
export interface PermissionSaveRow {
  usr_prms_usr_cd?: number;
  upg_cd?: number;
  usr_prms_mdl: string;
  usr_prms_page: string;
  usr_prms_pth_url: string;
  usr_prms_is_alw: boolean;
  usr_prms_btns: string;
  usr_prms_dscr: string;
  usr_need_data_chk: boolean;
}

export const grantKey = (module: string, page: string): string => `${module}/${page}`;

/** Accepts the shapes a list endpoint may answer with: rows, { rows }, or [rows, ...] (the guard's form). */
export function normaliseRows<T>(data: unknown): T[] {
  if (Array.isArray(data)) {
    if (data.length > 0 && Array.isArray(data[0])) return data[0] as T[];
    return data as T[];
  }
  if (data && typeof data === 'object' && Array.isArray((data as { rows?: unknown }).rows)) return (data as { rows: T[] }).rows;
  return [];
}

export function normaliseCrudPages(data: unknown): CrudPage[] {
  type Answer = Partial<CrudPage> & { buttons?: unknown; data_chk?: unknown; data_chk_note?: unknown };
  return normaliseRows<Answer>(data)
    .filter((p): p is Answer & { module: string; page: string } => typeof p.module === 'string' && typeof p.page === 'string')
    .map((p) => ({
      module: p.module,
      page: p.page,
      label: p.label ?? p.page,
      path: p.path ?? `sms/${p.module}/${p.page}`,
      buttons: Array.isArray(p.buttons) ? p.buttons.map(String) : parseButtons(typeof p.buttons === 'string' ? p.buttons : ''),
      // An older server that does not say: the flag is offered, and the save's answer decides.
      dataChk: p.data_chk === undefined ? true : truthyFlag(p.data_chk),
      ...(typeof p.data_chk_note === 'string' ? { dataChkNote: p.data_chk_note } : {}),
    }));
}

export function emptyState(): EditorState {
  return { grants: {}, existing: new Set(), description: '', ownOnly: {} };
}

/** Editor state from the subject's stored rows; buttons a page no longer offers are dropped. */
export function stateFromRows(rows: readonly StoredPermission[], pages: readonly CrudPage[]): EditorState {
  const byKey = new Map(pages.map((p) => [grantKey(p.module, p.page), p]));
  const state = emptyState();
  for (const row of rows) {
    if (!row.usr_prms_mdl || !row.usr_prms_page) continue;
    const key = grantKey(row.usr_prms_mdl, row.usr_prms_page);
    state.existing.add(key);
    const page = byKey.get(key);
    const buttons = parseButtons(row.usr_prms_btns).filter((b) => !page || page.buttons.includes(b));
    state.grants[key] = { allowed: truthyFlag(row.usr_prms_is_alw), buttons };
    if (!state.description && row.usr_prms_dscr) state.description = row.usr_prms_dscr;
    // A flag stored on a page it cannot narrow stays shown (and can be cleared): it grants nothing as it is.
    if (truthyFlag(row.usr_need_data_chk)) state.ownOnly[key] = true;
  }
  return state;
}

export function grantOf(state: EditorState, key: string): PageGrant {
  return state.grants[key] ?? { allowed: false, buttons: [] };
}

/** Allowing a page with nothing chosen grants all its buttons: the common case is full access. */
export function setAllowed(state: EditorState, page: CrudPage, allowed: boolean): EditorState {
  const key = grantKey(page.module, page.page);
  const current = grantOf(state, key);
  const buttons = allowed && current.buttons.length === 0 ? [...page.buttons] : current.buttons;
  return { ...state, grants: { ...state.grants, [key]: { allowed, buttons } } };
}

/** Choosing a button implies the page is allowed. */
export function setButtons(state: EditorState, page: CrudPage, buttons: string[]): EditorState {
  const key = grantKey(page.module, page.page);
  const ordered = page.buttons.filter((b) => buttons.includes(b));
  const allowed = ordered.length > 0 ? true : grantOf(state, key).allowed;
  return { ...state, grants: { ...state.grants, [key]: { allowed, buttons: ordered } } };
}

/** 'Access his students only' on one page; refused where it cannot narrow the page (unless clearing it). */
export function setOwnOnly(state: EditorState, page: CrudPage, on: boolean): EditorState {
  if (on && !page.dataChk) return state;
  return { ...state, ownOnly: { ...state.ownOnly, [grantKey(page.module, page.page)]: on } };
}

/** The switch above the list: every page that can be narrowed (and only those) on or off at once. */
export function setOwnOnlyAll(state: EditorState, pages: readonly CrudPage[], on: boolean): EditorState {
  const ownOnly = { ...state.ownOnly };
  for (const p of pages) if (p.dataChk) ownOnly[grantKey(p.module, p.page)] = on;
  return { ...state, ownOnly };
}

/** The switch reads on when every allowed page that can be narrowed is, and there is one. */
export function ownOnlyAll(state: EditorState, pages: readonly CrudPage[]): boolean {
  const narrowable = pages.filter((p) => p.dataChk && grantOf(state, grantKey(p.module, p.page)).allowed);
  return narrowable.length > 0 && narrowable.every((p) => state.ownOnly[grantKey(p.module, p.page)] === true);
}

export function setAllowedMany(state: EditorState, pages: readonly CrudPage[], allowed: boolean): EditorState {
  return pages.reduce((s, p) => setAllowed(s, p, allowed), state);
}

/**
 * Rows to save: every allowed page, and every page that had a row (so a revoked page is stored as not
 * allowed rather than left as it was). Buttons of a page that is not allowed are not kept.
 */
export function buildSaveRows(subject: Subject, state: EditorState, pages: readonly CrudPage[]): PermissionSaveRow[] {
  const rows: PermissionSaveRow[] = [];
  for (const page of pages) {
    const key = grantKey(page.module, page.page);
    const grant = grantOf(state, key);
    if (!grant.allowed && !state.existing.has(key)) continue;
    rows.push({
      ...(subject.kind === 'user' ? { usr_prms_usr_cd: subject.usr_cd } : { upg_cd: subject.upg_cd }),
      usr_prms_mdl: page.module,
      usr_prms_page: page.page,
      usr_prms_pth_url: page.path,
      usr_prms_is_alw: grant.allowed,
      usr_prms_btns: grant.allowed ? grant.buttons.join(',') : '',
      usr_prms_dscr: state.description.trim(),
      usr_need_data_chk: state.ownOnly[key] === true,
    });
  }
  return rows;
}

/** The spec's save call; each row carries its own flag, the URL says whether any does. */
export function saveUrl(rows: readonly Pick<PermissionSaveRow, 'usr_need_data_chk'>[]): string {
  return `/api/user_permission/?usrNeedDataChk=${rows.some((r) => r.usr_need_data_chk) ? 1 : 0}`;
}

/** Pages grouped by module, in the order the server listed them. */
export function groupByModule(pages: readonly CrudPage[]): { module: string; pages: CrudPage[] }[] {
  const groups = new Map<string, CrudPage[]>();
  for (const p of pages) {
    const list = groups.get(p.module);
    if (list) list.push(p);
    else groups.set(p.module, [p]);
  }
  return Array.from(groups, ([module, list]) => ({ module, pages: list }));
}
