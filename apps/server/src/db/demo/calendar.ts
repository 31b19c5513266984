import type { Rng } from './prng';

/** Dates of the demo's academic year. Festivals that move are looked up; other years fall back to a typical date. */

const pad = (n: number): string => String(n).padStart(2, '0');
export const iso = (y: number, m: number, d: number): string => `${y}-${pad(m)}-${pad(d)}`;

/** The calendar year of month m (1-12) in the academic year that starts in startMonth of startYear. */
export const yearOf = (startYear: number, startMonth: number, m: number): number => (m >= startMonth ? startYear : startYear + 1);

export const inYear = (startYear: number, startMonth: number, m: number, d: number): string => iso(yearOf(startYear, startMonth, m), m, d);

export function addDays(date: string, days: number): string {
  const t = new Date(`${date}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() + days);
  return t.toISOString().slice(0, 10);
}

// Tamil Nadu government holiday lists; a missing year takes the typical date after '??'.
const vinayagar: Record<number, string> = { 2024: '09-07', 2025: '08-27', 2026: '09-14', 2027: '09-04', 2028: '08-23', 2029: '09-11', 2030: '09-01' };
const ayudhaPooja: Record<number, string> = { 2024: '10-11', 2025: '10-01', 2026: '10-19', 2027: '10-08', 2028: '09-27', 2029: '10-16', 2030: '10-05' };
const deepavali: Record<number, string> = { 2024: '10-31', 2025: '10-20', 2026: '11-08', 2027: '10-29', 2028: '10-17', 2029: '11-05', 2030: '10-26' };
const ramzan: Record<number, string> = { 2025: '03-31', 2026: '03-20', 2027: '03-10', 2028: '02-27', 2029: '02-14', 2030: '02-04', 2031: '01-24' };

const moving = (table: Record<number, string>, year: number, typical: string): string => `${year}-${table[year] ?? typical}`;

export type HolidayType = 'Public' | 'Festival' | 'Institute' | 'Exam';
export interface HolidayRow {
  name: string;
  from: string;
  to: string;
  type: HolidayType;
}

/** The holidays of the academic year starting in June/July of y (names unique within the year). */
export function holidaysOf(y: number, kind: 'school' | 'college'): HolidayRow[] {
  const one = (name: string, d: string, type: HolidayType): HolidayRow => ({ name, from: d, to: d, type });
  const ayudha = moving(ayudhaPooja, y, '10-11');
  const list: HolidayRow[] = [
    one('Independence Day', iso(y, 8, 15), 'Public'),
    one('Vinayagar Chathurthi', moving(vinayagar, y, '09-07'), 'Festival'),
    one('Gandhi Jayanti', iso(y, 10, 2), 'Public'),
    { name: 'Ayudha Pooja and Vijayadasami', from: ayudha, to: addDays(ayudha, 1), type: 'Festival' },
    one('Deepavali', moving(deepavali, y, '10-31'), 'Festival'),
    one('Christmas', iso(y, 12, 25), 'Festival'),
    { name: 'Pongal', from: iso(y + 1, 1, 14), to: iso(y + 1, 1, 16), type: 'Festival' },
    one('Republic Day', iso(y + 1, 1, 26), 'Public'),
    one('Ramzan', moving(ramzan, y + 1, '03-31'), 'Festival'),
    one('Tamil New Year', iso(y + 1, 4, 14), 'Public'),
  ];
  if (kind === 'school') {
    list.push({ name: 'Quarterly Holidays', from: iso(y, 9, 25), to: iso(y, 10, 1), type: 'Exam' });
    list.push({ name: 'Half-Yearly Vacation', from: iso(y, 12, 24), to: iso(y + 1, 1, 1), type: 'Institute' });
  } else {
    list.push({ name: 'Semester Holidays', from: iso(y, 12, 1), to: iso(y, 12, 31), type: 'Institute' });
  }
  return list.sort((a, b) => a.from.localeCompare(b.from));
}

/**
 * A pupil's date of birth from the class they are in: LKG children of the year starting in startYear are
 * 3 that June (some nearly 4), each class a year older; a college's first-year students 17 or 18. `level` is
 * the class's place (LKG = 0) or the year of study (I Year = 0). One rule for the register, last year's rows
 * and the admission forms, so a child's birthday is the same on each.
 */
export function birthDate(r: Pick<Rng, 'chance' | 'int'>, kind: 'school' | 'college', startYear: number, level: number): string {
  const ageAtJoin = kind === 'school' ? 3 : 17;
  return iso(startYear - ageAtJoin - level - (r.chance(0.4) ? 1 : 0), r.int(1, 12), r.int(1, 28));
}
