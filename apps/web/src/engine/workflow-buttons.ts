import type { AnyEntity, WorkflowButton } from '@campus/entities/define';
import { pagesOfEntity } from '@campus/entities/pages';
import { findEntity } from '@campus/entities/registry';
import { entityUrl, type EntityRow } from './entity-api';
import { declaredOptionLabel, isKeySafe, optionLabel, toggleLabelKey, type Translate } from './entity-labels';
import { modePath } from './entity-mode';
import { rowToFormValues, type FormField, type FormValues } from './form-values';

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

const rowKey = (entity: AnyEntity, row: EntityRow): unknown => {
  const id = row[entity.key];
  return typeof id === 'string' && /^\d+$/.test(id) ? Number(id) : id;
};

/**
 * The route under the entity's API: /api/fee/CollectedFee/cancel, or with target 'path' the row's own
 * /api/wallet/12/topup (a row is needed for that one).
 */
export function workflowButtonUrl(entity: AnyEntity, b: WorkflowButton, row?: EntityRow): string {
  if (b.target !== 'path') return entityUrl(entity, b.path);
  if (!row) throw new Error(`${entity.name}: ${b.button} posts under a row's key`);
  return entityUrl(entity, `${String(rowKey(entity, row))}/${b.path}`);
}

/**
 * The POST body: the row's key (a number, as codes are) unless it travels in the path, the reason when the
 * button asks one, the dialog's inputs (already converted, as workflowInputSchema takes them) and the
 * opening's idempotency key when the button is idempotent.
 */
export function workflowButtonBody(
  entity: AnyEntity,
  b: WorkflowButton,
  row: EntityRow,
  reason: string,
  inputs: Readonly<Record<string, unknown>> = {},
  idempotencyKey?: string,
): Record<string, unknown> {
  return {
    ...(b.target === 'path' ? {} : { [entity.key]: rowKey(entity, row) }),
    ...(b.reason ? { reason: reason.trim() } : {}),
    ...inputs,
    ...(b.idempotent && idempotencyKey ? { idempotency_key: idempotencyKey } : {}),
  };
}

/** The dialog's inputs as the entity form's fields, so the same inputs and conversions serve both. */
export function workflowInputFields(b: WorkflowButton): FormField[] {
  return Object.entries(b.inputs ?? {}).map(([name, field]) => ({ name, field, editable: true }));
}

/**
 * What the inputs start with: the declared defaults ('today'), and the row's value for an input named like one
 * of its fields (the class an application is for). A select takes the row's value only when it is one of the
 * input's own options (a Pending request is not offered 'Pending' again).
 */
export function workflowStartValues(b: WorkflowButton, row: EntityRow | null): FormValues {
  const fields = workflowInputFields(b);
  const values = rowToFormValues(fields, null);
  if (!row) return values;
  const fromRow = rowToFormValues(fields, row);
  for (const { name, field } of fields) {
    const v = row[name];
    if (v === null || v === undefined || v === '') continue;
    if (field.kind === 'select' && !field.multiple && !field.options.includes(String(v))) continue;
    values[name] = fromRow[name];
  }
  return values;
}

/** The label a link input starts with when the row brought its name along (cls_nm beside cls_cd). */
export function workflowLinkLabels(b: WorkflowButton, row: EntityRow | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, f] of Object.entries(b.inputs ?? {})) {
    const label = row?.[f.kind === 'link' ? f.as : ''];
    if (f.kind === 'link' && row?.[name] != null && typeof label === 'string' && label !== '') out[name] = label;
  }
  return out;
}

/**
 * Where a button with `opens` goes after success: the view of the record the route answered with, on the
 * first page that shows that entity; null when the answer names none (nothing to open).
 */
export function workflowOpensPath(b: WorkflowButton, answer: unknown): string | null {
  if (!b.opens || !answer || typeof answer !== 'object') return null;
  const target = findEntity(b.opens);
  const page = pagesOfEntity(b.opens)[0];
  const id = target ? (answer as Record<string, unknown>)[target.key] : undefined;
  if (!page || (typeof id !== 'number' && typeof id !== 'string') || String(id) === '') return null;
  return modePath(page.module, page.page, 'view', id);
}

const keyOf = (entity: Pick<AnyEntity, 'name'>, b: Pick<WorkflowButton, 'button'>, part: string): string => `workflow.${entity.name}.${b.button}.${part}`;

/** `workflow.<entity>.<button>.option.<input>.<value>`, e.g. workflow.circular.send_mail.option.recipients.Staff. */
export const workflowOptionKey = (entity: Pick<AnyEntity, 'name'>, b: Pick<WorkflowButton, 'button'>, input: string, value: string): string =>
  keyOf(entity, b, `option.${input}.${value}`);

/** The texts of one button in the current language, the row named by its title field. */
export function workflowButtonTexts(t: Translate, entity: AnyEntity, b: WorkflowButton, row: EntityRow | null) {
  const title = row ? String(row[entity.title] ?? row[entity.key] ?? '') : '';
  const label = t(toggleLabelKey(b), { defaultValue: b.label });
  return {
    label,
    confirm: t(keyOf(entity, b, 'confirm'), { defaultValue: b.confirm, title }),
    reason: b.reason ? t(keyOf(entity, b, 'reason'), { defaultValue: b.reason.label }) : null,
    /** An input's label: workflow.<entity>.<button>.input.<name>, else the declared one. */
    input: (name: string): string => t(keyOf(entity, b, `input.${name}`), { defaultValue: b.inputs?.[name]?.label ?? name }),
    /**
     * A select input's option. An input named like a select field of the entity, offering one of that field's
     * options (take_action's Accepted / Rejected sets the row's status), reads the entity's
     * option.<entity>.<field>.<value>; any other input is no entity field and reads the button's
     * workflow.<entity>.<button>.option.<input>.<value>; else its declared label.
     */
    option: (name: string, value: string): string => {
      const own = Object.hasOwn(entity.fields, name) ? entity.fields[name] : undefined;
      if (own?.kind === 'select' && own.options.includes(value)) return optionLabel(t, entity, name, value);
      const input = b.inputs?.[name];
      const declared = input?.kind === 'select' ? declaredOptionLabel(input, value) : value;
      return isKeySafe(value) ? t(workflowOptionKey(entity, b, name, value), { defaultValue: declared }) : declared;
    },
    done: t(keyOf(entity, b, 'done'), { defaultValue: b.done ?? `'${b.label}' done for {{title}}.`, title }),
  };
}
