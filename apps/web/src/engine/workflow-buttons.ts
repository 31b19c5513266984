import type { AnyEntity, WorkflowButton } from '@campus/entities/define';
import { entityUrl, type EntityRow } from './entity-api';
import { toggleLabelKey, type Translate } from './entity-labels';

/**
 * The entity's workflow buttons (cancel a bill...) this user may press: only buttons the page grants render,
 * like toggles; the workflow's route checks the same button again.
 */
export function permittedWorkflowButtons(entity: AnyEntity, can: (button: string) => boolean): readonly WorkflowButton[] {
  return (entity.workflowButtons ?? []).filter((b) => can(b.button));
}

/**
 * Whether the button applies to the selection. Only one selected row can fail its condition: with none or
 * several the button stays pressable, so the click says what to select (spec section 5).
 */
export function workflowButtonEnabled(b: WorkflowButton, selection: readonly EntityRow[]): boolean {
  if (!b.enabledWhen || selection.length !== 1) return true;
  const value = String(selection[0][b.enabledWhen.field] ?? '');
  const allowed = b.enabledWhen.equals;
  return typeof allowed === 'string' ? value === allowed : allowed.includes(value);
}

/** The route under the entity's API, e.g. /api/fee/CollectedFee/cancel. */
export const workflowButtonUrl = (entity: AnyEntity, b: WorkflowButton): string => entityUrl(entity, b.path);

/** The POST body: the row's key (a number, as codes are) and the reason when the button asks one. */
export function workflowButtonBody(entity: AnyEntity, b: WorkflowButton, row: EntityRow, reason: string): Record<string, unknown> {
  const id = row[entity.key];
  return { [entity.key]: typeof id === 'string' && /^\d+$/.test(id) ? Number(id) : id, ...(b.reason ? { reason: reason.trim() } : {}) };
}

const keyOf = (entity: AnyEntity, b: WorkflowButton, part: string): string => `workflow.${entity.name}.${b.button}.${part}`;

/** The texts of one button in the current language, the row named by its title field. */
export function workflowButtonTexts(t: Translate, entity: AnyEntity, b: WorkflowButton, row: EntityRow | null) {
  const title = row ? String(row[entity.title] ?? row[entity.key] ?? '') : '';
  const label = t(toggleLabelKey(b), { defaultValue: b.label });
  return {
    label,
    confirm: t(keyOf(entity, b, 'confirm'), { defaultValue: b.confirm, title }),
    reason: b.reason ? t(keyOf(entity, b, 'reason'), { defaultValue: b.reason.label }) : null,
    done: t(keyOf(entity, b, 'done'), { defaultValue: b.done ?? `'${b.label}' done for {{title}}.`, title }),
  };
}
