import type { Translate } from './entity-labels';

/**
 * AG Grid's own texts (overlays and screen-reader announcements of the features this app uses), keyed by
 * AG Grid's localeText names. The defaults are AG Grid's English, so English screens read as before.
 */
const GRID_TEXTS: readonly { agKey: string; key: string; english: string }[] = [
  { agKey: 'noRowsToShow', key: 'grid.no_rows', english: 'No Rows To Show' },
  { agKey: 'loadingOoo', key: 'grid.loading', english: 'Loading...' },
  { agKey: 'ariaRowSelectAll', key: 'grid.aria_select_all', english: 'Press Space to toggle all rows selection' },
  { agKey: 'ariaRowToggleSelection', key: 'grid.aria_toggle_row', english: 'Press Space to toggle row selection' },
  { agKey: 'ariaRowSelect', key: 'grid.aria_select_row', english: 'Press SPACE to select this row' },
  { agKey: 'ariaRowDeselect', key: 'grid.aria_deselect_row', english: 'Press SPACE to deselect this row' },
  { agKey: 'ariaSortableColumn', key: 'grid.aria_sortable', english: 'Press ENTER to sort' },
  { agKey: 'ariaHeaderSelection', key: 'grid.aria_header_selection', english: 'Column with Header Selection' },
];

/** Language-file keys the grid's localeText reads (for the language-file tests). */
export const gridLocaleKeys: readonly string[] = GRID_TEXTS.map((g) => g.key);

/** AG Grid's localeText in the current language. */
export function gridLocaleText(t: Translate): Record<string, string> {
  return Object.fromEntries(GRID_TEXTS.map((g) => [g.agKey, t(g.key, { defaultValue: g.english })]));
}
