import { code, defineEntity, json, link, select, text } from '../define';
import { pages } from '../pages';

/**
 * Entities a custom report may be built on: those with a live page (pages.ts is pure data, so the
 * declaration reads it without the registry's import cycle). Left out: custom reports themselves, and the
 * permission rows, whose list route is the permission workflow's own (not the generic list a report runs).
 * The definition's fields are checked against the chosen entity's declaration by the server hook.
 */
const NOT_REPORTABLE: readonly string[] = ['custom_report', 'user_permission'];

const reportable = pages.filter((pg) => pg.entity !== undefined && !NOT_REPORTABLE.includes(pg.entity));

export const reportableEntities: readonly string[] = [...new Set(reportable.map((pg) => pg.entity as string))];

/** The first page's label names the entity in the dropdown ('Student Profile', 'Income / Expense'). */
const entityOptionLabels: Readonly<Record<string, string>> = Object.fromEntries(
  reportableEntities.map((name) => [name, reportable.find((pg) => pg.entity === name)?.label ?? name]),
);

/**
 * A saved view of one entity's list ('Students of class X without phone', 'Expenses above 10,000'): which
 * columns, which equality filters (the list API's f_<field>), search text and sort. Structured data, never
 * SQL: running it is the entity's own list call, under the runner's own permission on that entity's page.
 */
export const customReport = defineEntity({
  name: 'custom_report',
  table: 'custom_report',
  key: 'cst_rpt_cd',
  scope: 'institute',
  label: 'Custom Report',
  title: 'cst_rpt_nm',
  fields: {
    cst_rpt_cd: code(),
    cst_rpt_nm: text({ label: 'Report Name', required: true, search: true, unique: true, max: 100 }),
    // The spec's report groups (Reports > Group), so the office can file reports under 'Students', 'Fees'...
    rpt_cd: link({ label: 'Report Group', to: 'report', display: 'rpt_nm', as: 'rpt_nm' }),
    cst_rpt_entity: select({ label: 'Report On', required: true, options: reportableEntities, optionLabels: entityOptionLabels }),
    // The list API's quick search, applied every time the report runs.
    cst_rpt_q: text({ label: 'Search Text', max: 100 }),
    // Ordered field names of the base entity; empty means the entity's default grid columns.
    cst_rpt_cols: json({ label: 'Columns', gridHidden: true }),
    // [{ field, value }]: equality filters as the list API's f_<field> takes them (value as a string).
    cst_rpt_fltrs: json({ label: 'Filters', gridHidden: true }),
    cst_rpt_sort: text({ label: 'Sort By', max: 60, format: 'upper-code', gridHidden: true }),
    cst_rpt_dir: select({ label: 'Sort Direction', options: ['asc', 'desc'], optionLabels: { asc: 'Ascending', desc: 'Descending' }, gridHidden: true }),
    cst_rpt_dscr: text({ label: 'Description', multiline: true, max: 500 }),
  },
  defaultSort: { field: 'cst_rpt_nm', dir: 'asc' },
});
