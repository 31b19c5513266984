import { fieldSchema, hasRoute, type AnyEntity, type Field, type MoneyField, type NumberField } from '@campus/entities/define';
import { toFixedString } from '../lib/decimal';
import { keystrokeMakesNegative } from '../lib/validation';

/** The kinds an entity's inlineEdit may name (defineEntity refuses others). */
export type InlineField = MoneyField | NumberField;

export const isInlineField = (f: Field | undefined): f is InlineField => f?.kind === 'money' || f?.kind === 'number';

/**
 * The declared inline-edit fields this user may change in the grid: each commit is a PUT, so it needs the
 * page's 'edit' button and the generic update route, exactly like the form.
 */
export function inlineEditFields(entity: AnyEntity, canEdit: boolean): readonly string[] {
  if (!canEdit || !hasRoute(entity, 'update')) return [];
  return (entity.inlineEdit ?? []).filter((name) => isInlineField(entity.fields[name]));
}

/** Money always has cents; a number field takes a decimal point only when it is not whole. */
const takesDecimalPoint = (f: InlineField): boolean => f.kind === 'money' || !f.int;

/**
 * Whether the in-place editor takes a keystroke over the selection [start, end) of `current`: digits and
 * one decimal point, and never a key that would make the value negative (the spec's numeric key rule).
 * Keys longer than one character (Enter, Escape, arrows, Backspace) are the grid's and always pass.
 */
export function inlineKeyAllowed(f: InlineField, current: string, key: string, start: number | null = null, end: number | null = null): boolean {
  if (key.length !== 1) return true;
  if (keystrokeMakesNegative(current, key, start, end)) return false;
  if (/^\d$/.test(key)) return true;
  if (key !== '.' || !takesDecimalPoint(f)) return false;
  const from = start ?? current.length;
  const rest = current.slice(0, from) + current.slice(end ?? from);
  return !rest.includes('.');
}

/** What a committed edit amounts to: a value to save, nothing to do, or a value to ignore (and why). */
export type InlineCommit = { kind: 'save'; value: string | number } | { kind: 'unchanged' } | { kind: 'invalid'; problem: string };

const NUMBER_TEXT = /^\d+(\.\d+)?$/;

/**
 * Judges the editor's text against the field's own rule (the one the server applies), so that what is
 * refused here would be refused there too. Money comes out as a 2-decimal string: it never becomes a float.
 * A half-typed '12.' or '.5' is read as 12 and 0.5 rather than refused.
 */
export function inlineCommit(f: InlineField, raw: unknown, old: unknown): InlineCommit {
  const text = (raw === null || raw === undefined ? '' : String(raw).trim()).replace(/\.$/, '').replace(/^\./, '0.');
  if (f.kind === 'money') {
    const notAmount = `'${f.label}' must be an amount with at most 2 decimals.`;
    const parsed = fieldSchema(f).safeParse(text);
    if (text === '' || !parsed.success) return { kind: 'invalid', problem: parsed.error?.issues[0]?.message ?? notAmount };
    const value = toFixedString(String(parsed.data), 2);
    if (value === null) return { kind: 'invalid', problem: notAmount };
    const before = old === null || old === undefined || old === '' ? null : toFixedString(String(old), 2);
    return value === before ? { kind: 'unchanged' } : { kind: 'save', value };
  }
  // z.coerce.number reads '' as 0, so the shape is checked before the declared limits are.
  if (!NUMBER_TEXT.test(text)) return { kind: 'invalid', problem: `'${f.label}' must be a number.` };
  const parsed = fieldSchema(f).safeParse(text);
  if (!parsed.success) return { kind: 'invalid', problem: parsed.error.issues[0]?.message ?? `'${f.label}' must be a number.` };
  const value = Number(parsed.data);
  const unchanged = old !== null && old !== undefined && old !== '' && Number(old) === value;
  return unchanged ? { kind: 'unchanged' } : { kind: 'save', value };
}
