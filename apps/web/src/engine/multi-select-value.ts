import { canonicalMultiSelect, multiSelectParts } from '@campus/entities/define';
import type { FormValue } from './form-values';

/** Spec section 9: a multi-select dropdown shows up to 3 chosen items. */
export const MAX_SHOWN_PILLS = 3;

/** The chosen options of a multiple select's form value (the stored comma string). */
export function multiSelectValues(value: FormValue): string[] {
  return typeof value === 'string' ? multiSelectParts(value) : [];
}

/**
 * The form value after the user changed the choice: the same canonical comma string the server stores
 * (declared option order, each once), so an unchanged choice is not sent as a change on update. '' when
 * nothing is chosen, which the form treats as empty.
 */
export function multiSelectFormValue(options: readonly string[], chosen: readonly string[]): string {
  return canonicalMultiSelect(options, chosen) ?? '';
}

/** How a chosen value appears in the input: as its own pill, as the "+N more" pill, or not at all. */
export type PillSlot = 'pill' | 'more' | 'hidden';

export function pillSlot(index: number, max = MAX_SHOWN_PILLS): PillSlot {
  if (index < max) return 'pill';
  return index === max ? 'more' : 'hidden';
}

/** How many chosen values the "+N more" pill stands for. */
export function hiddenCount(total: number, max = MAX_SHOWN_PILLS): number {
  return Math.max(0, total - max);
}

/** Read-only text of a stored value: 'Student,Institute' -> 'Student, Institute'. */
export function multiSelectText(value: unknown): string {
  return typeof value === 'string' ? multiSelectParts(value).join(', ') : '';
}
