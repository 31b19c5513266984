import { z } from 'zod';
import { standardButtons } from './pages';

/**
 * One declaration per entity drives the table, the API, authorization, validation, menu, grid and form.
 * Declarations are plain typed data: no I/O, no framework imports, safe for both server and browser.
 */

export type FieldKind =
  | 'code'
  | 'text'
  | 'number'
  | 'money'
  | 'date'
  | 'time'
  | 'datetime'
  | 'bool'
  | 'select'
  | 'link'
  | 'image'
  | 'file'
  | 'json'
  | 'password';

interface FieldCommon {
  label: string;
  required?: boolean;
  /** Part of the grid's quick search (server side, trigram indexed for text). */
  search?: boolean;
  /** Unique within the entity's scope (case-insensitive for text); 'global' across all institutes. */
  unique?: boolean | 'global';
  /** Set by the server only (workflows, hooks); never accepted from a request. */
  readOnly?: boolean;
  /** Hidden from the grid's default column set (still in the form). */
  gridHidden?: boolean;
  /**
   * A machine internal (an idempotency key): the server reads and writes it, but no grid column, Columns-menu
   * entry or export column ever shows it, since nobody in the office has a use for it.
   */
  internal?: boolean;
  /** Not shown in the form (still in the grid). */
  formHidden?: boolean;
  placeholder?: string;
  /** Fixed after create: a PUT may not change it. */
  immutable?: boolean;
  /**
   * Filled by the server, never by a request (implies readOnly): created-at / created-by (login id) on
   * create; updated-at / updated-by-name (full name) on create and on every update that changes something.
   * A date field gets the local date, a time field the local time, others a timestamp.
   */
  auto?: 'created-at' | 'created-by' | 'updated-at' | 'updated-by-name';
}

export interface CodeField extends FieldCommon { kind: 'code' }
export interface TextField extends FieldCommon {
  kind: 'text';
  max: number;
  multiline?: boolean;
  format?: 'email' | 'phone' | 'upper-code';
  /**
   * An identifier people type whole or by its start (an admission number, a barcode, a transaction id): with
   * `search`, the quick search matches it by equality or prefix on a btree index of its own, not inside the
   * trigram name search, so one number is one index lookup among 200,000 students.
   */
  exactCode?: boolean;
}
export interface NumberField extends FieldCommon {
  kind: 'number';
  min: number;
  max: number;
  int: boolean;
  /**
   * Name of another number field of the same entity this one may not exceed (a pass mark and its maximum
   * mark). Checked with the date ranges: on create, on update against the stored row merged with the change.
   */
  notAbove?: string;
}
export interface MoneyField extends FieldCommon { kind: 'money'; max: number }
export interface DateField extends FieldCommon {
  kind: 'date';
  /**
   * Name of another date field of the same entity this one may not fall before (a holiday's to-date, a fee
   * term's due date). Checked on create and on update against the stored row merged with the change.
   */
  notBefore?: string;
  /** 'today': a create form starts with the local date (an admission date), which the user may change. */
  defaultValue?: 'today';
}
export interface TimeField extends FieldCommon { kind: 'time' }
export interface DateTimeField extends FieldCommon { kind: 'datetime' }
export interface BoolField extends FieldCommon { kind: 'bool'; defaultValue: boolean }
export interface SelectField extends FieldCommon {
  kind: 'select';
  options: readonly string[];
  /**
   * Several options may be chosen. Stored as one comma-separated text in declared option order
   * ('Student,Institute'), like the spec's usr_prms_btns, so the column stays text and a value compares
   * equal however the user picked it. Options of a multiple select therefore never contain a comma.
   */
  multiple?: boolean;
  /** For a multiple select, the canonical comma string of the preselected options. */
  defaultValue?: string;
  /**
   * English display labels of options whose stored value is not fit to show ('school' -> 'School'). Only
   * what people read changes: requests, the database and imports keep the option itself. An option left out
   * shows as stored; the language files' option.<entity>.<field>.<value> keys translate either.
   */
  optionLabels?: Readonly<Partial<Record<string, string>>>;
}
export interface LinkField extends FieldCommon {
  kind: 'link';
  /** Registry name of the target entity. */
  to: string;
  /** Target field shown in place of the code (grid column and dropdown label). */
  display: string;
  /** Name of the joined display column in list rows, e.g. rl_nm for a link to role. */
  as: string;
  /**
   * The target may live in any institute the signed-in user is mapped to (employee mapping picks staff of
   * sister institutes); otherwise it must be in the request's own scope.
   */
  anyOfMyInstitutes?: boolean;
  /**
   * The chosen target must agree with this row: { target field: this entity's field }. A section link with
   * `within: { cls_cd: 'cls_cd' }` accepts only a section of the class chosen on the same row.
   */
  within?: Readonly<Record<string, string>>;
}
export interface ImageField extends FieldCommon { kind: 'image'; allowPdf?: boolean }
export interface FileField extends FieldCommon { kind: 'file' }
export interface JsonField extends FieldCommon { kind: 'json' }
export interface PasswordField extends FieldCommon { kind: 'password'; min: number }

export type Field =
  | CodeField
  | TextField
  | NumberField
  | MoneyField
  | DateField
  | TimeField
  | DateTimeField
  | BoolField
  | SelectField
  | LinkField
  | ImageField
  | FileField
  | JsonField
  | PasswordField;

type Opts<F extends Field> = Omit<F, 'kind' | 'label'> & { label?: string };
type Partialize<F extends Field, K extends keyof F> = Omit<Opts<F>, K> & Partial<Pick<F, K>>;

export const code = (o: Opts<CodeField> = {}): CodeField => ({ kind: 'code', label: 'Code', readOnly: true, ...o });
export const text = (o: Partialize<TextField, 'max'> & { label: string }): TextField => ({ kind: 'text', max: 200, ...o });
export const number = (o: Partialize<NumberField, 'min' | 'max' | 'int'> & { label: string }): NumberField => ({
  kind: 'number',
  min: 0,
  max: 2_147_483_647,
  int: true,
  ...o,
});
export const money = (o: Partialize<MoneyField, 'max'> & { label: string }): MoneyField => ({ kind: 'money', max: 9_999_999_999.99, ...o });
export const date = (o: Opts<DateField> & { label: string }): DateField => ({ kind: 'date', ...o });
export const time = (o: Opts<TimeField> & { label: string }): TimeField => ({ kind: 'time', ...o });
export const datetime = (o: Opts<DateTimeField> & { label: string }): DateTimeField => ({ kind: 'datetime', ...o });
export const bool = (o: Partialize<BoolField, 'defaultValue'> & { label: string }): BoolField => ({ kind: 'bool', defaultValue: false, ...o });
/**
 * Generic over the options so that optionLabels may name declared options only (a typo is a compile error).
 * An options list typed as plain string[] loses that check, hence the same rule at run time.
 */
export const select = <const O extends readonly string[]>(
  o: Omit<Opts<SelectField>, 'options' | 'optionLabels'> & { label: string; options: O; optionLabels?: Readonly<Partial<Record<O[number], string>>> },
): SelectField => {
  const stray = Object.keys(o.optionLabels ?? {}).filter((k) => !o.options.includes(k));
  if (stray.length > 0) throw new Error(`${o.label}: optionLabels name undeclared options ${stray.join(', ')}`);
  return { kind: 'select', ...o };
};
export const link = (o: Opts<LinkField> & { label: string }): LinkField => ({ kind: 'link', ...o });
export const image = (o: Opts<ImageField> & { label: string }): ImageField => ({ kind: 'image', ...o });
export const file = (o: Opts<FileField> & { label: string }): FileField => ({ kind: 'file', ...o });
export const json = (o: Opts<JsonField> & { label: string }): JsonField => ({ kind: 'json', ...o });
export const password = (o: Partialize<PasswordField, 'min'> & { label: string }): PasswordField => ({
  kind: 'password',
  min: 8,
  formHidden: false,
  gridHidden: true,
  ...o,
});

/**
 * Where a row lives:
 * - global: one set for the whole installation;
 * - institute: rows carry inst_cd, a request sees the rows of the institute it names (and is mapped to);
 * - academic-year: rows carry inst_cd and acdm_cd;
 * - institute-root: the row IS an institute; a user sees the institutes they are mapped to.
 */
export type Scope = 'global' | 'institute' | 'academic-year' | 'institute-root';

/**
 * A grid button that changes one field of the one selected row. Its permission button alone allows a PUT
 * that changes nothing but its field, and nobody without it may change that field (on create: away from
 * the default). Toggles flip a bool; actions ('take action') pick a new option of a select (a status).
 */
export interface FieldButton {
  button: string;
  label: string;
  field: string;
}
/**
 * Ownership through another entity: under data_chk a row is the user's when a row of `through`, in the same
 * institute (and academic year, when both carry one), equals it on every `match` pair (this entity's field ->
 * through's field) and names the user in `user`. Only declared names reach the SQL. `through` and its field
 * names are checked when the registry loads (they belong to another declaration).
 */
export interface OwnershipThrough<K extends string = string> {
  through: string;
  match: Readonly<Partial<Record<K, string>>>;
  user: string;
}

/**
 * Ownership along a link: under data_chk a row is the user's when the row its link field `via` points at is
 * the user's by that entity's own ownership (a wallet or a leave request through its student, the student
 * through the teacher's sections). The target's rule is not repeated here, so it is changed in one place.
 */
export interface OwnershipVia<K extends string = string> {
  via: K;
}

/**
 * Ownership of the record a row is about: under data_chk a row is the user's when the record named by its
 * `key` field, of the entity its `entity` field names, is the user's by that entity's own ownership (an action
 * history entry through the student it recorded; a book issue through its holder, a student or the user
 * himself). `entities` maps the stored names to registry entities; without it the stored value is the
 * registry name and any entity with an ownership of its own counts. A row about anything else is nobody's.
 */
export interface OwnershipOfRecord<K extends string = string> {
  entity: K;
  key: K;
  entities?: Readonly<Record<string, string>>;
}

export type Ownership<K extends string = string> = 'creator' | 'self' | OwnershipThrough<K> | OwnershipVia<K> | OwnershipOfRecord<K>;

export type ToggleButton = FieldButton;
export type ActionButton = FieldButton;

/**
 * A grid button that runs a hand-written workflow route on the one selected row (cancel a bill): the grid
 * confirms, asks a required reason when declared, and POSTs `{ [key]: id, reason }` to `path` under the
 * entity's API. The route is the workflow's own and checks the same permission button; `confirm` may name
 * the row as {{title}}. `enabledWhen` greys the button out for rows it cannot apply to (the server refuses
 * them anyway).
 */
export interface WorkflowButton<K extends string = string> {
  button: string;
  label: string;
  path: string;
  reason?: { label: string };
  confirm: string;
  /** The toast after the route succeeded ({{title}} as in confirm); a generic sentence when left out. */
  done?: string;
  /** The button applies only to rows whose field holds this value (or one of these values). */
  enabledWhen?: { field: K; equals: string | readonly string[] };
  /**
   * Where the row's key goes: 'body' (default) POSTs `{ [key]: id, ... }` to `{api}{path}`; 'path' POSTs the
   * inputs alone to `{api}{id}/{path}` (a wallet's top-up at /api/wallet/12/topup).
   */
  target?: 'body' | 'path';
  /**
   * What the dialog asks besides the reason, declared with the entity field builders and checked by the
   * route with the same rules (required, max, options, links within a partner). An input named like a field
   * of the row starts with the row's value (the class an application is for), which also feeds a `within`
   * link (the sections of that class). Sent under their own names.
   */
  inputs?: Readonly<Record<string, Field>>;
  /** A fresh key per opening of the dialog, sent as `idempotency_key`: a double click or a retry is one write. */
  idempotent?: boolean;
  /**
   * After success, open the record the route answered with: the named entity's page in view mode, the id
   * read from the answer's field of that entity's key (an admitted application opens the new student).
   */
  opens?: string;
}

/**
 * A printable document of the one selected row (a certificate): the grid's button fetches the PDF the server
 * renders at GET `{api}{id}/{path}` and prints it, without the app around it. The route is the document's
 * own and checks the same permission button, the row's scope and data_chk, as a get of the row does.
 */
export interface DocumentButton {
  button: string;
  label: string;
  path: string;
}

/**
 * Rows of another entity that belong to the selected row (a wallet's movements: its statement). The grid's
 * button opens that entity's list filtered by `field` = the selected row's key; the list's own page, scope
 * and data_chk decide what is shown. `entity` and `field` (a link to this entity) are checked at registry load.
 */
export interface RelatedList {
  label: string;
  entity: string;
  field: string;
}

export interface EntityDef<F extends Record<string, Field> = Record<string, Field>> {
  /** Registry name; the API lives at /api/{name}/ unless api says otherwise. */
  name: string;
  api?: string;
  table: string;
  key: keyof F & string;
  scope: Scope;
  label: string;
  /** Field used as the row's name in dropdowns, messages and links. */
  title: keyof F & string;
  fields: F;
  defaultSort?: { field: keyof F & string; dir: 'asc' | 'desc' };
  /**
   * List filters the spec names without the `f_` prefix (`GET /api/notification/?ntf_id&ntf_crt_cd`): each
   * query name filters a declared field, or 'creator' (the row's crt_by, the user code that created it).
   */
  specFilters?: Record<string, (keyof F & string) | 'creator'>;
  /** Composite uniqueness within scope, with the message shown when broken. */
  uniqueTogether?: { fields: (keyof F & string)[]; message: string }[];
  singleSelect?: boolean;
  toggles?: ToggleButton[];
  /** 'Take action' buttons of status fields (spec section 4): each names a single select field. */
  actions?: ActionButton[];
  /** Buttons that call a workflow route with the selected row (spec's extra page buttons: cancel_bill). */
  workflowButtons?: readonly WorkflowButton<keyof F & string>[];
  /** Lists of other entities' rows that belong to the selected row (a wallet's statement). */
  related?: readonly RelatedList[];
  /** Documents printed from the selected row (a certificate's PDF), each under its own permission button. */
  documents?: readonly DocumentButton[];
  /**
   * Money or number fields the grid edits in place (spec section 3: fee mapping's amount). Each commit is
   * a PUT of that one field with row_ver, so the page's 'edit' button governs it exactly like the form.
   */
  inlineEdit?: readonly (keyof F & string)[];
  /**
   * How 'access his students only' (data_chk) narrows this entity: 'creator' keeps rows the user created;
   * 'self' keeps the user's own row (employee); an OwnershipThrough keeps rows another entity assigns to the
   * user (a teacher's sections); an OwnershipVia keeps rows whose linked row is the user's (a wallet through
   * its student); an OwnershipOfRecord keeps rows about records that are the user's (history, library
   * movements). Omitted means the page refuses data_chk (pages.ts dataChkRefusal): no page takes the flag
   * and ignores it.
   */
  ownership?: Ownership<keyof F & string>;
  /**
   * With ownership 'self': fields a user may read and change on their OWN row (My Profile: name, phone,
   * password...) whatever their permission on the entity's page says.
   */
  selfService?: readonly (keyof F & string)[];
  /**
   * Generic routes this entity gets (default all; a view's default is list and get). Rows written only by
   * workflows or by the server (history) leave out create/update/delete; a workflow may register its own
   * handler instead.
   */
  routes?: readonly CrudRoute[];
  /**
   * 'view': the rows are computed by the database from other entities' rows (a student's fee position, a
   * budget summary), so a report is searched, sorted, paged, scoped and exported like any list, and can
   * never disagree with the rows it sums. The server supplies the view's SELECT (apps/server/src/db/views);
   * it must yield every declared field, the scope columns and row_ver. Read-only: list and get only, and no
   * other entity may link to it.
   */
  storage?: 'table' | 'view';
}

/**
 * Checks a declaration against its own field names at compile time, then erases them: the engine is
 * generic, and a typed EntityDef<F> is not assignable to the registry's list (keyof makes F invariant).
 */
export function defineEntity<const F extends Record<string, Field>>(def: EntityDef<F>): AnyEntity {
  const key = def.fields[def.key];
  if (!key || key.kind !== 'code') throw new Error(`${def.name}: key ${def.key} must be a code field`);
  if (!def.fields[def.title]) throw new Error(`${def.name}: title ${def.title} is not a field`);
  for (const [param, target] of Object.entries(def.specFilters ?? {})) {
    const f = target === 'creator' ? undefined : def.fields[target];
    if (target !== 'creator' && (!f || f.kind === 'password' || f.kind === 'json')) throw new Error(`${def.name}: specFilters ${param} names no field it can filter`);
  }
  for (const [name, f] of Object.entries(def.fields)) {
    // A comma inside an option would split into two values when the stored text is read back.
    if (f.kind === 'select' && f.multiple && f.options.some((o) => o.includes(','))) {
      throw new Error(`${def.name}.${name}: options of a multiple select may not contain a comma`);
    }
    if (f.kind === 'date' && f.notBefore !== undefined) {
      const other: Field | undefined = (def.fields as Record<string, Field>)[f.notBefore];
      if (other?.kind !== 'date' || f.notBefore === name) throw new Error(`${def.name}.${name}: notBefore ${f.notBefore} is not another date field`);
    }
    if (f.kind === 'text' && f.exactCode && (!f.search || f.format === 'phone' || f.multiline)) {
      // A phone is found by any part of it ('27650'), and an exact code is only worth an index when searched.
      throw new Error(`${def.name}.${name}: exactCode needs search and fits neither a phone nor a multi-line text`);
    }
    if (f.kind === 'number' && f.notAbove !== undefined) {
      const other: Field | undefined = (def.fields as Record<string, Field>)[f.notAbove];
      if (other?.kind !== 'number' || f.notAbove === name) throw new Error(`${def.name}.${name}: notAbove ${f.notAbove} is not another number field`);
    }
  }
  if (def.storage === 'view') {
    const writes = (def.routes ?? viewRoutes).filter((r) => !viewRoutes.includes(r));
    if (writes.length) throw new Error(`${def.name}: a view is read-only, not ${writes.join(', ')}`);
    if (def.toggles?.length || def.actions?.length || def.inlineEdit?.length || def.uniqueTogether?.length) {
      throw new Error(`${def.name}: a view has no toggles, actions, inline edits or unique rules`);
    }
    if (Object.values(def.fields).some((f) => f.unique)) throw new Error(`${def.name}: a view has no unique fields`);
  }
  for (const name of def.inlineEdit ?? []) {
    const f: Field | undefined = (def.fields as Record<string, Field>)[name];
    // The in-place editor takes digits and a decimal point only; other kinds need the form's own inputs.
    if (f?.kind !== 'money' && f?.kind !== 'number') throw new Error(`${def.name}: inlineEdit ${name} must be a money or number field`);
    if (f.readOnly || f.auto || f.immutable) throw new Error(`${def.name}: inlineEdit ${name} is not editable after create`);
    // Saved as a PUT: without the generic update route there is nothing to save it with.
    if (!routesOf(def as unknown as AnyEntity).includes('update')) throw new Error(`${def.name}: inlineEdit needs the update route`);
  }
  const e = def as unknown as AnyEntity;
  const seen = new Set<string>();
  for (const b of fieldButtons(e)) {
    const f: Field | undefined = e.fields[b.field];
    // The grid's toggle flips a bool and the action dialog lists a select's options: any other kind has no UI.
    const fits = b.kind === 'toggle' ? f?.kind === 'bool' : f?.kind === 'select' && !f.multiple;
    if (!fits) throw new Error(`${def.name}: ${b.kind} ${b.button} needs a ${b.kind === 'toggle' ? 'bool' : 'single select'} field, not ${b.field}`);
    // One field, one governing button: with two, holding either would have to be enough or both required.
    if (seen.has(b.field)) throw new Error(`${def.name}: field ${b.field} has more than one button`);
    seen.add(b.field);
  }
  const buttons = new Set(fieldButtons(e).map((b) => b.button));
  for (const b of def.workflowButtons ?? []) {
    // The permission row grants buttons by name: two uses of one name would be granted together.
    if ((standardButtons as readonly string[]).includes(b.button) || buttons.has(b.button)) {
      throw new Error(`${def.name}: workflow button ${b.button} repeats another button`);
    }
    buttons.add(b.button);
    if (!/^[a-z0-9][a-z0-9_/-]*$/.test(b.path)) throw new Error(`${def.name}: workflow button ${b.button} needs a relative path, not ${b.path}`);
    if (b.enabledWhen && !Object.hasOwn(def.fields, b.enabledWhen.field)) {
      throw new Error(`${def.name}: workflow button ${b.button} depends on ${b.enabledWhen.field}, which is not a field`);
    }
    workflowButtonIssue(e, b);
  }
  for (const d of def.documents ?? []) {
    if ((standardButtons as readonly string[]).includes(d.button) || buttons.has(d.button)) throw new Error(`${def.name}: document button ${d.button} repeats another button`);
    buttons.add(d.button);
    // Under the row's own URL ({api}{id}/pdf): the route finds the row, so its scope and data_chk apply.
    if (!/^[a-z0-9][a-z0-9_/-]*$/.test(d.path)) throw new Error(`${def.name}: document ${d.button} needs a relative path, not ${d.path}`);
    if (!hasRoute(e, 'get')) throw new Error(`${def.name}: document ${d.button} prints a row, which needs the get route`);
  }
  return e;
}

// Kinds a dialog cannot take: a code is the server's, uploads need a saved row, a password is no workflow's input.
const dialogKinds: readonly Field['kind'][] = ['code', 'image', 'file', 'password'];
const INPUT_NAME_RE = /^[a-z][a-z0-9_]*$/;

/**
 * What a workflow button may declare besides its name and path (defineEntity's own checks are about names):
 * a condition that some row can meet, a known target, and inputs the dialog can show and the route can check
 * with workflowInputSchema. Another entity named by `opens` is checked when the registry loads.
 */
function workflowButtonIssue(e: AnyEntity, b: WorkflowButton): void {
  const where = `${e.name}: workflow button ${b.button}`;
  if (b.enabledWhen) {
    const allowed = typeof b.enabledWhen.equals === 'string' ? [b.enabledWhen.equals] : b.enabledWhen.equals;
    if (allowed.length === 0) throw new Error(`${where} is enabled for no value`);
    // A status the select cannot hold would grey the button out for every row.
    const f = e.fields[b.enabledWhen.field];
    const stray = f.kind === 'select' ? allowed.filter((v) => !f.options.includes(v)) : [];
    if (stray.length > 0) throw new Error(`${where} is enabled for ${stray.join(', ')}, which ${b.enabledWhen.field} cannot hold`);
  }
  if (b.target !== undefined && b.target !== 'body' && b.target !== 'path') throw new Error(`${where} has an unknown target ${String(b.target)}`);
  if (b.opens !== undefined && !INPUT_NAME_RE.test(b.opens)) throw new Error(`${where} opens ${b.opens}, which is no entity name`);
  const inputs = Object.entries(b.inputs ?? {});
  for (const [name, f] of inputs) {
    const input = `${where}: input ${name}`;
    if (!INPUT_NAME_RE.test(name)) throw new Error(`${input} is not a plain field name`);
    // These names carry the button's own parts of the body.
    if (name === 'idempotency_key' || (name === 'reason' && b.reason) || ((b.target ?? 'body') === 'body' && name === e.key)) {
      throw new Error(`${input} repeats a name the button sends itself`);
    }
    if (dialogKinds.includes(f.kind)) throw new Error(`${input} is a ${f.kind}, which a dialog cannot ask for`);
    if (f.readOnly || f.auto) throw new Error(`${input} is read-only, so nobody could fill it`);
    // Uniqueness and ranges are checked against stored rows, which a dialog's inputs are not.
    if (f.unique) throw new Error(`${input} cannot be unique`);
    if ((f.kind === 'date' && f.notBefore) || (f.kind === 'number' && f.notAbove)) throw new Error(`${input} cannot name a range partner`);
    if (f.kind === 'link') {
      for (const partner of Object.values(f.within ?? {})) {
        // The dialog narrows the choices by the partner's value, which it only has when it asks for it too.
        if (partner === name || !inputs.some(([other]) => other === partner)) throw new Error(`${input} is within ${partner}, which is not another input`);
      }
    }
  }
}

const isBlank = (v: unknown): boolean => v === undefined || v === null || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);

/** One input of a dialog: empty is null (or the required message), anything else the field's own rules. */
function inputSchema(f: Field): z.ZodType {
  const inner = fieldSchema(f);
  // optional(): a key left out is empty like a blank one (zod would otherwise refuse it before the transform).
  return z.unknown().optional().transform((v, ctx) => {
    if (isBlank(v)) {
      if (!f.required || f.kind === 'bool') return f.kind === 'bool' ? false : null;
      ctx.addIssue({ code: 'custom', message: requiredMessage(f) });
      return z.NEVER;
    }
    const r = inner.safeParse(v);
    if (r.success) return r.data;
    for (const i of r.error.issues) ctx.addIssue({ code: 'custom', message: i.message, path: i.path });
    return z.NEVER;
  });
}

export const WORKFLOW_REASON_MAX = 500;

/**
 * The body a workflow button's dialog sends, checked the same way in the browser (before sending) and by the
 * route (authoritative): each declared input by its field's rules (required in the spec's wording, max,
 * options, money with at most 2 decimals), the reason when the button asks one, and the idempotency key
 * when the button is idempotent. Unknown keys are refused. A route whose key travels in the body extends
 * the object with it; a link's partner (`within`) and anything stored are the route's to check.
 */
export function workflowInputSchema(b: WorkflowButton) {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, f] of Object.entries(b.inputs ?? {})) shape[name] = inputSchema(f);
  if (b.reason) {
    const label = b.reason.label;
    shape.reason = z
      .string({ error: requiredMessage({ kind: 'text', label }) })
      .trim()
      .min(1, requiredMessage({ kind: 'text', label }))
      .max(WORKFLOW_REASON_MAX, `'${label}' must be at most ${WORKFLOW_REASON_MAX} characters.`);
  }
  if (b.idempotent) {
    // A UUID the browser makes once per opening of the dialog.
    shape.idempotency_key = z
      .string({ error: 'The request key is missing. Reload the page and try again.' })
      .trim()
      .min(8, 'The request key is missing. Reload the page and try again.')
      .max(64, 'The request key is too long.');
  }
  return z.strictObject(shape);
}

/** Toggles and actions together: the engine treats both alike, only the grid's widget differs. */
export function fieldButtons(e: AnyEntity): (FieldButton & { kind: 'toggle' | 'action' })[] {
  return [...(e.toggles ?? []).map((b) => ({ ...b, kind: 'toggle' as const })), ...(e.actions ?? []).map((b) => ({ ...b, kind: 'action' as const }))];
}

/** The value a field holds when a create leaves it out: what changing it 'away from' is measured against. */
export function createdValue(f: Field): unknown {
  if (f.kind === 'bool') return f.defaultValue;
  if (f.kind === 'select') return f.defaultValue ?? null;
  return null;
}

/**
 * Broken ranges of a (merged) row: each notBefore date that falls before its partner, each notAbove number
 * that exceeds its partner. Dates are YYYY-MM-DD, so text order is date order; numbers may arrive as numeric
 * strings from the database. A range with either end empty is not checked (required is). `only` limits the
 * check to ranges touching those fields (an update leaves untouched ranges alone).
 */
export function rangeIssues(e: AnyEntity, row: Record<string, unknown>, only?: ReadonlySet<string>): { field: string; message: string }[] {
  const out: { field: string; message: string }[] = [];
  const blank = (v: unknown): boolean => v === null || v === undefined || v === '';
  for (const [name, f] of Object.entries(e.fields)) {
    const partner = f.kind === 'date' ? f.notBefore : f.kind === 'number' ? f.notAbove : undefined;
    if (!partner) continue;
    if (only && !only.has(name) && !only.has(partner)) continue;
    const mine = row[name];
    const theirs = row[partner];
    if (blank(mine) || blank(theirs)) continue;
    const other = e.fields[partner].label;
    if (f.kind === 'date') {
      if (typeof mine === 'string' && typeof theirs === 'string' && mine < theirs) out.push({ field: name, message: `'${f.label}' cannot be before '${other}'.` });
    } else if (Number(mine) > Number(theirs)) {
      out.push({ field: name, message: `'${f.label}' cannot be more than '${other}'.` });
    }
  }
  return out;
}

export type CrudRoute = 'list' | 'get' | 'create' | 'update' | 'delete' | 'import';

export const allRoutes: readonly CrudRoute[] = ['list', 'get', 'create', 'update', 'delete', 'import'];
export const viewRoutes: readonly CrudRoute[] = ['list', 'get'];
export const isView = (e: Pick<AnyEntity, 'storage'>): boolean => e.storage === 'view';
const routesOf = (e: AnyEntity): readonly CrudRoute[] => e.routes ?? (isView(e) ? viewRoutes : allRoutes);
export const hasRoute = (e: AnyEntity, r: CrudRoute): boolean => routesOf(e).includes(r);

export type AnyEntity = EntityDef<Record<string, Field>>;

/**
 * Whether a uniqueTogether part compares case-insensitively (friendly check and unique index alike): text
 * that people type through the generic form or import, where 'A' and 'a' are the same section. An entity
 * without generic create/update is written only by its workflow, with machine keys (a table setting's table
 * name) that the workflow's ON CONFLICT matches on the plain columns, which a lower() index would not serve.
 */
export function uniqueTogetherFoldsCase(e: AnyEntity, field: string): boolean {
  return e.fields[field]?.kind === 'text' && (hasRoute(e, 'create') || hasRoute(e, 'update'));
}

export const apiPath = (e: AnyEntity): string => e.api ?? `/api/${e.name}/`;

/** A path under the entity's API: {api}{id}, {api}options... with exactly one slash between. */
export const apiUrl = (e: AnyEntity, suffix: string | number = ''): string => {
  const base = apiPath(e);
  const s = String(suffix);
  return s === '' ? base : `${base.endsWith('/') ? base : `${base}/`}${s}`;
};

/** Fields a client may send on create/update. */
export function writableFields(e: AnyEntity): [string, Field][] {
  return Object.entries(e.fields).filter(([, f]) => f.kind !== 'code' && !f.readOnly && !f.auto);
}

// ---- validation, shared by server (authoritative) and browser (early feedback) ----

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const TIME_RE = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/;
/** An amount as typed: up to 10 digits and at most 2 decimals (money never travels as a float). */
export const MONEY_RE = /^\d{1,10}(\.\d{1,2})?$/;

/** The code of a chosen row (a link, or a workflow's own choice), with the spec's wording when it is not one. */
export const choiceSchema = (label: string) =>
  z.coerce.number({ error: `'${label}' is not a valid choice.` }).int(`'${label}' is not a valid choice.`).positive(`'${label}' is not a valid choice.`);

function isRealDate(s: string): boolean {
  if (!DATE_RE.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

export function fieldSchema(f: Field): z.ZodType {
  const l = f.label;
  switch (f.kind) {
    case 'code':
      return z.number().int().positive();
    case 'text': {
      let s = z.string().trim().max(f.max, `'${l}' must be at most ${f.max} characters.`);
      if (f.format === 'email') s = s.regex(/^$|^[^\s@]+@[^\s@]+\.[^\s@]+$/, `'${l}' is not a valid e-mail address.`);
      if (f.format === 'upper-code') s = s.regex(/^$|^[A-Za-z0-9_-]+$/, `'${l}' may hold only letters, digits, - and _.`);
      // One stored form whichever way it came in (form, API, import), so search and duplicates agree.
      if (f.format === 'phone') return s.regex(/^$|^\+?[0-9 ()-]{6,20}$/, `'${l}' is not a valid phone number.`).transform(normalisePhone);
      return s;
    }
    case 'number': {
      let n = z.coerce.number({ error: `'${l}' must be a number.` });
      if (f.int) n = n.int(`'${l}' must be a whole number.`);
      return n.min(f.min, `'${l}' must be at least ${f.min}.`).max(f.max, `'${l}' must be at most ${f.max}.`);
    }
    case 'money':
      // Money travels as a decimal string so no float ever touches it.
      return z
        .union([z.string(), z.number()])
        .transform((v) => (typeof v === 'number' ? String(v) : v.trim()))
        .refine((v) => MONEY_RE.test(v), `'${l}' must be an amount with at most 2 decimals.`)
        .refine((v) => Number(v) <= f.max, `'${l}' is too large.`);
    case 'date':
      return z.string().refine(isRealDate, `'${l}' must be a date (YYYY-MM-DD).`);
    case 'time':
      return z.string().regex(TIME_RE, `'${l}' must be a time (hh:mm:ss).`);
    case 'datetime':
      return z.iso.datetime({ offset: true, error: `'${l}' must be a date and time.` });
    case 'bool':
      return z.union([z.boolean(), z.literal(0), z.literal(1)]).transform((v) => v === true || v === 1);
    case 'select':
      if (f.multiple) return multiSelectSchema(f);
      return z.enum(f.options as [string, ...string[]], { error: `'${l}' must be one of ${f.options.join(', ')}.` });
    case 'link':
      return choiceSchema(l);
    case 'image':
    case 'file':
      return z.string().max(200);
    case 'json':
      return z.unknown();
    case 'password':
      return z.string().min(f.min, `'${l}' must be at least ${f.min} characters.`).max(200);
  }
}

/**
 * The stored form of a phone number (docs/decisions.md, 'Form engine as people use it'): an Indian mobile,
 * however typed (98765 43210, 098765-43210, +91 9876543210, 919876543210), becomes '+91 98765 43210';
 * anything else (a landline with its STD code, another country's number) keeps its digits, '+', brackets
 * and hyphens as typed, with runs of spaces made one. Empty stays empty.
 */
export function normalisePhone(raw: string): string {
  const typed = raw.trim().replace(/\s+/g, ' ');
  const digits = typed.replace(/[\s().-]/g, '');
  const mobile = /^(?:\+91|91|0)?([6-9]\d{9})$/.exec(digits);
  return mobile ? `+91 ${mobile[1].slice(0, 5)} ${mobile[1].slice(5)}` : typed;
}

/**
 * Columns a GET row holds that are not written through a PUT: the key, read-only and server-stamped
 * fields, and links' joined display columns. A client may send a row back as it read it: these are
 * accepted when unchanged (the server compares them with the stored row) and refused when changed.
 */
export function readBackColumns(e: AnyEntity): Map<string, { label: string; kind: 'key' | 'read-only' | 'display' }> {
  const out = new Map<string, { label: string; kind: 'key' | 'read-only' | 'display' }>();
  for (const [name, f] of Object.entries(e.fields)) {
    if (name === e.key) out.set(name, { label: f.label, kind: 'key' });
    else if (f.kind === 'code' || f.readOnly || f.auto) out.set(name, { label: f.label, kind: 'read-only' });
    if (f.kind === 'link' && !Object.hasOwn(e.fields, f.as)) out.set(f.as, { label: f.label, kind: 'display' });
  }
  return out;
}

/** The chosen options of a multiple select, from an array or a comma string: trimmed, blanks dropped. */
export function multiSelectParts(v: readonly string[] | string | null | undefined): string[] {
  if (v === null || v === undefined) return [];
  return (typeof v === 'string' ? v.split(',') : v).map((s) => s.trim()).filter((s) => s !== '');
}

/**
 * The stored text of a multiple select: each chosen option once, in declared option order, comma
 * separated; null when nothing is chosen (so a required check sees it as empty).
 */
export function canonicalMultiSelect(options: readonly string[], chosen: readonly string[]): string | null {
  const picked = new Set(chosen);
  const out = options.filter((o) => picked.has(o)).join(',');
  return out === '' ? null : out;
}

function multiSelectSchema(f: SelectField): z.ZodType {
  const l = f.label;
  return z
    .union([z.array(z.string()), z.string()], { error: `'${l}' must be a list of ${f.options.join(', ')}.` })
    .transform((v, ctx) => {
      const parts = multiSelectParts(v);
      const unknown = [...new Set(parts.filter((p) => !f.options.includes(p)))];
      if (unknown.length > 0) {
        ctx.addIssue({
          code: 'custom',
          message: `'${l}' may hold only ${f.options.join(', ')}; not ${unknown.map((u) => `'${u}'`).join(', ')}.`,
        });
        return z.NEVER;
      }
      return canonicalMultiSelect(f.options, parts);
    });
}

const isEmpty = (v: unknown): boolean =>
  v === undefined || v === null || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);

/**
 * Builds the body schema of create (every required field present) or update (a patch, any subset).
 * Unknown keys are refused so a typo in a field name is an error, not silently lost data.
 */
export function bodySchema(e: AnyEntity, mode: 'create' | 'update'): z.ZodType<Record<string, unknown>> {
  const shape: Record<string, z.ZodType> = {};
  const fields = writableFields(e);
  for (const [name, f] of fields) {
    shape[name] = z.preprocess((v) => (isEmpty(v) ? null : v), fieldSchema(f).nullable().optional());
  }
  return z.strictObject(shape).superRefine((body, ctx) => {
    for (const [name, f] of fields) {
      if (!f.required) continue;
      // On update a missing key keeps the stored value; an emptied one is refused.
      const missing = mode === 'create' ? isEmpty(body[name]) : name in body && isEmpty(body[name]);
      if (missing) ctx.addIssue({ code: 'custom', path: [name], message: requiredMessage(f) });
    }
    // A yes/no column is never empty (NOT NULL): an update that empties one is refused, not left to the database.
    for (const [name, f] of fields) {
      if (mode === 'update' && f.kind === 'bool' && name in body && body[name] === null) ctx.addIssue({ code: 'custom', path: [name], message: `'${f.label}' must be yes or no.` });
    }
    // A create holds the whole row, so its ranges can be checked here (early feedback in the browser); an
    // update's patch needs the stored row, which only the server has.
    if (mode === 'create') for (const i of rangeIssues(e, body)) ctx.addIssue({ code: 'custom', path: [i.field], message: i.message });
  }) as unknown as z.ZodType<Record<string, unknown>>;
}

/** The spec's required-field toast (section 5). */
export function requiredMessage(f: Pick<Field, 'kind' | 'label' | 'placeholder'>): string {
  const label = f.placeholder || f.label;
  if (f.kind === 'select' || f.kind === 'link') return `Please select the '${label || 'Dropdown'}'.`;
  if (f.kind === 'text' || f.kind === 'password') return `Please enter the '${label || 'Input value'}'.`;
  return `Please fill the '${label || 'Field'}'.`;
}
