import type { AnyEntity } from '@campus/entities/define';
import i18next from 'i18next';
import { http } from '../lib/http-client';
import { toast } from '../lib/toast';
import { entityUrl, listQuery, type EntityRow, type ListParams, type ListResponse } from './entity-api';
import type { ColumnSpec } from './entity-columns';
import type { Translate } from './entity-labels';
import { downloadWorkbook, newWorkbook } from './excel-loader';
import { buildSheet, EXPORT_ROW_CAP, exportFileName } from './export-rows';

// The list route refuses sizes above 500 (apps/server list-query MAX_PAGE_SIZE).
const FETCH_PAGE_SIZE = 500;

export interface ExportRequest {
  entity: AnyEntity;
  /** Visible columns in on-screen order. */
  columns: ColumnSpec[];
  selection: EntityRow[];
  /** Search and sort of the grid; paging is ignored. */
  params: ListParams;
  signal?: AbortSignal;
  /** The language on screen; the app's i18next when not given (the list page runs under it). */
  t?: Translate;
  /** Headers of the grid's own reads (the page they are read under); the audit record goes under them too. */
  headers?: Readonly<Record<string, string>>;
  /** Sheet and file name (a saved report's name); the entity's label when not given. */
  title?: string;
}

/** The app's own i18next; English defaults until it has started (a value is never a raw key). */
const appTranslate: Translate = (key, options) => (i18next.isInitialized ? i18next.t(key, options) : options.defaultValue);

export interface ExportResult {
  count: number;
  /** Matching rows the cap left out. */
  skipped: number;
}

/**
 * Reads every row matching the grid's search, page by page. The server may serve fewer rows per page than
 * asked (it bounds page size); the first answer tells the real page size and later pages follow it.
 */
async function fetchMatchingRows(
  entity: AnyEntity,
  params: ListParams,
  signal?: AbortSignal,
  headers?: Readonly<Record<string, string>>,
): Promise<{ rows: EntityRow[]; total: number; totalExact: boolean }> {
  const rows: EntityRow[] = [];
  let size = FETCH_PAGE_SIZE;
  let total = 0;
  let totalExact = true;
  for (let page = 1; rows.length < EXPORT_ROW_CAP; page++) {
    const res = await http.get<ListResponse>(entityUrl(entity), { query: listQuery({ ...params, page, size }), signal, headers: headers && { ...headers } });
    total = res.total;
    totalExact = res.total_exact !== false;
    if (page === 1 && res.rows.length > 0 && res.rows.length < size && res.rows.length < total) size = res.rows.length;
    rows.push(...res.rows);
    // An inexact total is only a lower bound: the end is the first short page.
    if (res.rows.length < size || (totalExact && rows.length >= total)) break;
  }
  // Past an estimate, the rows read are the best count there is (at least the estimate).
  return { rows: rows.slice(0, EXPORT_ROW_CAP), total: totalExact ? total : Math.max(total, rows.length), totalExact };
}

/**
 * Spec section 9: the selected rows when more than one is selected, otherwise every row matching the
 * current search. Built in the browser; the server is told afterwards so the export is audited.
 */
export async function exportToExcel(req: ExportRequest): Promise<ExportResult> {
  const { entity, columns } = req;
  let rows: EntityRow[];
  let total: number;
  let totalExact = true;
  if (req.selection.length > 1) {
    rows = req.selection;
    total = rows.length;
  } else {
    ({ rows, total, totalExact } = await fetchMatchingRows(entity, req.params, req.signal, req.headers));
  }

  // Values as the grid shows them (option labels, Yes/No in the language on screen), under its headers.
  const sheetData = buildSheet(columns, rows, { entity, t: req.t ?? appTranslate });
  const wb = await newWorkbook();
  const title = req.title?.trim() || entity.label;
  // Excel refuses these characters in sheet names.
  const ws = wb.addWorksheet(title.replace(/[\\/?*[\]:]/g, ' ').slice(0, 31), { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = sheetData.header.map((label, i) => ({
    header: label,
    width: Math.min(50, Math.max(12, label.length + 4)),
    style: sheetData.numFmts[i] ? { numFmt: sheetData.numFmts[i] } : {},
  }));
  ws.getRow(1).font = { bold: true };
  ws.addRows(sheetData.rows);
  await downloadWorkbook(wb, exportFileName(title, new Date()));

  // Best effort: the audit route may not exist on older servers, and the file is already saved.
  http.post('/api/action_history/export', { entity: entity.name, count: rows.length }, { silent: true, headers: req.headers && { ...req.headers } }).catch(() => undefined);

  // At the cap with an inexact total, rows were certainly left out even if the estimate says otherwise.
  const skipped = Math.max(0, total - rows.length, !totalExact && rows.length >= EXPORT_ROW_CAP ? 1 : 0);
  if (skipped > 0) {
    toast.warning(
      `Exported the first ${rows.length.toLocaleString()} of ${total.toLocaleString()}${totalExact ? '' : '+'} rows (the limit is ${EXPORT_ROW_CAP.toLocaleString()}). Narrow the search to export the rest.`,
    );
  }
  return { count: rows.length, skipped };
}
