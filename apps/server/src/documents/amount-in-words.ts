const ONES = [
  '', 'One', 'Two', 'Three', 'Four', 'Five', 'Six', 'Seven', 'Eight', 'Nine', 'Ten',
  'Eleven', 'Twelve', 'Thirteen', 'Fourteen', 'Fifteen', 'Sixteen', 'Seventeen', 'Eighteen', 'Nineteen',
];
const TENS = ['', '', 'Twenty', 'Thirty', 'Forty', 'Fifty', 'Sixty', 'Seventy', 'Eighty', 'Ninety'];

/** 0-99 in words ('' for 0). */
function belowHundred(n: number): string {
  if (n < 20) return ONES[n];
  const rest = n % 10;
  return rest ? `${TENS[Math.floor(n / 10)]} ${ONES[rest]}` : TENS[Math.floor(n / 10)];
}

/** 0-999 in words ('' for 0); no 'and' inside, the way Indian receipts print it. */
function belowThousand(n: number): string {
  const hundreds = Math.floor(n / 100);
  const rest = belowHundred(n % 100);
  if (!hundreds) return rest;
  return rest ? `${ONES[hundreds]} Hundred ${rest}` : `${ONES[hundreds]} Hundred`;
}

/**
 * Whole rupees in the Indian system: crore (10^7), lakh (10^5), thousand, hundred. Digits arrive as a string
 * so no size is lost; above 99 crore the crores are themselves counted in lakhs and thousands ('One Thousand
 * Crore'), as Indian cheques write it.
 */
function indianWords(digits: string): string {
  const d = digits.replace(/^0+/, '');
  if (d === '') return '';
  if (d.length > 7) {
    const crores = indianWords(d.slice(0, -7));
    const rest = indianWords(d.slice(-7));
    return rest ? `${crores} Crore ${rest}` : `${crores} Crore`;
  }
  const n = Number(d);
  const parts: string[] = [];
  const lakhs = Math.floor(n / 100_000);
  const thousands = Math.floor((n % 100_000) / 1000);
  const rest = n % 1000;
  if (lakhs) parts.push(`${belowHundred(lakhs)} Lakh`);
  if (thousands) parts.push(`${belowHundred(thousands)} Thousand`);
  if (rest) parts.push(belowThousand(rest));
  return parts.join(' ');
}

const AMOUNT = /^(\d+)(?:\.(\d{1,2}))?$/;

/**
 * An amount as a receipt writes it: '4475.50' -> 'Rupees Four Thousand Four Hundred Seventy Five and Fifty
 * Paise Only'. Takes the decimal string the database gives (never a float, so 0.1 + 0.2 cannot creep in);
 * a negative or malformed amount is a programming error, not something to print.
 */
export function amountInWords(amount: string): string {
  const m = AMOUNT.exec(amount.trim());
  if (!m) throw new Error(`not an amount: ${amount}`);
  const rupees = indianWords(m[1]);
  const paise = belowHundred(Number((m[2] ?? '').padEnd(2, '0')));
  if (!rupees && !paise) return 'Rupees Zero Only';
  if (!rupees) return `${paise} Paise Only`;
  return paise ? `Rupees ${rupees} and ${paise} Paise Only` : `Rupees ${rupees} Only`;
}
