import { hasRoute, type AnyEntity, type Field } from '@campus/entities/define';
import { pagesOfEntity, type PageDef } from '@campus/entities/pages';
import { findEntity } from '@campus/entities/registry';
import { listQuery, type EntityRow } from '../../engine/entity-api';
import { fieldLabel, type Translate } from '../../engine/entity-labels';
import type { FormValue } from '../../engine/form-values';
import type { EntityListOptions } from '../../engine/use-entity-list';

/** One equality filter, as the list API's f_<field> takes it. */
export interface ReportFilter {
  field: string;
  value: string;
}

/** A custom report's definition, read from (and written back to) its custom_report row. */
export interface ReportDefinition {
  entity: string;
  columns: string[];
  filters: ReportFilter[];
  search: string;
  sort: string | null;
  dir: 'asc' | 'desc';
}

export const emptyDefinition = (entity = ''): ReportDefinition => ({ entity, columns: [], filters: [], search: '', sort: null, dir: 'asc' });

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** The definition held by a stored row; anything malformed reads as 'nothing chosen'. */
export function definitionOf(row: EntityRow): ReportDefinition {
  const filters = Array.isArray(row.cst_rpt_fltrs)
    ? row.cst_rpt_fltrs.flatMap((x: unknown) => {
        if (!x || typeof x !== 'object') return [];
        const { field, value } = x as Record<string, unknown>;
        return typeof field === 'string' && value !== null && value !== undefined ? [{ field, value: String(value) }] : [];
      })
    : [];
  return {
    entity: typeof row.cst_rpt_entity === 'string' ? row.cst_rpt_entity : '',
    columns: strings(row.cst_rpt_cols),
    filters,
    search: typeof row.cst_rpt_q === 'string' ? row.cst_rpt_q : '',
    sort: typeof row.cst_rpt_sort === 'string' && row.cst_rpt_sort !== '' ? row.cst_rpt_sort : null,
    dir: row.cst_rpt_dir === 'desc' ? 'desc' : 'asc',
  };
}

/** The definition's part of the POST/PUT body (the server checks it against the entity's declaration). */
export function definitionBody(def: ReportDefinition): Record<string, unknown> {
  return {
    cst_rpt_entity: def.entity,
    cst_rpt_cols: def.columns,
    cst_rpt_fltrs: def.filters.filter((f) => f.field !== '' && f.value.trim() !== ''),
    cst_rpt_q: def.search.trim() || null,
    cst_rpt_sort: def.sort,
    cst_rpt_dir: def.sort ? def.dir : null,
  };
}

/** What the list API lets a report show, sort and filter by: every field but passwords and JSON. */
const usable = (f: Field): boolean => f.kind !== 'password' && f.kind !== 'json' && f.internal !== true;
/** A filter needs a value someone can type or pick: not a file. */
const filterable = (f: Field): boolean => usable(f) && f.kind !== 'image' && f.kind !== 'file';

export interface FieldChoice {
  value: string;
  label: string;
}

/** The editor's field list for columns and sort: the entity's fields in declaration order, with their labels. */
export function columnChoices(t: Translate, entity: AnyEntity): FieldChoice[] {
  return Object.entries(entity.fields)
    .filter(([, f]) => usable(f))
    .map(([name]) => ({ value: name, label: fieldLabel(t, entity, name) }));
}

/** Fields a filter may compare. */
export function filterChoices(t: Translate, entity: AnyEntity): FieldChoice[] {
  return Object.entries(entity.fields)
    .filter(([, f]) => filterable(f))
    .map(([name]) => ({ value: name, label: fieldLabel(t, entity, name) }));
}

/** Columns moved: the one at `index` goes one place up (-1) or down (+1). */
export function moveColumn(columns: readonly string[], index: number, by: -1 | 1): string[] {
  const to = index + by;
  if (index < 0 || index >= columns.length || to < 0 || to >= columns.length) return [...columns];
  const out = [...columns];
  [out[index], out[to]] = [out[to], out[index]];
  return out;
}

/** A changed base entity keeps only what is still a field of it. */
export function retarget(def: ReportDefinition, entity: AnyEntity): ReportDefinition {
  const has = (n: string): boolean => Object.hasOwn(entity.fields, n) && usable(entity.fields[n]);
  return {
    ...def,
    entity: entity.name,
    columns: def.columns.filter(has),
    filters: def.filters.filter((f) => has(f.field) && filterable(entity.fields[f.field])),
    sort: def.sort && has(def.sort) ? def.sort : null,
  };
}

/** A filter's stored text as the field's input holds it, and back. */
export function filterFormValue(f: Field, value: string): FormValue {
  if (f.kind === 'bool') return value === 'true';
  return value === '' ? null : value;
}

export function filterText(value: FormValue): string {
  if (value === null) return '';
  return typeof value === 'boolean' ? (value ? 'true' : 'false') : String(value).trim();
}

export interface ReportRun {
  /** How the entity's list controller is shaped for this report. */
  list: EntityListOptions;
  /** Columns, filters or sort the entity no longer has (a field removed since): left out, and said so. */
  skipped: string[];
}

/**
 * The definition as the entity's own list call: fixed f_<field> filters, the chosen columns, the saved
 * search and sort. Names the entity no longer declares are skipped so an old report still runs.
 */
export function reportRun(def: ReportDefinition, entity: AnyEntity): ReportRun {
  const skipped: string[] = [];
  const keep = (n: string, ok: (f: Field) => boolean): boolean => {
    const fine = Object.hasOwn(entity.fields, n) && ok(entity.fields[n]);
    if (!fine && !skipped.includes(n)) skipped.push(n);
    return fine;
  };
  const columns = def.columns.filter((n) => keep(n, usable));
  const fixedFilters: Record<string, string> = {};
  for (const f of def.filters) if (keep(f.field, filterable)) fixedFilters[f.field] = f.value;
  const sort = def.sort && keep(def.sort, usable) ? { field: def.sort, dir: def.dir } : undefined;
  return {
    list: {
      columns,
      fixedFilters,
      initialSearch: def.search,
      ...(sort ? { initialSort: sort } : {}),
    },
    skipped,
  };
}

/** The query string of one page of the report, exactly as the run screen sends it. */
export function reportListParams(def: ReportDefinition, entity: AnyEntity, page = 1, size = 50): Record<string, string | number | undefined> {
  const { list } = reportRun(def, entity);
  const sort = list.initialSort ?? entity.defaultSort ?? null;
  return listQuery({ q: list.initialSearch ?? '', sort: sort?.field, dir: sort?.dir, page, size, filters: list.fixedFilters });
}

/** The page a report on this entity reads under: the first of its pages the user may open. */
export function pageToRunUnder(entityName: string, allowed: ReadonlySet<string>): PageDef | undefined {
  return pagesOfEntity(entityName).find((pg) => allowed.has(`${pg.module}/${pg.page}`));
}

/** The section 7 headers that name that page, so the server applies exactly its permission row. */
export const runHeaders = (page: Pick<PageDef, 'module' | 'page'>): Record<string, string> => ({ pagename: page.page, modulename: page.module });

/**
 * Entities the user may build a report on: offered by the declaration (live pages), listable through the
 * generic list route, and with at least one page the user may open.
 */
export function reportableFor(options: readonly string[], allowed: ReadonlySet<string>): AnyEntity[] {
  return options.flatMap((name) => {
    const e = findEntity(name);
    return e && hasRoute(e, 'list') && pageToRunUnder(name, allowed) ? [e] : [];
  });
}
