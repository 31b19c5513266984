import type { AnyEntity, Field } from '@campus/entities/define';

/** Operators of the server's entity query (apps/server/src/engine/entity-query.ts QUERY_OPS). */
export type RuleOp = 'eq' | 'ne' | 'lt' | 'lte' | 'gt' | 'gte' | 'in' | 'not_in' | 'contains' | 'starts_with' | 'is_null' | 'not_null';

/** One condition as the editor holds it: the value as typed (a list as comma-separated text). */
export interface DraftCondition {
  field: string;
  op: RuleOp;
  value: string;
}

/** A notification rule as the editor holds it; ruleParts turns it into the notification's columns. */
export interface RuleDraft {
  entity: string;
  columns: string[];
  where: DraftCondition[];
  /** The date window: the field and days from the run day (0..3: today to three days ahead). */
  dateField: string | null;
  from: number;
  to: number;
  group: string[];
  order: { field: string; dir: 'asc' | 'desc' } | null;
  limit: number;
}

export const emptyDraft = (): RuleDraft => ({ entity: '', columns: [], where: [], dateField: null, from: 0, to: 0, group: [], order: null, limit: 50 });

export const takesNoValue = (op: RuleOp): boolean => op === 'is_null' || op === 'not_null';
export const takesList = (op: RuleOp): boolean => op === 'in' || op === 'not_in';

const parse = (v: unknown): unknown => {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v);
  } catch {
    return undefined;
  }
};
const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** The editor's draft of a stored notification row (its parts as the server stores them). */
export function draftOf(row: Record<string, unknown>): RuleDraft {
  const d = emptyDraft();
  const q = parse(row.ntf_qry);
  if (isObj(q)) {
    d.entity = typeof q.entity === 'string' ? q.entity : '';
    d.columns = Array.isArray(q.columns) ? q.columns.filter((c): c is string => typeof c === 'string') : [];
  }
  const where = parse(row.ntf_qry_whr_clmn);
  if (Array.isArray(where)) {
    d.where = where.filter(isObj).map((w) => ({
      field: String(w.field ?? ''),
      op: String(w.op ?? 'eq') as RuleOp,
      value: Array.isArray(w.value) ? w.value.map(String).join(', ') : w.value === undefined || w.value === null ? '' : String(w.value),
    }));
  }
  const date = parse(row.ntf_dt_fltr);
  if (isObj(date) && typeof date.field === 'string') {
    d.dateField = date.field;
    d.from = Number(date.from ?? 0) || 0;
    d.to = Number(date.to ?? 0) || 0;
  }
  const group = parse(row.ntf_qry_grp_clmn);
  if (Array.isArray(group)) d.group = group.filter((g): g is string => typeof g === 'string');
  const order = parse(row.ntf_qry_ord_clmn);
  if (Array.isArray(order) && isObj(order[0]) && typeof order[0].field === 'string') d.order = { field: order[0].field, dir: order[0].dir === 'desc' ? 'desc' : 'asc' };
  const limit = parse(row.ntf_qry_lmt_clmn);
  const n = isObj(limit) ? Number(limit.rows) : Number(limit);
  if (Number.isInteger(n) && n > 0) d.limit = n;
  return d;
}

/** A typed value in the form the server's field schema takes: numbers for codes, choices and counts. */
function typedValue(f: Field | undefined, text: string): unknown {
  const v = text.trim();
  if (f && (f.kind === 'code' || f.kind === 'link' || f.kind === 'number') && /^-?\d+(\.\d+)?$/.test(v)) return Number(v);
  if (f?.kind === 'bool') return v === 'true';
  return v;
}

/** The condition as the server takes it: no value for is_null/not_null, a list for in/not_in. */
export function conditionOf(e: AnyEntity | undefined, c: DraftCondition): { field: string; op: RuleOp; value?: unknown } {
  const f = e && Object.hasOwn(e.fields, c.field) ? e.fields[c.field] : undefined;
  if (takesNoValue(c.op)) return { field: c.field, op: c.op };
  if (takesList(c.op)) {
    return {
      field: c.field,
      op: c.op,
      value: c.value
        .split(',')
        .map((x) => x.trim())
        .filter((x) => x !== '')
        .map((x) => typedValue(f, x)),
    };
  }
  return { field: c.field, op: c.op, value: typedValue(f, c.value) };
}

/** The notification's query columns of a draft (the server checks them again on save). */
export function ruleParts(d: RuleDraft, e: AnyEntity | undefined): Record<string, unknown> {
  return {
    ntf_qry: { entity: d.entity, columns: d.columns },
    ntf_dt_fltr: d.dateField ? { field: d.dateField, from: d.from, to: d.to } : null,
    ntf_qry_whr_clmn: d.where.filter((w) => w.field !== '').map((w) => conditionOf(e, w)),
    ntf_qry_lmt_clmn: d.limit,
    ntf_qry_ord_clmn: d.order ? [d.order] : [],
    ntf_qry_grp_clmn: d.group,
  };
}
