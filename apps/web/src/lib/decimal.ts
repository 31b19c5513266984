/**
 * Exact decimal arithmetic on strings (money travels as decimal strings, docs/api-contract.md), so that
 * 1.005 rounds to 1.01 and 0.1 + 0.2 never shows as 0.30000000000000004.
 */

/** value = units / 10^scale */
export interface Decimal {
  units: bigint;
  scale: number;
}

const DECIMAL_RE = /^([+-]?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i;

export function parseDecimal(value: string | number | null | undefined): Decimal | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' && !Number.isFinite(value)) return null;
  const text = String(value).trim().replace(/,/g, '');
  const m = DECIMAL_RE.exec(text);
  if (!m) return null;
  const [, sign, intPart = '', fracPart = '', exp] = m;
  if (intPart === '' && fracPart === '') return null;
  let digits = `${intPart}${fracPart}`;
  let scale = fracPart.length - (exp ? Number(exp) : 0);
  if (scale < 0) {
    digits += '0'.repeat(-scale);
    scale = 0;
  }
  const units = BigInt(digits || '0');
  return { units: sign === '-' ? -units : units, scale };
}

const pow10 = (n: number): bigint => 10n ** BigInt(n);

/** num / den rounded half away from zero to an integer. */
function divRound(num: bigint, den: bigint): bigint {
  if (den < 0n) return divRound(-num, -den);
  const negative = num < 0n;
  const abs = negative ? -num : num;
  const q = (abs * 2n + den) / (den * 2n);
  return negative ? -q : q;
}

function render(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const intPart = digits.slice(0, digits.length - scale);
  const frac = scale > 0 ? `.${digits.slice(digits.length - scale)}` : '';
  return `${negative && units !== 0n ? '-' : ''}${intPart}${frac}`;
}

/** The value rounded to `places` decimals as a string, or null when it is not a number. */
export function toFixedString(value: string | number | null | undefined, places = 2): string | null {
  const d = parseDecimal(value);
  if (!d) return null;
  const units = d.scale <= places ? d.units * pow10(places - d.scale) : divRound(d.units, pow10(d.scale - places));
  return render(units, places);
}

export function isZero(d: Decimal): boolean {
  return d.units === 0n;
}

/** a * b / c rounded to `places` decimals, exactly. */
export function mulDiv(a: Decimal, b: Decimal, c: Decimal, places = 2): string {
  // value = (a.u * b.u / 10^(a.s+b.s)) / (c.u / 10^c.s)
  const num = a.units * b.units * pow10(c.scale + places);
  const den = c.units * pow10(a.scale + b.scale);
  return render(divRound(num, den), places);
}

export function decimalOf(n: number | string): Decimal {
  const d = parseDecimal(n);
  if (!d) throw new Error(`Not a number: ${n}`);
  return d;
}
