import type { AnyEntity, Field, FieldKind } from '@campus/entities/define';
import { fieldLabel, type Translate } from './entity-labels';

/**
 * A grid column derived from one declared field. Library-neutral on purpose: the AG Grid adapter, the Excel
 * export and the table-info dialog all read this, so swapping the grid library touches only the adapter.
 */
export interface ColumnSpec {
  /** Declared field name: the server's sort key and the key of the saved column state. */
  colId: string;
  /** Row property that holds the shown value: a link shows its joined display column (e.g. rl_nm). */
  valueField: string;
  /** The declared (English) label; translateColumns puts the current language's in its place. */
  label: string;
  kind: FieldKind;
  align: 'left' | 'right';
  /** Not in the default column set; the user may still show it. */
  hidden: boolean;
  sortable: boolean;
  searchable: boolean;
}

/** Kinds the server cannot order by meaningfully (and the list query refuses as sort keys). */
const unsortable: ReadonlySet<FieldKind> = new Set<FieldKind>(['json', 'image', 'file', 'password']);

const rightAligned: ReadonlySet<FieldKind> = new Set<FieldKind>(['money', 'number', 'code']);

export function columnOf(name: string, f: Field): ColumnSpec {
  return {
    colId: name,
    valueField: f.kind === 'link' ? f.as : name,
    label: f.label,
    kind: f.kind,
    align: rightAligned.has(f.kind) ? 'right' : 'left',
    hidden: f.gridHidden === true,
    sortable: !unsortable.has(f.kind),
    searchable: f.search === true,
  };
}

/**
 * Whether a field may be a column at all. Passwords never are (the server never returns them), nor machine
 * internals such as an idempotency key: the grid, its Columns menu and the export all take their columns
 * from here, so none of them can offer one.
 */
export function isListable(f: Field): boolean {
  return f.kind !== 'password' && f.internal !== true;
}

/** Columns in declaration order. */
export function deriveColumns(entity: AnyEntity): ColumnSpec[] {
  return Object.entries(entity.fields)
    .filter(([, f]) => isListable(f))
    .map(([name, f]) => columnOf(name, f));
}

/**
 * Only the named fields, in the given order, all shown (a saved report's columns); names that are not
 * listable fields are skipped. No names: the default columns.
 */
export function chosenColumns(entity: AnyEntity, names: readonly string[] | undefined): ColumnSpec[] {
  if (!names?.length) return deriveColumns(entity);
  return names
    .filter((n) => Object.hasOwn(entity.fields, n) && isListable(entity.fields[n]))
    .map((n) => ({ ...columnOf(n, entity.fields[n]), hidden: false }));
}

/**
 * The same columns labelled in the current language. Kept apart from deriveColumns so the derived set stays
 * stable (it keys the list query and the saved layout) while labels follow a language switch.
 */
export function translateColumns(t: Translate, entity: AnyEntity, columns: readonly ColumnSpec[]): ColumnSpec[] {
  return columns.map((c) => ({ ...c, label: fieldLabel(t, entity, c.colId) }));
}

/**
 * Labels of the columns the quick search looks in (shown in the table-info dialog and the search hint),
 * in the current language when a translate function is given, else as declared.
 */
export function searchableLabels(entity: AnyEntity, t?: Translate): string[] {
  const columns = deriveColumns(entity);
  return (t ? translateColumns(t, entity, columns) : columns).filter((c) => c.searchable).map((c) => c.label);
}

/**
 * Orders and filters columns by a list of column ids (the grid's current visible order). Ids that are not
 * columns are ignored; when the list is empty the default (declaration) order of visible columns is used.
 */
export function orderColumns(columns: readonly ColumnSpec[], visibleOrder: readonly string[]): ColumnSpec[] {
  if (visibleOrder.length === 0) return columns.filter((c) => !c.hidden);
  const byId = new Map(columns.map((c) => [c.colId, c]));
  return visibleOrder.map((id) => byId.get(id)).filter((c): c is ColumnSpec => c !== undefined);
}
