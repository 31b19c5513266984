import { apiUrl, type AnyEntity } from '@campus/entities/define';

/** One row as the list and get routes return it: declared fields, joined link columns and row_ver. */
export type EntityRow = Record<string, unknown>;

export interface ListResponse {
  rows: EntityRow[];
  total: number;
  /**
   * false: the server stopped counting, so there are at least `total` matching rows (a count past its
   * threshold is estimated rather than read). Absent or true: `total` is the exact count.
   */
  total_exact?: boolean;
}

/** The page count the pager offers: past an inexact total, one more page while the current one is full. */
export function pagesFor(total: number, totalExact: boolean, page: number, size: number, rowsOnPage: number): number {
  const known = Math.max(1, Math.ceil(total / size));
  if (totalExact) return known;
  return Math.max(known, rowsOnPage >= size ? page + 1 : page);
}

export interface ListParams {
  q: string;
  sort: string | undefined;
  dir: 'asc' | 'desc' | undefined;
  page: number;
  size: number;
  /** Equality filters sent as the list API's f_<field> (a saved report's fixed filters). */
  filters?: Readonly<Record<string, string>>;
  /** A notification rule's filter as the list API's `rule` (JSON { where, dateFilter }), from the URL. */
  rule?: string;
}

/** Link dropdown option as GET {api}options returns it. */
export interface LinkOption {
  value: number | string;
  label: string;
}

/** {api}{suffix} with one slash between (the history entities' bases end without one). */
export function entityUrl(entity: AnyEntity, suffix: string | number = ''): string {
  return apiUrl(entity, suffix);
}

export function listQuery(p: ListParams): Record<string, string | number | undefined> {
  const filters = Object.fromEntries(Object.entries(p.filters ?? {}).map(([k, v]) => [`f_${k}`, v]));
  return { q: p.q.trim() === '' ? undefined : p.q.trim(), sort: p.sort, dir: p.sort ? p.dir : undefined, page: p.page, size: p.size, ...filters, ...(p.rule ? { rule: p.rule } : {}) };
}

/** The key value of a row, as a string for URLs and React keys. */
export function rowId(entity: AnyEntity, row: EntityRow): string {
  return String(row[entity.key]);
}
