/**
 * Money as whole paise, so sums and comparisons are exact integers (never float rupees). Amounts travel as
 * decimal strings with at most 2 places ('1234.50'); every amount of the product fits a safe integer.
 */
export function toPaise(v: string | number | null | undefined): number {
  if (v === null || v === undefined || v === '') return 0;
  const s = String(v).trim();
  const m = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(s);
  if (!m) throw new Error(`not an amount: ${s}`);
  const p = Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0'));
  return m[1] === '-' ? -p : p;
}

export function fromPaise(p: number): string {
  const sign = p < 0 ? '-' : '';
  const a = Math.abs(p);
  return `${sign}${Math.floor(a / 100)}.${String(a % 100).padStart(2, '0')}`;
}
