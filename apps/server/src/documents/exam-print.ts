import type { Column, Content } from 'pdfmake/interfaces';
import type { RequestContext } from '../access/request-context';
import { rows, sql, type DbOrTx } from '../db/client';
import { localDateTime } from '../lib/clock';
import { printDate, printTime, type PrintSetup } from './pdf-render';

/**
 * Small pieces the exam documents (mark sheet, report card) and the certificates share: the year's label,
 * marks written as people write them, and the 'printed on ... by ...' footer.
 */

/** '2025-26' of the request's academic year, as the web labels it (apps/web/src/lib/academic-label.ts). */
export async function academicYearLabel(db: DbOrTx, acdmCd: number | null): Promise<string> {
  if (acdmCd === null) return '';
  const [y] = await rows<{ s: number; e: number }>(db, sql`SELECT acdm_strt_yr AS s, acdm_end_yr AS e FROM academic WHERE acdm_cd = ${acdmCd}`);
  if (!y) return '';
  const start = Number(y.s);
  const end = Number(y.e);
  return end > start ? `${start}-${String(end % 100).padStart(2, '0')}` : String(start);
}

/** '45.50' -> '45.5', '90.00' -> '90': the mark list screen's form (marks-model formatMarks). */
export function printMarks(v: string | null | undefined): string {
  if (v === null || v === undefined || v === '') return '';
  if (!/^\d+(\.\d+)?$/.test(v)) return v;
  return v.includes('.') ? v.replace(/0+$/, '').replace(/\.$/, '') : v;
}

/** The bottom line of each page: when and by whom it was printed, in the user's language. */
export function printedBy(setup: PrintSetup, ctx: RequestContext): string {
  const now = localDateTime();
  return setup.t('printed_by', { date: printDate(now.date, setup.lang), time: printTime(now.time), user: ctx.user.usr_full_nm });
}

/** Signature lines across the foot of a document, the first at the left and the last at the right. */
export function signatures(who: readonly string[], small: boolean): Content {
  const line = (text: string): Column => ({
    width: small ? 110 : 140,
    stack: [{ canvas: [{ type: 'line', x1: 0, y1: 0, x2: small ? 110 : 140, y2: 0, lineWidth: 0.5 }] }, { text, alignment: 'center', margin: [0, 2, 0, 0] }],
  });
  const cols: Column[] = [];
  who.forEach((w, i) => {
    if (i > 0) cols.push({ width: '*', text: '' });
    cols.push(line(w));
  });
  return { columns: cols, margin: [0, small ? 28 : 44, 0, 0], unbreakable: true };
}
