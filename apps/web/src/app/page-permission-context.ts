import { isAdminOnlyButton, parseButtons } from '@campus/entities/pages';
import { findEntity } from '@campus/entities/registry';
import { createContext, useContext } from 'react';

export interface TableSetting {
  tbl_setg_tbl_nm: string;
  tbl_setg_obj: unknown;
}

/** The signed-in user's permission for the page on screen, loaded by the route guard. */
export interface PagePermission {
  module: string;
  page: string;
  /** Buttons granted on this page (usr_prms_btns), already split. */
  buttons: string[];
  /** 'access his students only' (usr_need_data_chk). */
  dataChk: boolean;
  /** The user's saved grid layouts (Update State). */
  tableSettings: TableSetting[];
  /** True when the button is granted; buttons naming 'login' also need an admin (spec section 6). */
  can(button: string): boolean;
  /**
   * Let in without the page for the user's own row only (My Profile): the form offers the entity's
   * self-service fields, as the server allows.
   */
  selfOnly: boolean;
}

/** The permission row of GET /api/user_permission/?usr_prms_usr_cd&usr_prms_pth_url&usr_sts=1 ([0][0]). */
export interface PermissionRow {
  usr_prms_mdl?: string;
  usr_prms_page?: string;
  usr_prms_pth_url?: string;
  usr_prms_is_alw?: boolean | number | string | null;
  usr_prms_btns?: string | null;
  usr_need_data_chk?: boolean | number | string | null;
}

export function truthyFlag(v: unknown): boolean {
  return v === true || v === 1 || v === '1' || v === 'true' || v === 'Y' || v === 'Yes';
}

export function buildPagePermission(
  module: string,
  page: string,
  row: PermissionRow | undefined,
  tableSettings: TableSetting[],
  isAdmin: boolean,
): PagePermission {
  const buttons = parseButtons(row?.usr_prms_btns);
  return {
    module,
    page,
    buttons,
    dataChk: truthyFlag(row?.usr_need_data_chk),
    tableSettings,
    can: (button) => buttons.includes(button) && (isAdmin || !isAdminOnlyButton(button)),
    selfOnly: false,
  };
}

/**
 * Is the path tail ('update/12', 'view/12') the signed-in user's own row of an entity with self-service
 * fields? Such a row opens (My Profile) even without the page, as on the server.
 */
export function isOwnProfilePath(entityName: string | undefined, rest: string, usrCd: number | undefined): boolean {
  const e = entityName ? findEntity(entityName) : undefined;
  if (!e?.selfService?.length || e.ownership !== 'self' || usrCd === undefined) return false;
  const m = /^(update|view)\/(\d+)\/?$/.exec(rest);
  return !!m && Number(m[2]) === usrCd;
}

const emptyPermission: PagePermission = buildPagePermission('', '', undefined, [], false);

export const PagePermissionContext = createContext<PagePermission>(emptyPermission);

export function usePagePermission(): PagePermission {
  return useContext(PagePermissionContext);
}
