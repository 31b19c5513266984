import { code, defineEntity, json, number, select, text } from '../define';

/**
 * A dashboard tile: a DECLARED kind over one entity's list query, run with the viewer's own scope (institute,
 * year, 'his students only'). The kind (wdgt_typ, and for a chart wdgt_sub_typ) and its parameters name
 * registry entities and fields only; the server checks them on every save (400 for an unknown entity or
 * field) and builds the query from the declarations, never from text in the row.
 * - Count: rows; Sum: the total of wdgt_msr.
 * - Chart Bar / Pie / Doughnut: rows (or the total of wdgt_msr) per value of wdgt_grp (students by class).
 * - Chart Line: per day of wdgt_dt_fld over the date window (fees collected per day, last 30 days).
 * - List: the first wdgt_lmt rows in wdgt_dt_fld order (upcoming holidays).
 */
export const widget = defineEntity({
  name: 'widget',
  table: 'widget',
  key: 'wdgt_cd',
  scope: 'institute',
  label: 'Widget',
  title: 'wdgt_nm',
  fields: {
    wdgt_cd: code(),
    wdgt_nm: text({ label: 'Widget Name', required: true, search: true, unique: true, max: 100 }),
    wdgt_typ: select({ label: 'Type', options: ['Count', 'Sum', 'Chart', 'List'], required: true, defaultValue: 'Count', search: true }),
    // Charts only; the save refuses one on another type, and a chart without one.
    wdgt_sub_typ: select({ label: 'Chart Type', options: ['Bar', 'Line', 'Pie', 'Doughnut'] }),
    // Who sees the tile on their dashboard (and then only with a page of its entity).
    wdgt_mode: select({ label: 'Visible To', options: ['All Users', 'Admins Only'], required: true, defaultValue: 'All Users' }),
    // A registry entity name (student, collected_fee ...): its list query, page and scope.
    wdgt_ent: text({ label: 'Entity', required: true, max: 60 }),
    // A number or money field of the entity, summed; empty = rows are counted.
    wdgt_msr: text({ label: 'Measure', max: 60 }),
    // The field a bar, pie or doughnut groups by (a class, a section, a status).
    wdgt_grp: text({ label: 'Group By', max: 60 }),
    // A date field of the entity: the window's field, a line chart's days, a list's order.
    wdgt_dt_fld: text({ label: 'Date Field', max: 60 }),
    // The window in days from today (-29 .. 0: the last 30 days); either end may be open.
    wdgt_dt_frm: number({ label: 'From Day', min: -3660, max: 3660 }),
    wdgt_dt_to: number({ label: 'To Day', min: -3660, max: 3660 }),
    // Equality filters on declared fields: {"fee_coll_sts": "Active"}.
    wdgt_whr: json({ label: 'Filters' }),
    wdgt_lmt: number({ label: 'Rows', min: 1, max: 20 }),
    wdgt_ord: number({ label: 'Order', max: 9999 }),
  },
  defaultSort: { field: 'wdgt_nm', dir: 'asc' },
});

/** What a widget draws: its declared kind (wdgt_typ, and a chart's wdgt_sub_typ). */
export type WidgetKind = 'count' | 'sum' | 'bar' | 'pie' | 'donut' | 'line' | 'list';

/** One point of a chart: a group (a class, a section, a day) and its number. */
export interface WidgetPoint {
  key: string;
  label: string;
  /** The row count, or the measure's exact sum as decimal text for money. */
  value: number;
  /** For a money measure: the exact sum ('1250.00'); value is the same as a number, for drawing only. */
  amount?: string;
}

/** What the dashboard draws for one widget; exactly one of value/points/rows, or error. */
export interface WidgetData {
  wdgt_cd: number;
  wdgt_nm: string;
  kind: WidgetKind;
  entity: string;
  /** The entity's page the numbers come from (a link to the rows), e.g. sms/student/profile. */
  page: string | null;
  /** Whether the measure is money (shown with 2 decimals). */
  money: boolean;
  /** count / sum: the number (a sum of money as exact decimal text). */
  value?: number | string;
  /** bar / pie / donut / line: the groups; a line has one point per day of its window. */
  points?: WidgetPoint[];
  /** list: the first rows, as title, date and the group's label. */
  rows?: { key: number; title: string; date: string | null; detail: string | null }[];
  /** The widget's conditions as the list's `rule` ({ where, dateFilter }): 'Open' shows the rows it counts. */
  rule?: { where?: readonly unknown[]; dateFilter?: unknown };
  /** Nothing to show: no rows in the viewer's scope (or none in the window), said in words, not a zero. */
  empty: boolean;
  /** This widget failed (its definition no longer fits, a query failed): the others still show. */
  error?: string;
}
