/** When a backup row runs, from its frequency (bckp_typ) and 'Run At' (bckp_typ_vl). */

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
/** Without a time the backups run at 02:00, when a school office is closed. */
const DEFAULT_TIME = { h: 2, m: 0 };

export type BackupTiming = { cron: string } | { refusal: string };

function timeOf(text: string | undefined): { h: number; m: number } | null {
  if (text === undefined || text === '') return DEFAULT_TIME;
  const t = /^([01]?\d|2[0-3]):([0-5]\d)$/.exec(text);
  return t ? { h: Number(t[1]), m: Number(t[2]) } : null;
}

/**
 * Daily: a time, '02:00' (24-hour clock). Weekly: a weekday, 'Sunday' or 'Sun', optionally with a time
 * ('Sunday 03:30'). Monthly: a day of the month 1-31, optionally with a time ('1 03:30'); a day a month lacks
 * (31 in April) is skipped that month, as the calendar has it. The cron runs in the server's time zone.
 */
export function backupTiming(typ: string, value: string | null | undefined): BackupTiming {
  const v = (value ?? '').trim().replace(/\s+/g, ' ');
  if (typ === 'Daily') {
    const t = timeOf(v);
    if (!t) return { refusal: `'Run At' of a daily backup is a time like 02:00 (24-hour clock), not '${v}'.` };
    return { cron: `${t.m} ${t.h} * * *` };
  }
  const [first = '', time] = v.split(' ', 2);
  if (typ === 'Weekly') {
    const name = first.toLowerCase();
    const day = WEEKDAYS.findIndex((d) => name.length >= 3 && d.startsWith(name));
    const t = timeOf(time);
    if (day < 0 || !t || v.split(' ').length > 2) return { refusal: `'Run At' of a weekly backup is a weekday like Sunday (optionally with a time: Sunday 02:00), not '${v}'.` };
    return { cron: `${t.m} ${t.h} * * ${day}` };
  }
  if (typ === 'Monthly') {
    const day = /^\d{1,2}$/.test(first) ? Number(first) : NaN;
    const t = timeOf(time);
    if (!(day >= 1 && day <= 31) || !t || v.split(' ').length > 2) return { refusal: `'Run At' of a monthly backup is a day of the month from 1 to 31 (optionally with a time: 1 02:00), not '${v}'.` };
    return { cron: `${t.m} ${t.h} ${day} * *` };
  }
  return { refusal: `The frequency '${typ}' is not one of Daily, Weekly, Monthly.` };
}

/** The file name a pattern gives at a moment: YYYY, MM, DD, HH, mm, ss replaced; anything unsafe becomes '_'. */
export function backupFileStem(pattern: string | null | undefined, at: Date): string {
  const p = (pattern ?? '').trim() || 'campus_YYYYMMDD_HHmm';
  const two = (n: number): string => String(n).padStart(2, '0');
  const stem = p
    .replace(/YYYY/g, String(at.getFullYear()))
    .replace(/MM/g, two(at.getMonth() + 1))
    .replace(/DD/g, two(at.getDate()))
    .replace(/HH/g, two(at.getHours()))
    .replace(/mm/g, two(at.getMinutes()))
    .replace(/ss/g, two(at.getSeconds()))
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/^\.+/, '');
  return stem.slice(0, 120) || 'campus';
}
