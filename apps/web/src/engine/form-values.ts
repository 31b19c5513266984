import { writableFields, type AnyEntity, type Field } from '@campus/entities/define';
import { isEmptyValue, localFieldMessage, localRequiredMessage, parseTypedDate, todayIso, type RequiredProblem } from '../lib/validation';
import type { FormModeKind } from './entity-mode';

/** What a form input holds: strings for text-like kinds, number | '' for NumberInput, boolean for Switch. */
export type FormValue = string | number | boolean | null;
export type FormValues = Record<string, FormValue>;

export interface FormField {
  name: string;
  field: Field;
  /** False for fields shown read-only: view mode, or an immutable field on update. */
  editable: boolean;
}

const isWritable = (f: Field): boolean => f.kind !== 'code' && !f.readOnly && !f.auto;

/**
 * The inputs a form shows in a mode. Server-owned fields (key, readOnly, auto) appear only in view;
 * passwords never appear in view because the server never returns them.
 */
export function formFields(entity: AnyEntity, mode: FormModeKind): FormField[] {
  const out: FormField[] = [];
  for (const [name, f] of Object.entries(entity.fields)) {
    if (f.formHidden) continue;
    if (mode === 'view') {
      if (f.kind !== 'password') out.push({ name, field: f, editable: false });
      continue;
    }
    if (!isWritable(f)) continue;
    out.push({ name, field: f, editable: !(mode === 'update' && f.immutable) });
  }
  return out;
}

function emptyValue(f: Field): FormValue {
  switch (f.kind) {
    case 'bool':
      return f.defaultValue;
    case 'select':
      return f.defaultValue ?? null;
    case 'link':
      return null;
    case 'date':
      return f.defaultValue === 'today' ? todayIso() : '';
    default:
      return '';
  }
}

/** Dates may arrive as full ISO timestamps from some drivers; the form works on the calendar day only. */
const toDay = (v: string): string => (/^\d{4}-\d{2}-\d{2}/.test(v) ? v.slice(0, 10) : v);

/** Converts a server row (or nothing, for create) to the values the inputs edit. */
export function rowToFormValues(fields: readonly FormField[], row: Record<string, unknown> | null): FormValues {
  const values: FormValues = {};
  for (const { name, field: f } of fields) {
    const v = row?.[name];
    if (row === null || v === undefined || v === null || f.kind === 'password') {
      values[name] = row === null ? emptyValue(f) : f.kind === 'bool' ? false : f.kind === 'select' || f.kind === 'link' ? null : '';
      continue;
    }
    switch (f.kind) {
      case 'bool':
        values[name] = v === true || v === 1 || v === '1' || v === 'true';
        break;
      case 'number':
      case 'code':
        values[name] = typeof v === 'number' ? v : Number.isFinite(Number(v)) && String(v).trim() !== '' ? Number(v) : '';
        break;
      case 'link':
        values[name] = String(v);
        break;
      case 'json':
        values[name] = typeof v === 'string' ? v : JSON.stringify(v, null, 2);
        break;
      case 'date':
        values[name] = toDay(String(v));
        break;
      default:
        values[name] = String(v);
    }
  }
  return values;
}

export interface BodyResult {
  body: Record<string, unknown>;
  /** Client-side conversion errors (e.g. malformed JSON), shown under the field like a server 400. */
  errors: Record<string, string>;
}

const blank = (v: FormValue): boolean => v === null || (typeof v === 'string' && v.trim() === '');

/**
 * Converts form values to the request body shape of the API contract: numbers and link keys as numbers,
 * money as a decimal string (never a float), empty inputs as null, JSON parsed. An empty password is left
 * out entirely, which on update means "unchanged".
 */
export function formValuesToBody(fields: readonly FormField[], values: FormValues): BodyResult {
  const body: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const { name, field: f } of fields) {
    const v = values[name] ?? null;
    if (f.kind === 'password') {
      if (!blank(v)) body[name] = String(v);
      continue;
    }
    if (f.kind === 'bool') {
      body[name] = v === true;
      continue;
    }
    if (blank(v)) {
      body[name] = null;
      continue;
    }
    switch (f.kind) {
      case 'number':
      case 'link':
      case 'code': {
        const n = typeof v === 'number' ? v : Number(String(v).trim());
        if (Number.isFinite(n)) body[name] = n;
        else errors[name] = localFieldMessage('not_a_number', f.label);
        break;
      }
      case 'date': {
        // The date input hands over YYYY-MM-DD; anything else is text it could not read as a date.
        const day = /^\d{4}-\d{2}-\d{2}$/.test(String(v)) ? String(v) : parseTypedDate(String(v));
        if (day) body[name] = day;
        else errors[name] = localFieldMessage('not_a_date', f.label);
        break;
      }
      case 'money':
        body[name] = String(v).trim();
        break;
      case 'json':
        try {
          body[name] = JSON.parse(String(v)) as unknown;
        } catch {
          errors[name] = localFieldMessage('not_json', f.label);
        }
        break;
      default:
        body[name] = typeof v === 'string' ? v : String(v);
    }
  }
  return { body, errors };
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * The PUT body of an update: only the fields whose converted value differs from what was loaded, so a
 * concurrent edit of another field is not overwritten, plus row_ver for the stale-write check (409).
 */
export function changedFields(initial: Record<string, unknown>, current: Record<string, unknown>): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(current)) {
    if (!(name in initial) || !same(initial[name], value)) patch[name] = value;
  }
  return patch;
}

/** Create (and clone) bodies leave out empty optional fields rather than sending nulls. */
export function createBody(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== null && v !== undefined));
}

/** Form inputs that span both columns on desktop. */
export function isWide(f: Field): boolean {
  return (f.kind === 'text' && f.multiline === true) || f.kind === 'json';
}

/**
 * The form's values after one field changes: a dependent link (`within`) whose partner changed is
 * emptied, since its choice belonged to the old partner (a section of the previous class).
 */
export function withChange(fields: readonly FormField[], prev: FormValues, name: string, value: FormValue): FormValues {
  const next: FormValues = { ...prev, [name]: value };
  if ((prev[name] ?? null) === value) return next;
  for (const ff of fields) {
    const f = ff.field;
    if (f.kind !== 'link' || !f.within || !ff.editable) continue;
    if (Object.values(f.within).includes(name)) next[ff.name] = null;
  }
  return next;
}

/**
 * What a dependent link's choices are narrowed by: { target field: chosen value } for each `within` pair,
 * and the first of this form's partner fields still empty (the dropdown waits for it), if any.
 */
export function linkPartners(fields: readonly FormField[], values: FormValues, f: Field): { partners: Record<string, string>; waitingFor: string | null } {
  const partners: Record<string, string> = {};
  let waitingFor: string | null = null;
  if (f.kind !== 'link' || !f.within) return { partners, waitingFor };
  for (const [theirs, own] of Object.entries(f.within)) {
    // A partner the form does not show (not in this mode) cannot be waited for: the server checks the pair.
    if (!fields.some((ff) => ff.name === own)) continue;
    const v = values[own];
    if (v === null || v === undefined || (typeof v === 'string' && v.trim() === '')) waitingFor ??= own;
    else partners[theirs] = String(v);
  }
  return { partners, waitingFor };
}

/** The same rule over an entity's declared form fields (declaration order is form order). */
export function firstMissingForEntity(entity: AnyEntity, values: Record<string, unknown>): RequiredProblem | null {
  for (const [name, field] of writableFields(entity)) {
    if (!field.required || field.formHidden) continue;
    if (field.kind === 'bool') continue;
    if (isEmptyValue(values[name])) return { fieldName: name, message: localRequiredMessage(field) };
  }
  return null;
}
