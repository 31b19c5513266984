// Types only: a value import of define.ts would pull zod and the declarations into the login page's bundle.
import type { Field } from '@campus/entities/define';
import dayjs from 'dayjs';
import i18next from 'i18next';
import { decimalOf, isZero, mulDiv, parseDecimal } from './decimal';

/** i18next's t, or a component's (its own instance in tests); the English default is interpolated too. */
export type TranslateFn = (key: string, options: { defaultValue: string; [k: string]: string | number }) => string;

/** The app's i18next once it is up; before that (and in unit tests without it) the English text itself. */
const globalT: TranslateFn = (key, options) => {
  if (i18next.isInitialized) return i18next.t(key, options);
  return options.defaultValue.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(options[k] ?? ''));
};

type RequiredVerb = 'select' | 'enter' | 'fill';

/** The verb of the spec's required-field message (section 5), as define.ts requiredMessage words it. */
function requiredVerb(kind: Field['kind']): RequiredVerb {
  if (kind === 'select' || kind === 'link') return 'select';
  if (kind === 'text' || kind === 'password') return 'enter';
  return 'fill';
}

const REQUIRED_TEXT: Record<RequiredVerb, { message: string; fallback: string }> = {
  select: { message: "Please select the '{{label}}'.", fallback: 'Dropdown' },
  enter: { message: "Please enter the '{{label}}'.", fallback: 'Input value' },
  fill: { message: "Please fill the '{{label}}'.", fallback: 'Field' },
};

/**
 * The required-field toast in the user's language: validation.required_{select|enter|fill} with the label
 * as shown (the caller passes the translated label), the placeholder before it, and the translated
 * fallback ('Dropdown', 'Input value', 'Field') when there is neither. In English it is exactly
 * define.ts requiredMessage, which the server words the same way.
 */
export function localRequiredMessage(f: Pick<Field, 'kind' | 'label' | 'placeholder'>, t: TranslateFn = globalT): string {
  const verb = requiredVerb(f.kind);
  const text = REQUIRED_TEXT[verb];
  const label = f.placeholder || f.label || t(`validation.fallback_${verb}`, { defaultValue: text.fallback });
  return t(`validation.required_${verb}`, { label, defaultValue: text.message });
}

/** A client-side conversion message ('must be a number', 'is not a valid date') in the user's language. */
export function localFieldMessage(
  key: 'not_a_number' | 'not_json' | 'not_a_date',
  label: string,
  t: TranslateFn = globalT,
): string {
  const english = {
    not_a_number: "'{{label}}' must be a number.",
    not_json: "'{{label}}' is not valid JSON.",
    not_a_date: "'{{label}}' is not a valid date. Type it as 2014/Mar/25 or 25/03/2014.",
  }[key];
  return t(`validation.${key}`, { label, defaultValue: english });
}

// ---- typed dates ----

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** 'YYYY-MM-DD' for a real calendar day, else null (31 April, 29 February of a common year). */
function isoDay(y: number, m: number, d: number): string | null {
  if (y < 1900 || y > 2100 || m < 1 || m > 12 || d < 1 || d > 31) return null;
  const iso = `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  const back = dayjs(iso);
  return back.isValid() && back.format('YYYY-MM-DD') === iso ? iso : null;
}

const monthOf = (name: string): number => MONTHS.indexOf(name.slice(0, 3).toLowerCase()) + 1;

/**
 * A date as an office types it, to 'YYYY-MM-DD'; null for anything else. Accepted: the display format
 * YYYY/MMM/DD (2014/Mar/25), YYYY-MM-DD and YYYY/MM/DD, and day first as India writes it: DD/MM/YYYY,
 * DD-MM-YYYY, DD.MM.YYYY (one-digit day and month too) and 25 Mar 2014 / 25-Mar-2014. Only whole
 * dates match, so a half-typed '25/03/20' is not taken for the year 20.
 */
export function parseTypedDate(input: string): string | null {
  const s = input.trim();
  let m = /^(\d{4})[/.-](\d{1,2})[/.-](\d{1,2})$/.exec(s);
  if (m) return isoDay(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{4})[/ .-]([A-Za-z]{3,9})[/ .-](\d{1,2})$/.exec(s);
  if (m) return monthOf(m[2]) ? isoDay(Number(m[1]), monthOf(m[2]), Number(m[3])) : null;
  m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(s);
  if (m) return isoDay(Number(m[3]), Number(m[2]), Number(m[1]));
  m = /^(\d{1,2})[/ .-]([A-Za-z]{3,9})[/ .-](\d{4})$/.exec(s);
  if (m) return monthOf(m[2]) ? isoDay(Number(m[3]), monthOf(m[2]), Number(m[1])) : null;
  return null;
}

/** Today's local calendar day as the API takes it, for a field declared defaultValue 'today'. */
export function todayIso(now: Date = new Date()): string {
  return dayjs(now).format('YYYY-MM-DD');
}

// ---- required fields (spec section 5) ----

export type FormControlKind = 'input' | 'textarea' | 'select' | 'multiselect' | 'other';

/** One control of a form, in the order it appears on screen. */
export interface FormFieldState {
  name: string;
  control: FormControlKind;
  /** The input's type attribute (text, email, date, number ...) when control is 'input'. */
  inputType?: string;
  required: boolean;
  value: unknown;
  label?: string;
  placeholder?: string;
}

export interface RequiredProblem {
  fieldName: string;
  message: string;
}

/** Input types whose content is typed text: "Please enter"; other inputs (date, number, file ...) get "Please fill". */
const TEXT_INPUT_TYPES = new Set(['', 'text', 'email', 'tel', 'password', 'search', 'url']);

export function isEmptyValue(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (typeof value === 'number') return Number.isNaN(value);
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

function messageKind(field: FormFieldState): Field['kind'] {
  if (field.control === 'select' || field.control === 'multiselect') return 'select';
  if (field.control === 'textarea') return 'text';
  if (field.control === 'input' && TEXT_INPUT_TYPES.has((field.inputType ?? '').toLowerCase())) return 'text';
  // requiredMessage words every non-select, non-text kind as "fill"; date stands for all of them.
  return 'date';
}

/** The spec's message for one empty required control; label = placeholder, else label, else the fallback. */
export function requiredFieldMessage(field: Pick<FormFieldState, 'control' | 'inputType' | 'label' | 'placeholder'>): string {
  const state: FormFieldState = { name: '', required: true, value: null, ...field };
  return localRequiredMessage({ kind: messageKind(state), label: field.label ?? '', placeholder: field.placeholder });
}

/** The first empty required control, so the caller can toast the message and focus that field. */
export function firstMissingRequired(fields: readonly FormFieldState[]): RequiredProblem | null {
  const missing = fields.find((f) => f.required && isEmptyValue(f.value));
  return missing ? { fieldName: missing.name, message: requiredFieldMessage(missing) } : null;
}

/**
 * The rule read off a rendered form: required native inputs, textareas and selects, plus custom dropdowns
 * marked data-control="select" | "multiselect" (their value in data-value, comma separated for multi).
 */
export function formFieldsFromDom(root: ParentNode): FormFieldState[] {
  const elements = root.querySelectorAll<HTMLElement>('input, textarea, select, [data-control]');
  const fields: FormFieldState[] = [];
  for (const el of elements) {
    // A custom dropdown's wrapper stands for the inputs inside it.
    if (el.parentElement?.closest('[data-control]')) continue;
    if (el instanceof HTMLInputElement && el.type === 'hidden') continue;
    const custom = el.getAttribute('data-control');
    const required = el.hasAttribute('required') || el.getAttribute('aria-required') === 'true';
    const name = el.getAttribute('name') ?? el.id;
    const label = labelOf(el);
    const placeholder = el.getAttribute('placeholder') ?? undefined;
    if (custom === 'select' || custom === 'multiselect') {
      const raw = el.getAttribute('data-value') ?? '';
      const value = custom === 'multiselect' ? raw.split(',').filter((v) => v.trim() !== '') : raw;
      fields.push({ name, control: custom, required, value, label, placeholder });
    } else if (el instanceof HTMLSelectElement) {
      const value = el.multiple ? Array.from(el.selectedOptions, (o) => o.value).filter(Boolean) : el.value;
      fields.push({ name, control: el.multiple ? 'multiselect' : 'select', required, value, label, placeholder });
    } else if (el instanceof HTMLTextAreaElement) {
      fields.push({ name, control: 'textarea', required, value: el.value, label, placeholder });
    } else if (el instanceof HTMLInputElement) {
      let value: string = el.value;
      if (el.type === 'checkbox' || el.type === 'radio') value = el.checked ? el.value : '';
      else if (el.type === 'file') value = (el.files?.length ?? 0) > 0 ? 'file' : '';
      fields.push({ name, control: 'input', inputType: el.type, required, value, label, placeholder });
    }
  }
  return fields;
}

function labelOf(el: HTMLElement): string | undefined {
  const labelled = 'labels' in el ? (el as HTMLInputElement).labels : null;
  const text = labelled?.[0]?.textContent?.replace(/\*/g, '').trim();
  return text || el.getAttribute('aria-label') || el.getAttribute('data-label') || undefined;
}

// ---- uploads ----

export const IMAGE_EXTENSIONS: readonly string[] = ['jpg', 'png', 'jpeg', 'bmp', 'gif', 'svg', 'ico'];
export const IMAGE_UPLOAD_MESSAGE = 'Please upload only image file';

/** null when the file name is an accepted image (or a pdf where the variant allows it), else the message. */
export function imageUploadError(fileName: string, opts: { allowPdf?: boolean } = {}): string | null {
  const dot = fileName.lastIndexOf('.');
  const ext = dot === -1 ? '' : fileName.slice(dot + 1).toLowerCase();
  const allowed = opts.allowPdf ? [...IMAGE_EXTENSIONS, 'pdf'] : IMAGE_EXTENSIONS;
  return allowed.includes(ext) ? null : globalT('validation.image_only', { defaultValue: IMAGE_UPLOAD_MESSAGE });
}

/** The accept attribute for the same rule, so the file picker offers the right files first. */
export function imageAccept(opts: { allowPdf?: boolean } = {}): string {
  const exts = opts.allowPdf ? [...IMAGE_EXTENSIONS, 'pdf'] : IMAGE_EXTENSIONS;
  return exts.map((e) => `.${e}`).join(',');
}

// ---- numeric keystrokes ----

/**
 * True when typing `key` over the selection [start, end) of `current` would leave a negative value.
 * Keys longer than one character (Backspace, ArrowLeft ...) are never refused. A null selection (number
 * inputs expose none) means the caret is at the end.
 */
export function keystrokeMakesNegative(current: string, key: string, start: number | null = null, end: number | null = null): boolean {
  if (key.length !== 1) return false;
  const from = start ?? current.length;
  const to = end ?? from;
  const next = current.slice(0, from) + key + current.slice(to);
  if (/^\s*-/.test(next)) return true;
  const n = Number(next);
  return !Number.isNaN(n) && n < 0;
}

/** onKeyDown handler for numeric inputs that must stay non-negative. */
export function preventNegativeKeystroke(event: {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  currentTarget: HTMLInputElement;
  preventDefault: () => void;
}): void {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const input = event.currentTarget;
  let start: number | null = null;
  let end: number | null = null;
  try {
    start = input.selectionStart;
    end = input.selectionEnd;
  } catch {
    // type=number throws on selection access in some engines; the caret is then taken as at the end.
  }
  if (keystrokeMakesNegative(input.value, event.key, start, end)) event.preventDefault();
}

// ---- grid selection ----

export function noSelectionMessage(tableName: string): string {
  return `Please select the ${tableName} records`;
}

export function exactlyOneMessage(tableName: string): string {
  return `Please select exactly one ${tableName} record`;
}

/** null when the selection suits the button, else the toast: 'some' needs at least one row, 'one' exactly one. */
export function selectionProblem(tableName: string, selectedCount: number, need: 'some' | 'one'): string | null {
  if (need === 'one') return selectedCount === 1 ? null : exactlyOneMessage(tableName);
  return selectedCount > 0 ? null : noSelectionMessage(tableName);
}

// ---- discount (spec section 5) ----

type DecimalInput = string | number | null | undefined;

function usable(v: DecimalInput): ReturnType<typeof parseDecimal> {
  const d = parseDecimal(v);
  return d && !isZero(d) ? d : null;
}

/** Discount amount = percent of base (base x percent / 100), 2 decimals; '0.00' when either is zero or empty. */
export function discountAmount(percent: DecimalInput, base: DecimalInput): string {
  const p = usable(percent);
  const b = usable(base);
  if (!p || !b) return '0.00';
  return mulDiv(p, b, decimalOf(100));
}

/** Discount percent = amount / base x 100, 2 decimals; '0.00' when either is zero or empty. */
export function discountPercent(amount: DecimalInput, base: DecimalInput): string {
  const a = usable(amount);
  const b = usable(base);
  if (!a || !b) return '0.00';
  return mulDiv(a, decimalOf(100), b);
}
