import { fieldSchema, hasRoute, type AnyEntity, type Field } from '@campus/entities/define';
import { pagesOfEntity } from '@campus/entities/pages';
import { findEntity } from '@campus/entities/registry';
import { effectivePermissions } from '../access/permission';
import type { RequestContext } from '../access/request-context';
import type { Tx } from '../db/client';
import { registerHooks, type Row } from '../engine/entity-hooks';
import { badRequest } from '../lib/http-error';

/** More columns than a sheet is worth reading; also bounds the work of checking one definition. */
export const MAX_REPORT_COLUMNS = 40;
export const MAX_REPORT_FILTERS = 20;

const refuse = (field: string, message: string) => badRequest(message, [{ field, message }]);

/**
 * Kinds the list API refuses to filter or sort by, and that a grid cannot show as a value; machine internals
 * (a bill's idempotency key) are no column anywhere, so no report column either.
 */
const hidden = (f: Field): boolean => f.kind === 'password' || f.kind === 'json' || f.internal === true;

function reportField(base: AnyEntity, name: unknown, role: string, at: string): [string, Field] {
  if (typeof name !== 'string' || name === '') throw refuse(at, `${role} must name a field of ${base.label}.`);
  const f = Object.hasOwn(base.fields, name) ? base.fields[name] : undefined;
  if (!f) throw refuse(at, `${role} '${name}' is not a field of ${base.label}.`);
  if (hidden(f)) throw refuse(at, `${role} '${name}' (${f.label}) cannot be used in a report.`);
  return [name, f];
}

/**
 * A filter value as the list API's f_<field> receives it (text), checked by the field's own rule exactly as
 * the list query will check it, so a saved report never fails when it runs.
 */
function filterValue(f: Field, name: string, raw: unknown): string {
  const at = 'cst_rpt_fltrs';
  if (raw === null || raw === undefined || (typeof raw === 'string' && raw.trim() === '')) throw refuse(at, `Filter '${name}' needs a value.`);
  if (typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'boolean') throw refuse(at, `Filter '${name}' must be a single value.`);
  const text = String(raw).trim();
  if (f.kind === 'bool') {
    // The list API reads 'true'/'1' as yes and anything else as no: only the two words are kept.
    if (!['true', 'false', '1', '0'].includes(text)) throw refuse(at, `Filter '${name}': '${f.label}' must be true or false.`);
    return text === 'true' || text === '1' ? 'true' : 'false';
  }
  const parsed = fieldSchema(f).safeParse(text);
  if (!parsed.success) throw refuse(at, `Filter '${name}': ${parsed.error.issues[0]?.message ?? 'invalid value'}`);
  // A multiple select compares its canonical comma text; a number or link its digits.
  return String(parsed.data);
}

/**
 * The whole definition as it will be stored, checked against the declaration of the entity it reports on;
 * returns the normalised columns and filters. Throws a 400 naming the offending field.
 */
export async function checkDefinition(tx: Tx, ctx: RequestContext, row: Row): Promise<Pick<Row, 'cst_rpt_cols' | 'cst_rpt_fltrs'>> {
  const name = row.cst_rpt_entity;
  const base = typeof name === 'string' ? findEntity(name) : undefined;
  const pagesOfBase = base ? pagesOfEntity(base.name) : [];
  if (!base || pagesOfBase.length === 0 || !hasRoute(base, 'list')) {
    throw refuse('cst_rpt_entity', `'${String(name)}' cannot be reported on.`);
  }
  // Whoever could not open the entity's page must not learn its rows' shape or file reports over it; running
  // is checked again, on every run, by the entity's own list route.
  const mine = await effectivePermissions(tx, ctx.user.usr_cd, ctx.instCd, ctx.user.is_admin);
  if (!pagesOfBase.some((pg) => mine.get(`${pg.module}/${pg.page}`)?.usr_prms_is_alw)) {
    throw refuse('cst_rpt_entity', `You cannot build a report on ${pagesOfBase[0].label}: you are not allowed to open its page.`);
  }

  const cols = row.cst_rpt_cols ?? [];
  if (!Array.isArray(cols)) throw refuse('cst_rpt_cols', "'Columns' must be a list of field names.");
  if (cols.length > MAX_REPORT_COLUMNS) throw refuse('cst_rpt_cols', `A report shows at most ${MAX_REPORT_COLUMNS} columns.`);
  const seen = new Set<string>();
  for (const c of cols) {
    const [n] = reportField(base, c, 'Column', 'cst_rpt_cols');
    if (seen.has(n)) throw refuse('cst_rpt_cols', `Column '${n}' is chosen twice.`);
    seen.add(n);
  }

  const fltrs = row.cst_rpt_fltrs ?? [];
  if (!Array.isArray(fltrs)) throw refuse('cst_rpt_fltrs', "'Filters' must be a list of { field, value }.");
  if (fltrs.length > MAX_REPORT_FILTERS) throw refuse('cst_rpt_fltrs', `A report has at most ${MAX_REPORT_FILTERS} filters.`);
  const filters: { field: string; value: string }[] = [];
  for (const x of fltrs) {
    if (!x || typeof x !== 'object' || Array.isArray(x)) throw refuse('cst_rpt_fltrs', "Each filter must be a { field, value } pair.");
    const { field, value, ...rest } = x as Record<string, unknown>;
    if (Object.keys(rest).length) throw refuse('cst_rpt_fltrs', `Unknown filter key(s): ${Object.keys(rest).join(', ')}.`);
    const [n, f] = reportField(base, field, 'Filter', 'cst_rpt_fltrs');
    // The list API takes one f_<field> per field.
    if (filters.some((y) => y.field === n)) throw refuse('cst_rpt_fltrs', `Filter '${n}' is given twice.`);
    filters.push({ field: n, value: filterValue(f, n, value) });
  }

  const sort = row.cst_rpt_sort;
  if (sort !== null && sort !== undefined && sort !== '') reportField(base, sort, 'Sort field', 'cst_rpt_sort');
  return { cst_rpt_cols: cols.length ? cols : null, cst_rpt_fltrs: filters.length ? filters : null };
}

/**
 * A custom report is checked on every write against the entity it reports on (architecture: definitions
 * that look like queries are structured data validated against the declarations). An update is checked
 * as the merged row, so changing the entity alone cannot leave columns of the old one behind.
 */
export function registerCustomReportHooks(): void {
  registerHooks('custom_report', {
    async beforeCreate(tx, ctx, values) {
      Object.assign(values, await checkDefinition(tx, ctx, values));
    },
    async beforeUpdate(tx, ctx, before, changes) {
      const checked = await checkDefinition(tx, ctx, { ...before, ...changes });
      // Only what the request changes is written; the normal form of untouched parts is left as stored.
      if ('cst_rpt_cols' in changes) changes.cst_rpt_cols = checked.cst_rpt_cols;
      if ('cst_rpt_fltrs' in changes) changes.cst_rpt_fltrs = checked.cst_rpt_fltrs;
    },
  });
}
