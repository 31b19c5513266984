import { describe, expect, it } from 'vitest';
import { academicLabel, currentAcademicLabel, currentAcademicStartYear, monthNumber } from './academic-label';

describe('academicLabel', () => {
  it('formats YYYY-YY', () => {
    expect(academicLabel(2026)).toBe('2026-27');
    expect(academicLabel(2009)).toBe('2009-10');
    expect(academicLabel(2099)).toBe('2099-00');
  });
});

describe('monthNumber', () => {
  it('reads numbers and names, defaulting to January', () => {
    expect(monthNumber(6)).toBe(6);
    expect(monthNumber('Jun')).toBe(6);
    expect(monthNumber('june')).toBe(6);
    expect(monthNumber('12')).toBe(12);
    expect(monthNumber(undefined)).toBe(1);
    expect(monthNumber('')).toBe(1);
    expect(monthNumber(13)).toBe(1);
    expect(monthNumber('Smarch')).toBe(1);
  });
});

describe('currentAcademicStartYear', () => {
  it('is the calendar year with the default January start', () => {
    expect(currentAcademicStartYear(new Date(2026, 0, 1))).toBe(2026);
    expect(currentAcademicStartYear(new Date(2026, 11, 31))).toBe(2026);
  });

  it('rolls back before the start month', () => {
    expect(currentAcademicStartYear(new Date(2026, 4, 31), 'Jun')).toBe(2025);
    expect(currentAcademicStartYear(new Date(2026, 5, 1), 'Jun')).toBe(2026);
    expect(currentAcademicStartYear(new Date(2027, 2, 15), 6)).toBe(2026);
  });

  it('gives the label too', () => {
    expect(currentAcademicLabel(new Date(2026, 6, 1), 'Jun')).toBe('2026-27');
    expect(currentAcademicLabel(new Date(2026, 1, 1), 'Jun')).toBe('2025-26');
  });
});
