/** Academic-year labels (spec section 9): built from the start month setting, default January. */

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** 2026 -> '2026-27'; 2099 -> '2099-00' (the suffix is the end year's last two digits). */
export function academicLabel(startYear: number): string {
  return `${startYear}-${String((startYear + 1) % 100).padStart(2, '0')}`;
}

/**
 * Month number 1-12 from a number or a name ('Jun', 'june'); settings and the academic table store names,
 * so both are accepted. Anything unreadable means January, the spec's default.
 */
export function monthNumber(month: number | string | null | undefined): number {
  if (typeof month === 'number') return Number.isInteger(month) && month >= 1 && month <= 12 ? month : 1;
  if (typeof month !== 'string' || month.trim() === '') return 1;
  const asNumber = Number(month);
  if (Number.isInteger(asNumber)) return monthNumber(asNumber);
  const index = MONTHS.indexOf(month.trim().slice(0, 3).toLowerCase());
  return index === -1 ? 1 : index + 1;
}

/** The start year of the academic year that contains `today`. */
export function currentAcademicStartYear(today: Date, startMonth: number | string = 1): number {
  const month = today.getMonth() + 1;
  return month >= monthNumber(startMonth) ? today.getFullYear() : today.getFullYear() - 1;
}

export function currentAcademicLabel(today: Date, startMonth: number | string = 1): string {
  return academicLabel(currentAcademicStartYear(today, startMonth));
}
