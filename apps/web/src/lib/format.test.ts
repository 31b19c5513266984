import dayjs from 'dayjs';
import 'dayjs/locale/ta';
import { afterEach, describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatExportStamp, formatMoney, formatTime } from './format';

afterEach(() => {
  dayjs.locale('en');
});

describe('formatDate', () => {
  it('shows YYYY/MMM/DD without shifting a date-only value', () => {
    expect(formatDate('2026-03-05')).toBe('2026/Mar/05');
    expect(formatDate(new Date(2026, 11, 31, 23, 59))).toBe('2026/Dec/31');
  });

  it('is empty for nothing or nonsense', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDate('')).toBe('');
    expect(formatDate('not a date')).toBe('');
  });

  it('follows the dayjs locale', () => {
    dayjs.locale('ta');
    expect(formatDate('2026-01-15')).not.toBe('2026/Jan/15');
    expect(formatDate('2026-01-15').startsWith('2026/')).toBe(true);
  });
});

describe('formatTime', () => {
  it("shows the spec's 12-hour hh:mm:ss with AM/PM, so an afternoon time never reads as a morning one", () => {
    expect(formatTime('09:05:07')).toBe('09:05:07 AM');
    expect(formatTime('14:05')).toBe('02:05:00 PM');
    expect(formatTime(new Date(2026, 0, 1, 8, 30, 15))).toBe('08:30:15 AM');
    expect(formatTime('25:99')).toBe('');
  });
});

describe('formatDateTime and export stamp', () => {
  it('uses the spec formats', () => {
    const d = new Date(2026, 5, 9, 15, 4, 5);
    expect(formatDateTime(d)).toBe('2026/Jun/09 03:04:05 PM');
    expect(formatExportStamp(d)).toBe('09_06_2026 03:04:05 PM');
  });
});

describe('formatMoney', () => {
  it('shows 2 decimals with Indian grouping, as the office writes amounts', () => {
    expect(formatMoney(8000)).toBe('8,000.00');
    expect(formatMoney('8000')).toBe('8,000.00');
    expect(formatMoney(100000.5)).toBe('1,00,000.50');
    expect(formatMoney('12345678.9')).toBe('1,23,45,678.90');
    expect(formatMoney('999.999')).toBe('1,000.00');
    expect(formatMoney('12')).toBe('12.00');
    expect(formatMoney('0')).toBe('0.00');
    expect(formatMoney('.5')).toBe('0.50');
  });

  it('keeps the sign in front of the grouped digits', () => {
    expect(formatMoney('-100000.5')).toBe('-1,00,000.50');
    expect(formatMoney(-8000)).toBe('-8,000.00');
    expect(formatMoney('-0.001')).toBe('0.00');
  });

  it('rounds half away from zero on the string, never through a float', () => {
    expect(formatMoney('1.005')).toBe('1.01');
    expect(formatMoney('2.675')).toBe('2.68');
    expect(formatMoney('-2.675')).toBe('-2.68');
    expect(formatMoney('0.1')).toBe('0.10');
    // Beyond a float's exact range the digits still come out as written.
    expect(formatMoney('90071992547409.935')).toBe('9,00,71,99,25,47,409.94');
    expect(formatMoney('9999999999.995')).toBe('10,00,00,00,000.00');
  });

  it('leaves grouping out for an amount input, which is typed ungrouped', () => {
    expect(formatMoney('1234.5', { group: false })).toBe('1234.50');
    expect(formatMoney(100000.5, { group: false })).toBe('100000.50');
  });

  it('is empty for nothing or nonsense', () => {
    expect(formatMoney(null)).toBe('');
    expect(formatMoney(undefined)).toBe('');
    expect(formatMoney('')).toBe('');
    expect(formatMoney('abc')).toBe('');
    expect(formatMoney('1.2.3')).toBe('');
  });
});
