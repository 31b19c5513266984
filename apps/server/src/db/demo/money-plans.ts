/**
 * The demo's fee mapping and income/expense entries, as data. Amounts are decimal strings with two places,
 * exactly as the API carries money, so no float ever rounds a rupee.
 */

export interface FeeLine {
  group: string;
  type: string;
  classes: readonly string[];
  /** Joined this year (fee_amt) and promoted from last year (fee_amt_aftr_prmtn). */
  newAmt: string;
  oldAmt: string;
}

export interface ExpenseLine {
  sub: string;
  /** Month and day within the academic year; July to September, inside both demo years' first months. */
  at: [number, number];
  amt: string;
  desc: string;
}

const pre = ['LKG', 'UKG'];
const primary = ['I', 'II', 'III', 'IV', 'V'];
const upper = ['VI', 'VII', 'VIII'];
const school = [...pre, ...primary, ...upper];

const same = (group: string, type: string, classes: readonly string[], amt: string): FeeLine => ({ group, type, classes, newAmt: amt, oldAmt: amt });

// Tuition follows the fee type descriptions: LKG-UKG Rs 18,500.00, I-V Rs 24,000.00, VI-VIII Rs 28,500.00 a year.
const schoolFees: readonly FeeLine[] = [
  same('Term 1', 'Tuition Fee', pre, '6500.00'),
  same('Term 2', 'Tuition Fee', pre, '6000.00'),
  same('Term 3', 'Tuition Fee', pre, '6000.00'),
  ...['Term 1', 'Term 2', 'Term 3'].flatMap((t) => [same(t, 'Tuition Fee', primary, '8000.00'), same(t, 'Tuition Fee', upper, '9500.00')]),
  // Paid once: a promoted child owes nothing for admission.
  { group: 'Annual Charges', type: 'Admission Fee', classes: school, newAmt: '5000.00', oldAmt: '0.00' },
  same('Annual Charges', 'Examination Fee', school, '750.00'),
  same('Annual Charges', 'Library Fee', school, '300.00'),
  same('Annual Charges', 'Computer Fee', [...primary, ...upper], '1500.00'),
  same('Annual Charges', 'Sports Fee', school, '500.00'),
  same('Annual Charges', 'Books and Stationery', pre, '3250.00'),
  same('Annual Charges', 'Books and Stationery', primary, '4475.50'),
  same('Annual Charges', 'Books and Stationery', upper, '5800.00'),
  // A promoted child replaces one set and the sports uniform, not both sets.
  { group: 'Annual Charges', type: 'Uniform Fee', classes: school, newAmt: '2450.00', oldAmt: '1625.00' },
];

const bsc = ['B.Sc. Computer Science', 'B.Sc. Mathematics'];
const college = [...bsc, 'B.Com.', 'B.A. English'];

const collegeFees: readonly FeeLine[] = [
  ...['Odd Semester Fees', 'Even Semester Fees'].flatMap((g) => [
    same(g, 'Tuition Fee', bsc, '22500.00'),
    same(g, 'Tuition Fee', ['B.Com.'], '19000.00'),
    same(g, 'Tuition Fee', ['B.A. English'], '15500.00'),
    same(g, 'Laboratory Fee', bsc, '2000.00'),
  ]),
  { group: 'Odd Semester Fees', type: 'Admission Fee', classes: college, newAmt: '3000.00', oldAmt: '0.00' },
  same('Odd Semester Fees', 'Library Fee', college, '500.00'),
  same('Examination Fees', 'Examination Fee', college, '1250.00'),
];

const commonExpenses: readonly ExpenseLine[] = [
  { sub: 'Electricity Charges', at: [7, 10], amt: '48672.50', desc: 'TANGEDCO bill, May and June' },
  { sub: 'Electricity Charges', at: [9, 10], amt: '52318.75', desc: 'TANGEDCO bill, July and August' },
  { sub: 'Water Charges', at: [7, 12], amt: '6250.00', desc: 'Water supply, quarterly' },
  { sub: 'Library Books', at: [7, 20], amt: '38415.75', desc: 'New titles for the reading room' },
  { sub: 'Sports Equipment', at: [8, 5], amt: '22980.00', desc: 'Cricket kits, footballs and nets' },
  { sub: 'Stationery and Printing', at: [7, 3], amt: '17645.40', desc: 'Registers, receipt books and report cards' },
  { sub: 'Telephone and Internet', at: [7, 25], amt: '3539.82', desc: 'Broadband and phone lines, July' },
  { sub: 'Independence Day Celebration', at: [8, 14], amt: '12500.00', desc: 'Sweets, flags and prizes' },
  { sub: 'Audit Fees', at: [9, 20], amt: '35400.00', desc: 'Statutory audit of last year, first instalment' },
  { sub: 'Canteen Rent', at: [7, 5], amt: '25000.00', desc: 'Canteen rent, July' },
  { sub: 'Canteen Rent', at: [8, 5], amt: '25000.00', desc: 'Canteen rent, August' },
  { sub: 'Hall Rent', at: [8, 24], amt: '15000.00', desc: 'Auditorium hired for a reception' },
  { sub: 'Bank Interest', at: [9, 30], amt: '8742.16', desc: 'Savings account interest, half year' },
];

const salaries = (teaching: string, other: string, pf: string): ExpenseLine[] => [
  { sub: 'Teaching Staff Salary', at: [7, 31], amt: teaching, desc: 'Salaries for July' },
  { sub: 'Teaching Staff Salary', at: [8, 31], amt: teaching, desc: 'Salaries for August' },
  { sub: 'Non-Teaching Staff Salary', at: [7, 31], amt: other, desc: 'Salaries for July' },
  { sub: 'Non-Teaching Staff Salary', at: [8, 31], amt: other, desc: 'Salaries for August' },
  { sub: 'Provident Fund Contribution', at: [8, 15], amt: pf, desc: "Employer's share for July" },
];

export const feePlan = { school: schoolFees, college: collegeFees } as const;

export const expensePlan = {
  school: [...salaries('1248500.00', '186400.00', '149835.00'), ...commonExpenses],
  college: [...salaries('962750.00', '121300.00', '115530.00'), ...commonExpenses],
} as const;
