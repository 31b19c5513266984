import type { FieldKind } from '@campus/entities/define';
import { formatDate, formatDateTime, formatMoney, formatTime } from '../lib/format';
import type { Translate } from './entity-labels';

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

/** The text a grid cell or a read-only form value shows (spec section 9 formats). */
export function formatCell(kind: FieldKind, value: unknown, words: YesNoWords = ENGLISH_YES_NO): string {
  if (value === null || value === undefined || value === '') return '';
  switch (kind) {
    case 'bool':
      return value === true || value === 1 || value === '1' || value === 'true' ? words.yes : words.no;
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
