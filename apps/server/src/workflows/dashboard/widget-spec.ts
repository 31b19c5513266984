import { fieldSchema, type AnyEntity, type Field } from '@campus/entities/define';
import { pagesOfEntity } from '@campus/entities/pages';
import { findEntity } from '@campus/entities/registry';
import type { WidgetKind } from '@campus/entities/features/widget.entity';

/**
 * A widget row read as a declared kind over one entity. Every name in it is checked against the registry
 * here, before anything is built from it: a saved widget that no longer fits (a field renamed since) is
 * refused on save (400) and, on the dashboard, shown as that widget's own error.
 */

export interface WidgetSpec {
  kind: WidgetKind;
  entity: AnyEntity;
  /** A number or money field summed; absent = rows counted. */
  measure?: string;
  /** The field a bar, pie or doughnut groups by. */
  group?: string;
  /** The date window's field (a line's days, a list's order), and its ends in days from today. */
  dateField?: string;
  from?: number;
  to?: number;
  /** Equality filters, each value already parsed by its field's schema. */
  where: Record<string, unknown>;
  limit: number;
}

/** The longest window a line chart draws, one point a day. */
export const MAX_LINE_DAYS = 366;
const LIST_ROWS = 5;

export class WidgetSpecError extends Error {
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
  }
}

const kindOf = (typ: unknown, sub: unknown): WidgetKind => {
  if (typ === 'Count') return 'count';
  if (typ === 'Sum') return 'sum';
  if (typ === 'List') return 'list';
  if (typ === 'Chart') {
    if (sub === 'Bar') return 'bar';
    if (sub === 'Line') return 'line';
    if (sub === 'Pie') return 'pie';
    if (sub === 'Doughnut') return 'donut';
    throw new WidgetSpecError('A chart needs its chart type: Bar, Line, Pie or Doughnut.', 'wdgt_sub_typ');
  }
  throw new WidgetSpecError('Type must be Count, Sum, Chart or List.', 'wdgt_typ');
};

const blank = (v: unknown): boolean => v === null || v === undefined || v === '';

function fieldOf(e: AnyEntity, name: unknown, column: string, fits: (f: Field) => boolean, what: string): string | undefined {
  if (blank(name)) return undefined;
  const n = String(name);
  const f = Object.hasOwn(e.fields, n) ? e.fields[n] : undefined;
  if (!f) throw new WidgetSpecError(`'${n}' is not a field of ${e.label}.`, column);
  if (!fits(f)) throw new WidgetSpecError(`${f.label} of ${e.label} cannot be used as ${what}.`, column);
  return n;
}

const dayOf = (v: unknown, column: string): number | undefined => {
  if (blank(v)) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || Math.abs(n) > 3660) throw new WidgetSpecError('A window end is a whole number of days from today (-3660 to 3660).', column);
  return n;
};

/** The widget row (as stored or as about to be written) read and checked; throws WidgetSpecError. */
export function widgetSpec(row: Record<string, unknown>): WidgetSpec {
  const kind = kindOf(row.wdgt_typ, row.wdgt_sub_typ);
  if (kind !== 'bar' && kind !== 'line' && kind !== 'pie' && kind !== 'donut' && !blank(row.wdgt_sub_typ)) {
    throw new WidgetSpecError('Only a chart has a chart type.', 'wdgt_sub_typ');
  }
  const name = blank(row.wdgt_ent) ? '' : String(row.wdgt_ent);
  const e = name === '' ? undefined : findEntity(name);
  if (name === '') throw new WidgetSpecError('Choose the entity the widget reads.', 'wdgt_ent');
  // Only an entity behind some page: the viewer's permission on that page decides whether and what they see.
  if (!e || pagesOfEntity(e.name).length === 0) throw new WidgetSpecError(`'${name}' is not an entity a widget can read.`, 'wdgt_ent');

  const numeric = (f: Field) => f.kind === 'number' || f.kind === 'money';
  const measure = fieldOf(e, row.wdgt_msr, 'wdgt_msr', numeric, 'a measure (a number or an amount)');
  if (kind === 'sum' && !measure) throw new WidgetSpecError('A sum needs its measure: a number or amount field.', 'wdgt_msr');
  if ((kind === 'count' || kind === 'list') && measure) throw new WidgetSpecError('Only a sum or a chart adds up a measure.', 'wdgt_msr');

  const groupable = (f: Field) => f.kind === 'link' || f.kind === 'select' || f.kind === 'bool' || (f.kind === 'text' && !f.multiline);
  const group = fieldOf(e, row.wdgt_grp, 'wdgt_grp', groupable, 'a group (a link, a choice or a short text)');
  if ((kind === 'bar' || kind === 'pie' || kind === 'donut') && !group) throw new WidgetSpecError('A bar, pie or doughnut chart needs the field it groups by.', 'wdgt_grp');
  if (kind !== 'bar' && kind !== 'pie' && kind !== 'donut' && group) throw new WidgetSpecError('Only a bar, pie or doughnut chart groups by a field.', 'wdgt_grp');

  const dateField = fieldOf(e, row.wdgt_dt_fld, 'wdgt_dt_fld', (f) => f.kind === 'date', 'the date field');
  const from = dayOf(row.wdgt_dt_frm, 'wdgt_dt_frm');
  const to = dayOf(row.wdgt_dt_to, 'wdgt_dt_to');
  if (!dateField && (from !== undefined || to !== undefined)) throw new WidgetSpecError('A date window needs its date field.', 'wdgt_dt_fld');
  if (from !== undefined && to !== undefined && from > to) throw new WidgetSpecError('The window ends before it starts.', 'wdgt_dt_to');
  if (kind === 'line') {
    if (!dateField || from === undefined || to === undefined) throw new WidgetSpecError('A line chart needs its date field and both ends of its window.', 'wdgt_dt_fld');
    if (to - from + 1 > MAX_LINE_DAYS) throw new WidgetSpecError(`A line chart draws at most ${MAX_LINE_DAYS} days.`, 'wdgt_dt_frm');
  }

  const where: Record<string, unknown> = {};
  const raw = typeof row.wdgt_whr === 'string' && row.wdgt_whr.trim() !== '' ? parseJson(row.wdgt_whr) : row.wdgt_whr;
  if (!blank(raw)) {
    if (typeof raw !== 'object' || Array.isArray(raw)) throw new WidgetSpecError('Filters are an object of field names and values: {"fee_coll_sts": "Active"}.', 'wdgt_whr');
    for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
      const f = Object.hasOwn(e.fields, k) ? e.fields[k] : undefined;
      if (!f) throw new WidgetSpecError(`'${k}' is not a field of ${e.label}.`, 'wdgt_whr');
      if (f.kind === 'password' || f.kind === 'json' || f.kind === 'image' || f.kind === 'file') throw new WidgetSpecError(`${e.label} cannot be filtered by ${f.label}.`, 'wdgt_whr');
      if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') throw new WidgetSpecError(`Filter ${f.label}: one value.`, 'wdgt_whr');
      const parsed = fieldSchema(f).safeParse(v);
      if (!parsed.success || parsed.data === null || parsed.data === undefined) throw new WidgetSpecError(`Filter ${f.label}: ${parsed.success ? 'a value is needed' : parsed.error.issues[0]?.message ?? 'invalid value'}.`, 'wdgt_whr');
      where[k] = parsed.data;
    }
  }
  const limit = blank(row.wdgt_lmt) ? LIST_ROWS : Number(row.wdgt_lmt);
  return { kind, entity: e, measure, group, dateField, from, to, where, limit };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new WidgetSpecError('Filters must be JSON: {"field": "value"}.', 'wdgt_whr');
  }
}
