import type { AnyEntity } from '@campus/entities/define';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { urlFilters } from './related-lists';
import { http } from '../lib/http-client';
import { chosenColumns, type ColumnSpec } from './entity-columns';
import { entityUrl, listQuery, pagesFor, type EntityRow, type ListParams, type ListResponse } from './entity-api';

export const PAGE_SIZES = [25, 50, 100, 200] as const;
export const DEFAULT_PAGE_SIZE = 50;
const SEARCH_DEBOUNCE_MS = 350;

export interface SortState {
  field: string;
  dir: 'asc' | 'desc';
}

export interface EntityListController {
  entity: AnyEntity;
  columns: ColumnSpec[];
  rows: EntityRow[];
  total: number;
  /** false when the server only knows there are at least `total` rows ('10,000+'). */
  totalExact: boolean;
  page: number;
  size: number;
  pageCount: number;
  setPage: (page: number) => void;
  setSize: (size: number) => void;
  sort: SortState | null;
  setSort: (sort: SortState | null) => void;
  /** What the search box shows; the request uses it once typing pauses. */
  searchText: string;
  setSearchText: (text: string) => void;
  selection: EntityRow[];
  setSelection: (rows: EntityRow[]) => void;
  /** First load (no rows to show yet). */
  loading: boolean;
  /** Any request in flight, including a refresh behind rows already shown. */
  fetching: boolean;
  failed: boolean;
  refresh: () => Promise<void>;
  /**
   * Puts one row (matched by key) in place of the shown copy without a new request: an in-place edit shows
   * the server's answer at once, keeps its position on the page and refreshes the selection's copy.
   */
  replaceRow: (row: EntityRow) => void;
  /** The parameters of the rows shown: export reads the same search and sort. */
  params: ListParams;
}

/**
 * A list narrowed and shaped by its caller (a saved report): fixed equality filters sent with every request,
 * a column subset, the search and sort it starts with, and headers naming the page whose permission reads.
 */
export interface EntityListOptions {
  fixedFilters?: Readonly<Record<string, string>>;
  /** Field names in column order; the default columns when empty. */
  columns?: readonly string[];
  /** The search when the URL has none (the user may still clear it). */
  initialSearch?: string;
  /** The sort when the URL has none, in place of the declared default. */
  initialSort?: SortState | null;
  /** Extra request headers, e.g. pagename/modulename of the page the rows are read under. */
  headers?: Readonly<Record<string, string>>;
}

/** Query key prefix of an entity's list pages: forms invalidate it after a write so the grid is current. */
export const listQueryKey = (entityName: string): readonly unknown[] => ['entity-list', entityName];

/**
 * Where each grid's list state was last seen, so a form can return to the same page, search and sort.
 * Kept in memory only: a reload starts from the defaults, like the original.
 */
const lastSearchByEntity = new Map<string, string>();

export function lastListSearch(entityName: string): string {
  return lastSearchByEntity.get(entityName) ?? '';
}

function positiveInt(raw: string | null, fallback: number): number {
  const n = Number(raw);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

/** What the URL asks of a list: page, size, search and sort (the declared or given default when it names none). */
function urlListState(entity: AnyEntity, columns: readonly ColumnSpec[], searchParams: URLSearchParams, options: EntityListOptions) {
  const sortable = new Set(columns.filter((c) => c.sortable).map((c) => c.colId));
  const page = positiveInt(searchParams.get('page'), 1);
  const sizeParam = positiveInt(searchParams.get('size'), DEFAULT_PAGE_SIZE);
  const size = (PAGE_SIZES as readonly number[]).includes(sizeParam) ? sizeParam : DEFAULT_PAGE_SIZE;
  // An empty q in the URL records a cleared initial search, so it does not come back.
  const q = searchParams.get('q') ?? options.initialSearch ?? '';
  const sortParam = searchParams.get('sort');
  // 'none' records that the user cleared the sort, so the declared default does not come back.
  const sort: SortState | null =
    sortParam === 'none'
      ? null
      : sortParam && sortable.has(sortParam)
        ? { field: sortParam, dir: searchParams.get('dir') === 'desc' ? 'desc' : 'asc' }
        : options.initialSort !== undefined
          ? options.initialSort
          : (entity.defaultSort ?? null);
  // The URL's own filters (a wallet's statement), then the caller's fixed ones, which the user cannot lift.
  const filterKey = JSON.stringify({ ...urlFilters(entity, searchParams), ...(options.fixedFilters ?? {}) });
  // A notification opened from the bell: its rule's conditions (the server checks them against the declaration).
  const rule = searchParams.get('rule') || undefined;
  return { page, size, q, sort, filterKey, rule };
}

/** The cache key of one page of a list; the headers choose the page whose permission reads the rows. */
function listPageKey(entityName: string, params: ListParams, headerKey: string): readonly unknown[] {
  return [...listQueryKey(entityName), params, headerKey];
}

function paramsOf({ q, sort, page, size, filterKey, rule }: ReturnType<typeof urlListState>): ListParams {
  return {
    q,
    sort: sort?.field,
    dir: sort?.dir,
    page,
    size,
    ...(filterKey === '{}' ? {} : { filters: JSON.parse(filterKey) as Record<string, string> }),
    ...(rule ? { rule } : {}),
  };
}

/**
 * The query of an entity's own list page (not a report's shaped list) as the page at this address will ask
 * it: the start of a visit fetches it beside the page's code, and the page then finds it in the cache.
 */
export function ownListQuery(entity: AnyEntity, searchParams: URLSearchParams): { queryKey: readonly unknown[]; url: string; query: Record<string, string | number | undefined> } {
  const params = paramsOf(urlListState(entity, chosenColumns(entity, []), searchParams, {}));
  return { queryKey: listPageKey(entity.name, params, JSON.stringify({})), url: entityUrl(entity), query: listQuery(params) };
}

/**
 * Headless list controller (react-admin style): owns paging, sort, quick search and selection and fetches
 * one server page at a time. State lives in the URL (q, page, size, sort, dir) so back/forward and a
 * shared link show the same rows; the grid adapter only renders what this returns.
 */
export function useEntityList(entity: AnyEntity, options: EntityListOptions = {}): EntityListController {
  const { fixedFilters, initialSearch = '', headers } = options;
  const columnKey = (options.columns ?? []).join(',');
  const columns = useMemo(() => chosenColumns(entity, columnKey === '' ? [] : columnKey.split(',')), [entity, columnKey]);
  const [searchParams, setSearchParams] = useSearchParams();

  const { page, size, q, sort, filterKey, rule } = urlListState(entity, columns, searchParams, options);

  const update = useCallback(
    (patch: Record<string, string | null>) => {
      setSearchParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const [k, v] of Object.entries(patch)) {
            if (v === null || (v === '' && k !== 'q')) next.delete(k);
            else next.set(k, v);
          }
          return next;
        },
        { replace: true },
      );
    },
    [setSearchParams],
  );

  const [searchText, setSearchText] = useState(q);
  const [debounced] = useDebouncedValue(searchText, SEARCH_DEBOUNCE_MS);
  useEffect(() => {
    if (debounced.trim() !== q.trim()) update({ q: debounced.trim() || (initialSearch ? '' : null), page: null });
    // Only a settled change of the typed text may move the URL; URL changes must not retrigger this.
  }, [debounced]);

  // sort is a new object each render: its field and direction are what matter.
  const sortField = sort?.field;
  const sortDir = sort?.dir;
  const params: ListParams = useMemo(
    () => paramsOf({ q, sort: sortField && sortDir ? { field: sortField, dir: sortDir } : null, page, size, filterKey, rule }),
    [q, sortField, sortDir, page, size, filterKey, rule],
  );
  const headerKey = JSON.stringify(headers ?? {});

  // A shaped list (a report) is not the entity's own grid: the grid's remembered place stays its own.
  const shaped = !!fixedFilters || columnKey !== '' || !!headers || initialSearch !== '' || options.initialSort !== undefined;
  useEffect(() => {
    if (!shaped) lastSearchByEntity.set(entity.name, searchParams.toString() ? `?${searchParams.toString()}` : '');
  }, [entity.name, searchParams, shaped]);

  const query = useQuery({
    queryKey: listPageKey(entity.name, params, headerKey),
    // TanStack aborts this signal when the key changes and nobody waits for the old page any more, so a
    // fast typist or pager does not leave stale responses racing the current one.
    queryFn: ({ signal }) =>
      http.get<ListResponse>(entityUrl(entity), { query: listQuery(params), signal, headers: JSON.parse(headerKey) as Record<string, string> }),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
    retry: false,
  });

  const rows = useMemo(() => query.data?.rows ?? [], [query.data]);
  const total = query.data?.total ?? 0;
  const totalExact = query.data?.total_exact !== false;
  const pageCount = pagesFor(total, totalExact, page, size, rows.length);

  // After deletes the current page may lie past the end; step back to the last one that exists.
  useEffect(() => {
    if (query.data && !query.isPlaceholderData && page > pageCount) update({ page: pageCount === 1 ? null : String(pageCount) });
  }, [query.data, query.isPlaceholderData, page, pageCount, update]);

  const [selection, setSelection] = useState<EntityRow[]>([]);
  useEffect(() => setSelection([]), [params]);

  const queryClient = useQueryClient();
  const replaceRow = useCallback(
    (row: EntityRow) => {
      const id = String(row[entity.key]);
      queryClient.setQueryData<ListResponse>(listPageKey(entity.name, params, headerKey), (old) =>
        old ? { ...old, rows: old.rows.map((r) => (String(r[entity.key]) === id ? row : r)) } : old,
      );
    },
    [queryClient, entity.key, entity.name, params, headerKey],
  );

  const refetch = query.refetch;
  const refresh = useCallback(async () => {
    await refetch({ cancelRefetch: true });
  }, [refetch]);

  return {
    entity,
    columns,
    rows,
    total,
    totalExact,
    page,
    size,
    pageCount,
    setPage: (p) => update({ page: p <= 1 ? null : String(Math.min(p, pageCount)) }),
    setSize: (s) => update({ size: s === DEFAULT_PAGE_SIZE ? null : String(s), page: null }),
    sort,
    setSort: (s) => update({ sort: s ? s.field : 'none', dir: s ? s.dir : null, page: null }),
    searchText,
    setSearchText,
    selection,
    setSelection,
    loading: query.isPending,
    fetching: query.isFetching,
    failed: query.isError,
    refresh,
    replaceRow,
    params,
  };
}
