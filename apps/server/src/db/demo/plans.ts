/** What the demo school and the demo college contain, as data; demo-data.ts turns it into rows. */

export interface TeachingPool {
  classes: readonly string[];
  /** Subjects this pool teaches one section ([] when it does not teach that section). */
  subjects: (cls: string, sec: string) => readonly string[];
  /** Sections per teacher: a class teacher has 1, the Hindi teacher every upper section. */
  block: number;
  designation: string;
  /** The pool's first teacher heads the department. */
  firstDesignation?: string;
  /** Share of women among the pool's teachers. */
  women: number;
  /** The pool's first teacher is the demo TEACHER account. */
  demoTeacher?: boolean;
}

export interface StaffPlan {
  designation: string;
  role: string;
  count: number;
  women: number;
  account?: 'ACCOUNTANT' | 'LIBRARIAN';
}

export interface ExamPlan {
  name: string;
  desc: string;
  from: [number, number];
  to: [number, number];
  max: number;
  pass: number;
}

export interface InstitutePlan {
  kind: 'school' | 'college';
  domain: string;
  /** Employee ids continue the seed's EMP0001 (ADMIN) in the school. */
  empIdPrefix: string;
  empIdFirst: number;
  admissionPrefix: string;
  extraDesignations: readonly string[];
  classGroups: readonly { name: string; classes: readonly (readonly [string, string])[] }[];
  sections: (scale: number) => string[];
  studentsPerSection: (scale: number) => number;
  subjects: readonly (readonly [string, string])[];
  pools: readonly TeachingPool[];
  staff: readonly StaffPlan[];
  /** Where students live: locality and PIN code, and the city written after the locality. */
  places: readonly (readonly [string, string])[];
  city: string;
  englishMedium: number;
  joinMonth: number;
  buses: readonly (readonly [string, string])[];
  feeTypes: readonly (readonly [string, string])[];
  feeGroups: readonly { name: string; from: [number, number]; to: [number, number]; late: string; desc: string }[];
  shelves: readonly string[];
  exams: readonly ExamPlan[];
  /** Subjects that are not examined (no mark rows). */
  unexamined: readonly string[];
  circulars: readonly { sub: string; at: [number, number]; dscr: string }[];
  expenses: readonly { category: string; desc: string; subs: readonly (readonly [string, 'Income' | 'Expense'])[]; perBus?: readonly string[] }[];
}

/** The plan's classes from the lowest to the highest ('LKG' ... 'VIII'; a college's departments). */
export const classOrder = (plan: InstitutePlan): string[] => plan.classGroups.flatMap((g) => g.classes.map(([n]) => n));

const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** A, B, ... Z, then A2, B2: a larger scale adds sections rather than crowding 300 children into one. */
const sectionNames = (n: number): string[] => Array.from({ length: n }, (_, i) => `${letters[i % 26]}${i >= 26 ? Math.floor(i / 26) + 1 : ''}`);

const pre = ['LKG', 'UKG'];
const primary = ['I', 'II', 'III', 'IV', 'V'];
const upper = ['VI', 'VII', 'VIII'];
const always = (list: readonly string[]) => (): readonly string[] => list;

const expensesCommon = [
  { category: 'Salaries', desc: 'Monthly pay of all staff', subs: [['Teaching Staff Salary', 'Expense'], ['Non-Teaching Staff Salary', 'Expense'], ['Provident Fund Contribution', 'Expense']] as const },
  { category: 'Transport', desc: 'School buses', subs: [['Vehicle Insurance', 'Expense'], ['Vehicle FC and Permit', 'Expense']] as const, perBus: ['Diesel', 'Driver Salary', 'Bus Maintenance'] },
  { category: 'Maintenance', desc: 'Buildings and utilities', subs: [['Electricity Charges', 'Expense'], ['Water Charges', 'Expense'], ['Building Repairs', 'Expense'], ['Housekeeping', 'Expense']] as const },
  { category: 'Academic', desc: 'Teaching and learning', subs: [['Laboratory Equipment', 'Expense'], ['Library Books', 'Expense'], ['Sports Equipment', 'Expense'], ['Teaching Aids', 'Expense']] as const },
  { category: 'Events', desc: 'Celebrations and competitions', subs: [['Annual Day', 'Expense'], ['Sports Day', 'Expense'], ['Independence Day Celebration', 'Expense']] as const },
  { category: 'Administration', desc: 'Office running costs', subs: [['Stationery and Printing', 'Expense'], ['Telephone and Internet', 'Expense'], ['Audit Fees', 'Expense']] as const },
  { category: 'Other Income', desc: 'Receipts other than fees', subs: [['Canteen Rent', 'Income'], ['Hall Rent', 'Income'], ['Donations', 'Income'], ['Bank Interest', 'Income']] as const },
];

export const schoolPlan: InstitutePlan = {
  kind: 'school',
  domain: 'sunrise-school.example',
  empIdPrefix: 'EMP',
  empIdFirst: 2,
  admissionPrefix: 'SMS',
  extraDesignations: ['Pre-Primary Teacher', 'Computer Instructor', 'Drawing Teacher', 'Driver'],
  classGroups: [
    { name: 'Pre-Primary', classes: [['LKG', 'Lower Kindergarten'], ['UKG', 'Upper Kindergarten']] },
    { name: 'Primary', classes: primary.map((c) => [c, `Standard ${c}`] as const) },
    { name: 'Middle School', classes: upper.map((c) => [c, `Standard ${c}`] as const) },
  ],
  sections: (scale) => sectionNames(2 * scale),
  studentsPerSection: () => 30,
  subjects: [
    ['English', 'Language I'], ['Tamil', 'Language II'], ['Hindi', 'Third language, VI to VIII'], ['Mathematics', ''],
    ['Environmental Science', 'LKG to V'], ['Science', 'VI to VIII'], ['Social Science', 'VI to VIII'], ['Computer Science', 'I to VIII'],
    ['Physical Education', 'I to VIII'], ['Drawing', 'LKG to V'],
  ],
  pools: [
    { classes: pre, subjects: always(['English', 'Tamil', 'Mathematics', 'Environmental Science']), block: 1, designation: 'Pre-Primary Teacher', women: 1 },
    { classes: primary, subjects: always(['English', 'Mathematics', 'Environmental Science']), block: 1, designation: 'Secondary Grade Teacher', women: 0.85 },
    { classes: primary, subjects: always(['Tamil']), block: 5, designation: 'Secondary Grade Teacher', women: 0.7 },
    { classes: upper, subjects: always(['English']), block: 3, designation: 'BT Assistant', women: 0.7 },
    { classes: upper, subjects: always(['Tamil']), block: 6, designation: 'BT Assistant', women: 0.6 },
    { classes: upper, subjects: always(['Mathematics']), block: 2, designation: 'BT Assistant', women: 0.6, demoTeacher: true },
    { classes: upper, subjects: always(['Science']), block: 3, designation: 'BT Assistant', women: 0.6 },
    { classes: upper, subjects: always(['Social Science']), block: 3, designation: 'BT Assistant', women: 0.6 },
    { classes: upper, subjects: always(['Hindi']), block: 6, designation: 'BT Assistant', women: 0.8 },
    { classes: [...primary, ...upper], subjects: always(['Computer Science']), block: 16, designation: 'Computer Instructor', women: 0.5 },
    { classes: [...primary, ...upper], subjects: always(['Physical Education']), block: 16, designation: 'Physical Education Teacher', women: 0.3 },
    { classes: [...pre, ...primary], subjects: always(['Drawing']), block: 14, designation: 'Drawing Teacher', women: 0.5 },
  ],
  staff: [
    { designation: 'Principal', role: 'HEAD MASTER', count: 1, women: 1 },
    { designation: 'Vice Principal', role: 'TEACHER', count: 1, women: 0 },
    { designation: 'Office Assistant', role: 'OFFICE CLERK', count: 2, women: 0.5 },
    { designation: 'Accountant', role: 'ACCOUNTANT', count: 1, women: 0, account: 'ACCOUNTANT' },
    { designation: 'Librarian', role: 'LIBRARIAN', count: 1, women: 1, account: 'LIBRARIAN' },
    { designation: 'Driver', role: 'SUPPORT STAFF', count: 4, women: 0 },
  ],
  places: [
    ['Anna Nagar', '600040'], ['Anna Nagar West', '600101'], ['Mogappair', '600037'], ['Koyambedu', '600107'], ['Villivakkam', '600049'],
    ['Ambattur', '600053'], ['Padi', '600050'], ['Kilpauk', '600010'], ['Aminjikarai', '600029'], ['Shenoy Nagar', '600030'],
    ['Kolathur', '600099'], ['Perambur', '600011'], ['Arumbakkam', '600106'], ['Maduravoyal', '600095'], ['Avadi', '600054'],
  ],
  city: 'Chennai',
  englishMedium: 0.85,
  joinMonth: 6,
  buses: [
    ['Bus 1 (TN 02 AQ 4521)', 'Avadi - Ambattur OT - Padi - Anna Nagar West - School. Leaves Avadi 7.05 am.'],
    ['Bus 2 (TN 02 BK 7310)', 'Mogappair East - Mogappair West - Nolambur - Thirumangalam - School. Leaves 7.20 am.'],
    ['Bus 3 (TN 02 CE 1186)', 'Perambur - Kolathur - Villivakkam - Anna Nagar Roundtana - School. Leaves 7.10 am.'],
    ['Bus 4 (TN 02 DM 9042)', 'Maduravoyal - Koyambedu - Arumbakkam - Aminjikarai - Kilpauk - School. Leaves 7.15 am.'],
  ],
  feeTypes: [
    ['Tuition Fee', 'Per year in three terms: LKG-UKG Rs 18,500.00; I-V Rs 24,000.00; VI-VIII Rs 28,500.00'],
    ['Admission Fee', 'Once, at admission: Rs 5,000.00'],
    ['Transport Fee', 'Per term by distance: Rs 3,600.00 (up to 5 km) to Rs 6,900.00'],
    ['Examination Fee', 'Per year: Rs 750.00'],
    ['Library Fee', 'Per year: Rs 300.00'],
    ['Computer Fee', 'Per year, I-VIII: Rs 1,500.00'],
    ['Sports Fee', 'Per year: Rs 500.00'],
    ['Books and Stationery', 'Per year by class: Rs 3,250.00 to Rs 5,800.00'],
    ['Uniform Fee', 'Two sets and a sports uniform: Rs 2,450.00'],
  ],
  feeGroups: [
    { name: 'Term 1', from: [6, 1], to: [6, 30], late: '100.00', desc: 'June to September' },
    { name: 'Term 2', from: [10, 3], to: [10, 31], late: '100.00', desc: 'October to December' },
    { name: 'Term 3', from: [1, 2], to: [1, 31], late: '100.00', desc: 'January to April' },
    { name: 'Annual Charges', from: [6, 1], to: [7, 15], late: '50.00', desc: 'Books, uniform, examination, library, computer and sports fees' },
  ],
  shelves: ["Children's Fiction", 'Classics', 'Tamil Literature', 'Science', 'Mathematics', 'History and Geography', 'General Knowledge', 'Reference'],
  exams: [
    { name: 'Unit Test 1', desc: 'Portions of June and July', from: [7, 21], to: [7, 25], max: 50, pass: 18 },
    { name: 'Quarterly Examination', desc: 'Term 1 portions', from: [9, 14], to: [9, 24], max: 100, pass: 35 },
    { name: 'Half-Yearly Examination', desc: 'Term 1 and Term 2 portions', from: [12, 8], to: [12, 19], max: 100, pass: 35 },
    { name: 'Unit Test 2', desc: 'Portions of January', from: [2, 9], to: [2, 13], max: 50, pass: 18 },
    { name: 'Annual Examination', desc: 'Whole year portions', from: [3, 16], to: [3, 27], max: 100, pass: 35 },
  ],
  unexamined: ['Physical Education', 'Drawing'],
  circulars: [
    { sub: 'School reopens for the new academic year', at: [6, 2], dscr: 'Dear Parents, the school reopens on 3 June. Students report in full uniform by 8.30 am. Books and uniforms are issued at the school store from 9 am to 1 pm.' },
    { sub: 'Term 1 fee due by 30 June', at: [6, 16], dscr: 'Term 1 fees may be paid at the office counter (cash, card, UPI) or by cheque in favour of the school. A late fee of Rs 100.00 applies after the due date.' },
    { sub: 'Parent-Teacher Meeting', at: [7, 8], dscr: 'The first Parent-Teacher Meeting for classes I to VIII is on Saturday, 10 am to 12.30 pm. Class teachers will discuss progress and the Unit Test 1 timetable.' },
    { sub: 'Independence Day celebration', at: [8, 11], dscr: 'Flag hoisting at 8.30 am on 15 August, followed by cultural programmes. Students attend in white uniform. Parents are welcome.' },
    { sub: 'Quarterly examination timetable', at: [9, 2], dscr: 'The quarterly examinations for classes I to VIII are held from 14 September. The timetable and portions are in the diary. Hall tickets are issued after fees are cleared.' },
    { sub: 'Quarterly holidays', at: [9, 22], dscr: 'The school is closed for quarterly holidays from 25 September to 1 October and reopens on 3 October.' },
    { sub: 'Celebrate Deepavali safely', at: [10, 24], dscr: 'Please supervise children while bursting crackers, keep a bucket of water at hand, and prefer green crackers. Wishing every family a happy Deepavali.' },
    { sub: "Children's Day celebration", at: [11, 12], dscr: "Children's Day on 14 November: colour dress for LKG to V, games and a magic show. Lunch is provided by the school." },
    { sub: 'Annual Sports Day', at: [12, 1], dscr: 'The Annual Sports Day is on the first Saturday of December at 8 am. Students come in house T-shirts. Parents are invited.' },
    { sub: 'Pongal celebration in school', at: [1, 8], dscr: 'Samathuva Pongal is celebrated in school on the last working day before Pongal. Students may come in traditional dress.' },
    { sub: 'Annual Day', at: [2, 3], dscr: 'Annual Day rehearsals begin on Monday. Participants stay until 5 pm on rehearsal days; the bus leaves at 5.15 pm.' },
    { sub: 'Annual examination timetable', at: [3, 2], dscr: 'The annual examinations begin on 16 March. The timetable and portions are in the diary. Results are published on the last working day of April.' },
  ],
  expenses: expensesCommon,
};

const departments = ['B.Sc. Computer Science', 'B.Com.', 'B.A. English', 'B.Sc. Mathematics'];
const collegeYears = ['I Year', 'II Year', 'III Year'];
const papers: Record<string, readonly (readonly string[])[]> = {
  'B.Sc. Computer Science': [['Programming in C', 'Digital Fundamentals'], ['Data Structures', 'Object Oriented Programming with Java'], ['Database Management Systems', 'Computer Networks']],
  'B.Com.': [['Financial Accounting', 'Business Economics'], ['Corporate Accounting', 'Business Law'], ['Cost Accounting', 'Income Tax Law and Practice']],
  'B.A. English': [['British Poetry', 'Prose'], ['Shakespeare', 'Indian Writing in English'], ['American Literature', 'Literary Criticism']],
  'B.Sc. Mathematics': [['Calculus', 'Classical Algebra'], ['Analytical Geometry', 'Differential Equations'], ['Real Analysis', 'Linear Algebra']],
};
const yearIndex = (sec: string): number => Math.max(0, collegeYears.indexOf(sec));

export const collegePlan: InstitutePlan = {
  kind: 'college',
  domain: 'riverside-college.example',
  empIdPrefix: 'RC',
  empIdFirst: 1,
  admissionPrefix: 'RCAS',
  extraDesignations: ['Office Assistant', 'Driver'],
  classGroups: [
    { name: 'Science', classes: [['B.Sc. Computer Science', 'Department of Computer Science'], ['B.Sc. Mathematics', 'Department of Mathematics']] },
    { name: 'Commerce', classes: [['B.Com.', 'Department of Commerce']] },
    { name: 'Arts', classes: [['B.A. English', 'Department of English']] },
  ],
  // Departments are the classes and years their sections; a larger scale fills the years instead.
  sections: () => collegeYears,
  studentsPerSection: (scale) => 17 * scale,
  subjects: [
    ['General English', 'Part II, I and II Year'], ['Tamil', 'Part I, I and II Year'],
    ...Object.values(papers).flat(2).map((p) => [p, 'Core paper'] as const),
  ],
  pools: [
    ...departments.map((d): TeachingPool => ({ classes: [d], subjects: (_c, sec) => papers[d][yearIndex(sec)], block: 1, designation: 'Assistant Professor', firstDesignation: 'Associate Professor', women: 0.5 })),
    { classes: departments, subjects: (_c, sec) => (yearIndex(sec) < 2 ? ['General English'] : []), block: 8, designation: 'Assistant Professor', women: 0.6 },
    { classes: departments, subjects: (_c, sec) => (yearIndex(sec) < 2 ? ['Tamil'] : []), block: 8, designation: 'Assistant Professor', women: 0.6 },
  ],
  staff: [
    { designation: 'Principal', role: 'HEAD OF DEPARTMENT', count: 1, women: 0 },
    { designation: 'Lab Assistant', role: 'OFFICE CLERK', count: 1, women: 0 },
    { designation: 'Accountant', role: 'ACCOUNTANT', count: 1, women: 0.5 },
    { designation: 'Librarian', role: 'LIBRARIAN', count: 1, women: 0.5 },
    { designation: 'Office Assistant', role: 'OFFICE CLERK', count: 1, women: 0.5 },
    { designation: 'Driver', role: 'SUPPORT STAFF', count: 2, women: 0 },
  ],
  places: [
    ['Peelamedu', '641004'], ['Singanallur', '641005'], ['Gandhipuram', '641012'], ['Saravanampatti', '641035'], ['Pollachi', '642001'],
    ['Tiruppur', '641601'], ['Mettupalayam', '641301'], ['Sulur', '641402'], ['Annur', '641653'], ['Udumalaipettai', '642126'], ['Palladam', '641664'],
  ],
  city: 'Coimbatore District',
  englishMedium: 0.9,
  joinMonth: 7,
  buses: [
    ['College Bus 1 (TN 37 BZ 2210)', 'Tiruppur - Palladam - Sulur - Singanallur - College. Leaves Tiruppur 7.30 am.'],
    ['College Bus 2 (TN 37 CA 5874)', 'Mettupalayam - Karamadai - Periyanaickenpalayam - Gandhipuram - College. Leaves 7.20 am.'],
  ],
  feeTypes: [
    ['Tuition Fee', 'Per semester: B.Sc. Rs 22,500.00; B.Com. Rs 19,000.00; B.A. Rs 15,500.00'],
    ['Admission Fee', 'Once, at admission: Rs 3,000.00'],
    ['Examination Fee', 'Per semester: Rs 1,250.00 plus Rs 150.00 per paper'],
    ['Laboratory Fee', 'Per semester, B.Sc.: Rs 2,000.00'],
    ['Library Fee', 'Per year: Rs 500.00'],
    ['Transport Fee', 'Per semester: Rs 9,500.00'],
    ['Sports and Games Fee', 'Per year: Rs 400.00'],
  ],
  feeGroups: [
    { name: 'Odd Semester Fees', from: [7, 1], to: [7, 31], late: '250.00', desc: 'Semesters I, III and V' },
    { name: 'Examination Fees', from: [9, 15], to: [10, 5], late: '100.00', desc: 'Odd semester examinations' },
    { name: 'Even Semester Fees', from: [12, 1], to: [12, 31], late: '250.00', desc: 'Semesters II, IV and VI' },
  ],
  shelves: ['Computer Science', 'Commerce', 'English Literature', 'Higher Mathematics', 'Tamil Literature', 'Reference', 'Competitive Examinations'],
  exams: [
    { name: 'CIA Test 1', desc: 'Continuous internal assessment', from: [8, 18], to: [8, 22], max: 50, pass: 20 },
    { name: 'CIA Test 2', desc: 'Continuous internal assessment', from: [10, 6], to: [10, 10], max: 50, pass: 20 },
    { name: 'Odd Semester Examination', desc: 'University pattern, 3 hours', from: [11, 10], to: [11, 28], max: 75, pass: 30 },
    { name: 'Model Examination', desc: 'Before the even semester', from: [3, 9], to: [3, 14], max: 75, pass: 30 },
    { name: 'Even Semester Examination', desc: 'University pattern, 3 hours', from: [4, 6], to: [4, 24], max: 75, pass: 30 },
  ],
  unexamined: [],
  circulars: [
    { sub: 'Commencement of classes', at: [7, 1], dscr: 'Classes for II and III Year begin on 1 July; I Year orientation is on 15 July at 10 am in the auditorium.' },
    { sub: 'Odd semester fee payment', at: [7, 3], dscr: 'Odd semester fees are due by 31 July. A late fee of Rs 250.00 applies after the due date.' },
    { sub: 'CIA Test 1 schedule', at: [8, 8], dscr: 'CIA Test 1 runs from 18 to 22 August. The department notice boards carry the timetable.' },
    { sub: 'Examination fee and application', at: [9, 12], dscr: 'Odd semester examination applications with fees are accepted from 15 September to 5 October at the office.' },
    { sub: 'National Service Scheme camp', at: [12, 2], dscr: 'The NSS special camp is held in Sulur from 20 to 26 December. Volunteers register with the programme officer.' },
    { sub: 'Pongal celebration', at: [1, 9], dscr: 'Samathuva Pongal on the campus on the last working day before Pongal. Students may come in traditional dress.' },
  ],
  expenses: expensesCommon,
};
