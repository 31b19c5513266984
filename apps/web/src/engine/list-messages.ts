import { noSelectionMessage, selectionProblem } from '../lib/validation';
import type { Translate } from './entity-labels';

/**
 * Spec section 5 selection messages in the current language. english.json words them exactly as the spec
 * (a contract, checked in list-messages.test.ts), and the spec's English is also the default, so a missing
 * key or an unloaded language file can never change the English text.
 */
export function selectionMessage(t: Translate, tableName: string, selectedCount: number, need: 'some' | 'one'): string | null {
  const english = selectionProblem(tableName, selectedCount, need);
  if (english === null) return null;
  const key = english === noSelectionMessage(tableName) ? 'message.select_records' : 'message.select_one';
  return t(key, { defaultValue: english, table: tableName });
}

/**
 * A text with a count in it: the language files hold a '<key>_single' and a '<key>_many' wording. Not
 * i18next's own plurals: they pick the form through Intl.PluralRules of the language code, and ours are
 * file names ('tamil_clg'), not locale tags (so never name a value 'count'). The English templates are the
 * defaults; values may carry a formatted n.
 */
export function countText(t: Translate, key: string, n: number, english: { single: string; many: string }, values: Record<string, string | number> = {}): string {
  const single = n === 1;
  return t(`${key}_${single ? 'single' : 'many'}`, { defaultValue: single ? english.single : english.many, n, ...values });
}
