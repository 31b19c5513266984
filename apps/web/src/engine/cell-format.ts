import type { FieldKind } from '@campus/entities/define';
import { formatDate, formatDateTime, formatMoney, formatTime } from '../lib/format';

/** The text a grid cell or a read-only form value shows (spec section 9 formats). */
export function formatCell(kind: FieldKind, value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  switch (kind) {
    case 'bool':
      return value === true || value === 1 || value === '1' || value === 'true' ? 'Yes' : 'No';
    case 'money':
      return formatMoney(String(value));
    case 'date':
      return formatDate(String(value));
    case 'time':
      return formatTime(String(value));
    case 'datetime':
      return formatDateTime(String(value));
    case 'json':
      return typeof value === 'string' ? value : JSON.stringify(value);
    default:
      return String(value);
  }
}
