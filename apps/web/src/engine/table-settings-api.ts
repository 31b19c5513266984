import type { ColumnState } from 'ag-grid-community';
import { http } from '../lib/http-client';
import { parseSavedLayout, withoutSort, type SavedLayout } from './column-layout';

// The doubled slash is the spec's path (section 7), kept as written.
const TABLE_SETTINGS_URL = '/api/setting//tablesettings';

/*
 * Layouts saved or restored in this tab. The page permission (and the table settings it carries) is cached
 * per page, so without this a grid reopened after Update State would come back with the older layout.
 */
const recent = new Map<string, SavedLayout | null>();
const recentKey = (userCode: number, tableName: string): string => `${userCode}:${tableName}`;

/** The layout this tab last saved or restored for the table, or undefined when it has not touched it. */
export function recentLayout(userCode: number | null, tableName: string): SavedLayout | null | undefined {
  return userCode === null ? undefined : recent.get(recentKey(userCode, tableName));
}

/** 'Update State': stores the current layout as the user's layout of this table. */
export async function saveLayout(userCode: number, tableName: string, state: readonly ColumnState[]): Promise<void> {
  const layout = withoutSort(state);
  await http.post(TABLE_SETTINGS_URL, { tbl_setg_usr_cd: userCode, tbl_setg_tbl_nm: tableName, tbl_setg_obj: layout });
  recent.set(recentKey(userCode, tableName), layout);
}

/** 'Reset State': the layout saved last, or null when there is none (the grid then takes its default). */
export async function loadSavedLayout(userCode: number, tableName: string): Promise<SavedLayout | null> {
  const res = await http.put<{ tbl_setg_obj?: unknown } | null>(TABLE_SETTINGS_URL, { tbl: tableName, usrCd: userCode });
  const layout = parseSavedLayout(res?.tbl_setg_obj ?? null);
  recent.set(recentKey(userCode, tableName), layout);
  return layout;
}
