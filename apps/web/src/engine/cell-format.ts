import { multiSelectParts, type AnyEntity, type Field } from '@campus/entities/define';
import { formatDate, formatDateTime, formatMoney, formatTime } from '../lib/format';
import { declaredOptionLabel, optionLabel, type Translate } from './entity-labels';

/** The words a boolean shows as; English unless the caller passes the current language's (see yesNoWords). */
export interface YesNoWords {
  yes: string;
  no: string;
}

const ENGLISH_YES_NO: YesNoWords = { yes: 'Yes', no: 'No' };

/** Yes/No in the current language, from the language file's common.yes / common.no. */
export function yesNoWords(t: Translate): YesNoWords {
  return { yes: t('common.yes', { defaultValue: ENGLISH_YES_NO.yes }), no: t('common.no', { defaultValue: ENGLISH_YES_NO.no }) };
}

/**
 * Where a value is shown. Without t everything is English (declared option labels, Yes/No); option keys
 * also need the declaring entity and field name, without which options show their declared labels.
 */
export interface CellContext {
  t?: Translate;
  entity?: AnyEntity;
  fieldName?: string;
}

const isBlank = (value: unknown): boolean => value === null || value === undefined || value === '';

/** One option as people read it: translated when the context says whose option it is. */
function selectLabel(field: Extract<Field, { kind: 'select' }>, value: string, ctx: CellContext): string {
  const { t, entity, fieldName } = ctx;
  return t && entity && fieldName !== undefined ? optionLabel(t, entity, fieldName, value) : declaredOptionLabel(field, value);
}

/**
 * The text a grid cell, a read-only form value or an exported text cell shows (spec section 9 formats).
 * The one formatting path for a field's value, so every screen words a value alike.
 */
export function formatCell(field: Field, value: unknown, ctx: CellContext = {}): string {
  if (isBlank(value)) return '';
  switch (field.kind) {
    case 'bool': {
      const words = ctx.t ? yesNoWords(ctx.t) : ENGLISH_YES_NO;
      return value === true || value === 1 || value === '1' || value === 'true' ? words.yes : words.no;
    }
    case 'select': {
      // A multiple select is stored 'Student,Institute'; each option is labelled and the list spaced.
      const parts = field.multiple ? multiSelectParts(String(value)) : [String(value)];
      return parts.map((p) => selectLabel(field, p, ctx)).join(', ');
    }
    case 'money':
      return formatMoney(String(value));
    case 'date':
      return formatDate(String(value));
    case 'time':
      return formatTime(String(value));
    case 'datetime':
      return formatDateTime(String(value));
    case 'json':
      return typeof value === 'string' ? value : JSON.stringify(value);
    default:
      return String(value);
  }
}

/**
 * A grid column's cell (grid and export alike): the declared field of the column formatted in the current
 * language. A link column's value is the joined display name, which its link kind shows as it comes.
 */
export function formatColumnCell(entity: AnyEntity, colId: string, value: unknown, t?: Translate): string {
  const field = Object.hasOwn(entity.fields, colId) ? entity.fields[colId] : undefined;
  if (!field) return isBlank(value) ? '' : String(value);
  return formatCell(field, value, { t, entity, fieldName: colId });
}
