import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import { toFixedString } from './decimal';

dayjs.extend(customParseFormat);

/** Display formats of spec section 9. */
export const DATE_FORMAT = 'YYYY/MMM/DD';
/**
 * The spec's hh:mm:ss is a 12-hour clock; shown without the AM/PM that its date-time format carries, an
 * evening drop at 15:45 read as 03:45:00. Times keep hh:mm:ss and add the meridiem (decisions.md).
 */
export const TIME_FORMAT = 'hh:mm:ss A';
export const DATE_TIME_FORMAT = 'YYYY/MMM/DD hh:mm:ss A';
export const EXPORT_STAMP_FORMAT = 'DD_MM_YYYY hh:mm:ss A';

type DateInput = string | number | Date | null | undefined;

const TIME_ONLY = /^\d{1,2}:\d{2}(:\d{2})?$/;

function parse(value: DateInput): dayjs.Dayjs | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'string' && TIME_ONLY.test(value.trim())) {
    const t = dayjs(value.trim(), ['HH:mm:ss', 'H:mm:ss', 'HH:mm', 'H:mm'], true);
    return t.isValid() ? t : null;
  }
  const d = dayjs(value);
  return d.isValid() ? d : null;
}

/** '2026-03-05' -> '2026/Mar/05' (month name in the current dayjs locale); '' for empty or invalid input. */
export function formatDate(value: DateInput): string {
  return parse(value)?.format(DATE_FORMAT) ?? '';
}

/** '14:05:09' or an ISO date-time -> '02:05:09 PM': the spec's 12-hour hh:mm:ss with its meridiem. */
export function formatTime(value: DateInput): string {
  return parse(value)?.format(TIME_FORMAT) ?? '';
}

export function formatDateTime(value: DateInput): string {
  return parse(value)?.format(DATE_TIME_FORMAT) ?? '';
}

/** Date-time part of an export file name. */
export function formatExportStamp(value: DateInput = new Date()): string {
  return parse(value)?.format(EXPORT_STAMP_FORMAT) ?? '';
}

/** '12345678' -> '1,23,45,678': the last three digits, then pairs (the Indian lakh/crore grouping). */
function groupIndian(intPart: string): string {
  if (intPart.length <= 3) return intPart;
  const head = intPart.slice(0, -3).replace(/\B(?=(\d{2})+(?!\d))/g, ',');
  return `${head},${intPart.slice(-3)}`;
}

/**
 * Money as every screen shows it: 2 decimals and Indian grouping, '100000.5' -> '1,00,000.50', rounded half
 * away from zero on the decimal string itself (no float): '1.005' -> '1.01'. The one money format of the app
 * (grids, forms, dashboard, workflow screens). `{ group: false }` gives the bare '100000.50' an amount input
 * starts from, since a typed value is never grouped. Empty or unreadable input gives ''.
 */
export function formatMoney(value: string | number | null | undefined, opts: { group?: boolean } = {}): string {
  const fixed = toFixedString(value, 2);
  if (fixed === null) return '';
  if (opts.group === false) return fixed;
  const negative = fixed.startsWith('-');
  const [intPart = '0', frac = '00'] = (negative ? fixed.slice(1) : fixed).split('.');
  return `${negative ? '-' : ''}${groupIndian(intPart)}.${frac}`;
}
