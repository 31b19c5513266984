import type { ColumnState } from 'ag-grid-community';

/**
 * A saved grid layout (tbl_setg_obj) is AG Grid column state: order, width, hidden, pinned. Sort is left
 * out on purpose: the list's sort belongs to the URL and the server query, not to the saved layout.
 */
export type SavedLayout = ColumnState[];

const SORT_KEYS = ['sort', 'sortIndex', 'sortType', 'initialSort', 'initialSortIndex'] as const;

export function withoutSort(state: readonly ColumnState[]): SavedLayout {
  return state.map((c) => {
    const copy: Record<string, unknown> = { ...c };
    for (const k of SORT_KEYS) delete copy[k];
    return copy as unknown as ColumnState;
  });
}

/**
 * Reads a stored layout defensively: older clients stored it as a JSON string, and a hand-edited or
 * foreign value must not break the grid, so anything that is not a list of { colId } is ignored.
 */
export function parseSavedLayout(raw: unknown): SavedLayout | null {
  let value = raw;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      return null;
    }
  }
  if (!Array.isArray(value)) return null;
  const state = value.filter((c): c is ColumnState => !!c && typeof c === 'object' && typeof (c as { colId?: unknown }).colId === 'string');
  return state.length > 0 ? withoutSort(state) : null;
}

/** The saved layout of one table among the user's table settings (from the page permission call). */
export function layoutFor(settings: readonly { tbl_setg_tbl_nm: string; tbl_setg_obj: unknown }[], tableName: string): SavedLayout | null {
  const row = settings.find((s) => s.tbl_setg_tbl_nm === tableName);
  return row ? parseSavedLayout(row.tbl_setg_obj) : null;
}
