import type { FieldKind } from '@campus/entities/define';
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

/** Spec section 9: default and minimum column width. */
export const MIN_COLUMN_WIDTH = 100;

/**
 * Room a heading needs beside its text: the cell's side padding (8 + 8), the sort arrow that appears beside
 * a sorted heading (16 and its gap) and the resize grip, plus a few pixels so that rounding never ellipsises.
 */
export const HEADER_EXTRA = 48;
/** Side padding of a cell (8 + 8) and a little slack for rounding. */
export const CELL_EXTRA = 22;

/**
 * Widest a column grows for its content: a long reason or address is cut there rather than pushing every
 * other column off screen (its full text is in the View form and the export). Short kinds never need more.
 */
const MAX_WIDTH: Readonly<Partial<Record<FieldKind, number>>> = { text: 300, link: 260, select: 220, json: 240 };
const DEFAULT_MAX_WIDTH = 200;

/** Text width in pixels, as the grid draws a heading ('header', bold) or a cell ('cell'). */
export type MeasureText = (text: string, where: 'header' | 'cell') => number;

/**
 * A column's starting width: enough for its heading and for the widest value on the page (values up to
 * their kind's cap), never under the spec's 100 px. Measured from the texts rather than from rendered cells, so a
 * column scrolled out of view (or hidden, then shown from the Columns menu) is sized like the others.
 */
export function columnWidth(kind: FieldKind, header: string, cells: readonly string[], measure: MeasureText): number {
  let content = 0;
  for (const text of cells) if (text !== '') content = Math.max(content, measure(text, 'cell') + CELL_EXTRA);
  // The cap bounds values only: a heading is always shown whole (a Tamil heading may be long).
  const heading = measure(header, 'header') + HEADER_EXTRA;
  return Math.ceil(Math.max(MIN_COLUMN_WIDTH, heading, Math.min(content, MAX_WIDTH[kind] ?? DEFAULT_MAX_WIDTH)));
}

/** A shown column as the share-out sees it. */
export interface ShownColumn {
  colId: string;
  kind: FieldKind;
  width: number;
}

/** A long free-text column (a reason, an address) gives back room down to this, so the columns after it stay in view. */
export const LONG_TEXT_FLOOR = 180;

/**
 * The shown columns' widths fitted to the room the grid has. With room to spare every column but a record
 * code grows in proportion (codes need their digits, not a share of a wide screen). Short of room, free
 * text wider than LONG_TEXT_FLOOR gives back what is missing, widest first, so that a long reason ends in
 * '…' rather than pushing the status or the 'Undone' columns off screen; when that is not enough, the grid
 * scrolls sideways (a phone).
 */
export function fitToRoom(shown: readonly ShownColumn[], available: number): Map<string, number> {
  const out = new Map(shown.map((c) => [c.colId, c.width]));
  const used = shown.reduce((sum, c) => sum + c.width, 0);
  if (used < available) {
    const growable = shown.filter((c) => c.kind !== 'code');
    const base = growable.reduce((sum, c) => sum + c.width, 0);
    let spare = available - used;
    growable.forEach((c, i) => {
      // The last one takes what rounding left, so the columns end exactly at the edge.
      const add = i === growable.length - 1 ? spare : Math.floor(((available - used) * c.width) / base);
      out.set(c.colId, c.width + add);
      spare -= add;
    });
    return out;
  }
  let missing = used - available;
  const long = shown.filter((c) => c.kind === 'text' && c.width > LONG_TEXT_FLOOR).sort((a, b) => b.width - a.width);
  for (const c of long) {
    if (missing <= 0) break;
    const give = Math.min(missing, c.width - LONG_TEXT_FLOOR);
    out.set(c.colId, c.width - give);
    missing -= give;
  }
  return out;
}
