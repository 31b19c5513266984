import type { AnyEntity } from '@campus/entities/define';
import { formatExportStamp } from '../lib/format';
import { formatColumnCell } from './cell-format';
import type { ColumnSpec } from './entity-columns';
import type { Translate } from './entity-labels';

/** Enough for any real list of one institute, small enough that the browser builds the file in seconds. */
export const EXPORT_ROW_CAP = 50_000;

/** Spec section 9: '{Entity label}_{DD_MM_YYYY hh:mm:ss A}.xlsx'. */
export function exportFileName(entityLabel: string, at: Date): string {
  return `${entityLabel}_${formatExportStamp(at)}.xlsx`;
}

export type ExportCell = string | number | Date | null;

export interface ExportSheet {
  header: string[];
  /** Excel number format per column (undefined = General). */
  numFmts: (string | undefined)[];
  rows: ExportCell[][];
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})/;

/** Whose rows are exported and in which language: the grid's entity and the language on screen. */
export interface ExportContext {
  entity: AnyEntity;
  /** Without it, English (declared option labels, Yes/No). */
  t?: Translate;
}

/**
 * One cell as Excel should hold it: amounts and counts as numbers so they can be summed, dates as real
 * dates (at UTC midnight, which is how Excel serials are written) shown YYYY/MMM/DD; every other cell as
 * the grid words it (Yes/No, option labels, links by name), through the same formatting.
 */
export function exportCell(col: ColumnSpec, value: unknown, ctx: ExportContext): ExportCell {
  if (value === null || value === undefined || value === '') return null;
  switch (col.kind) {
    case 'money':
    case 'number':
    case 'code': {
      const n = Number(value);
      return Number.isFinite(n) ? n : String(value);
    }
    case 'date': {
      const m = DATE_RE.exec(String(value));
      return m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : String(value);
    }
    default:
      return formatColumnCell(ctx.entity, col.colId, value, ctx.t);
  }
}

/**
 * Excel's number format for money in the screen's Indian grouping (1,00,000.50): Excel has no lakh grouping
 * of its own, so the commas are placed by size, for crores, for lakhs and below. The cell stays a number.
 */
export const INDIAN_MONEY_FORMAT = '[>=10000000]##\\,##\\,##\\,##0.00;[>=100000]##\\,##\\,##0.00;##,##0.00';

function numFmtOf(col: ColumnSpec): string | undefined {
  if (col.kind === 'money') return INDIAN_MONEY_FORMAT;
  if (col.kind === 'date') return 'yyyy/mmm/dd';
  return undefined;
}

export function buildSheet(columns: readonly ColumnSpec[], rows: readonly Record<string, unknown>[], ctx: ExportContext): ExportSheet {
  return {
    header: columns.map((c) => c.label),
    numFmts: columns.map(numFmtOf),
    rows: rows.map((r) => columns.map((c) => exportCell(c, r[c.valueField], ctx))),
  };
}
