import type { ColumnState } from 'ag-grid-community';
import { http } from '../lib/http-client';
import { parseSavedLayout, withoutSort, type SavedLayout } from './column-layout';

// The doubled slash is the spec's path (section 7), kept as written.
const TABLE_SETTINGS_URL = '/api/setting//tablesettings';

/** 'Update State': stores the current layout as the user's layout of this table. */
export async function saveLayout(userCode: number, tableName: string, state: readonly ColumnState[]): Promise<void> {
  await http.post(TABLE_SETTINGS_URL, { tbl_setg_usr_cd: userCode, tbl_setg_tbl_nm: tableName, tbl_setg_obj: withoutSort(state) });
}

/** 'Reset State': the layout saved last, or null when there is none (the grid then takes its default). */
export async function loadSavedLayout(userCode: number, tableName: string): Promise<SavedLayout | null> {
  const res = await http.put<{ tbl_setg_obj?: unknown } | null>(TABLE_SETTINGS_URL, { tbl: tableName, usrCd: userCode });
  return parseSavedLayout(res?.tbl_setg_obj ?? null);
}
