import { fieldButtons, hasRoute, type AnyEntity, type FieldButton } from '@campus/entities/define';
import type { EntityRow } from './entity-api';
import type { Translate } from './entity-labels';
import { selectionMessage } from './list-messages';

/** A toggle or 'take action' button of the grid toolbar: both change one field of one selected row. */
export type GridFieldButton = FieldButton & { kind: 'toggle' | 'action' };

/**
 * The entity's toggle and action buttons this user may press: only configured buttons render (spec
 * section 6), and each is saved as an update, so an entity without the update route shows none.
 */
export function permittedFieldButtons(entity: AnyEntity, can: (button: string) => boolean): GridFieldButton[] {
  if (!hasRoute(entity, 'update')) return [];
  return fieldButtons(entity).filter((b) => can(b.button));
}

/**
 * The one selected row, or the spec's selection message (section 5): none selected asks for records,
 * several ask for exactly one.
 */
export function oneSelected(t: Translate, tableName: string, selection: readonly EntityRow[]): { row: EntityRow } | { problem: string } {
  const problem = selectionMessage(t, tableName, selection.length, selection.length === 0 ? 'some' : 'one');
  return problem === null ? { row: selection[0] } : { problem };
}

const asBool = (v: unknown): boolean => v === true || v === 1 || v === '1' || v === 'true';

/** A toggle's new value: the stored flag flipped, whichever way the row spells it. */
export const flipped = (row: EntityRow, field: string): boolean => !asBool(row[field]);

/** The PUT body of a field button: the one field and the row_ver it was read at (a stale row gets 409). */
export const fieldButtonBody = (row: EntityRow, field: string, value: unknown): EntityRow => ({ [field]: value, row_ver: row.row_ver });

/** The statuses an action offers: the options of its select field (defineEntity makes sure it is one). */
export function actionOptions(entity: AnyEntity, field: string): readonly string[] {
  const f = entity.fields[field];
  return f?.kind === 'select' ? f.options : [];
}
