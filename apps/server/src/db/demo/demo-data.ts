import { livePages, pagesOfEntity, pagePath, type PageDef } from '@campus/entities/pages';
import { entity } from '@campus/entities/registry';
import { hash } from '@node-rs/argon2';
import { randomBytes } from 'node:crypto';
import { rows, sql, type Db, type DbOrTx } from '../client';
import { refreshFeeNames } from '../../hooks/fee.hooks';
import { addDays, birthDate, holidaysOf, inYear, iso } from './calendar';
import { customReportDemo } from './custom-report-demo';
import { feeBillsDemo } from './fee-bills';
import { lastYearDemo } from './last-year-demo';
import { codeBy, insertRows, type Row } from './insert-rows';
import { bookShelves, pickPool, streets, type NamePool } from './names';
import { libraryDemo } from './library-demo';
import { marksDemo } from './marks-demo';
import { studentOfficeDemo } from './student-office-demo';
import { officeDemo } from './office-demo';
import { expensePlan, feePlan } from './money-plans';
import { classOrder, collegePlan, schoolPlan, type InstitutePlan, type TeachingPool } from './plans';
import { rngFor, type Rng } from './prng';
import { transportDemo } from './transport-demo';
import { studentWorkflowDemo } from './student-workflow-demo';
import type { DemoScope } from './demo-scope';
import { scheduleDemo } from './schedule-demo';

export const DEMO_SEED = 20_260_601;

export interface DemoOptions {
  /** Same seed, same names (dates follow the current academic year). */
  seed?: number;
  /** 1 = the demo (about 600 school students); 10 = about 6,000 for benchmarks. */
  scale?: number;
  /** One password for every demo account (DEMO_PASSWORD); otherwise a random one each. */
  password?: string;
  /** 'Today' for exam statuses; tests pin it. */
  today?: Date;
  /**
   * Check every row's foreign keys and refresh fee positions statement by statement, as any other writer
   * does, even where the bulk load could leave both for later (tests compare the two ways).
   */
  rowByRow?: boolean;
}

export interface DemoAccount {
  login: string;
  password: string;
  fullName: string;
  /** What the account may do, for the first-start console and README. */
  access: string;
  /** module/page of every page granted. */
  pages: string[];
}

export interface DemoResult {
  created: boolean;
  accounts: DemoAccount[];
  /** Rows written per entity. */
  counts: Record<string, number>;
  ms: number;
}

interface Ctx {
  tx: DbOrTx;
  plan: InstitutePlan;
  instCd: number;
  acdmCd: number;
  startYear: number;
  admin: number;
  scale: number;
  seed: number;
  today: string;
  counts: Record<string, number>;
  /** Foreign keys and fee-position triggers are off for the bulk load (bulkLoad below). */
  bulk: boolean;
}

interface Person {
  first: string;
  family: string;
  gender: 'Male' | 'Female';
  pool: NamePool;
}

const ACCOUNT_LOGINS = ['TEACHER', 'ACCOUNTANT', 'LIBRARIAN'] as const;
type AccountLogin = (typeof ACCOUNT_LOGINS)[number];

const rng = (c: Ctx, topic: string): Rng => rngFor(c.seed, `${c.plan.kind}/${topic}`);

function person(r: Rng, women: number, pool = pickPool(r)): Person {
  const gender = r.chance(women) ? 'Female' : 'Male';
  return { first: r.pick(gender === 'Female' ? pool.female : pool.male), family: r.pick(pool.family), gender, pool };
}

const phone = (r: Rng): string => `+91 ${r.pick(['9', '8', '7', '6'])}${r.int(1000, 9999)} ${r.int(10000, 99999)}`;
const mailPart = (s: string): string => s.toLowerCase().replace(/[^a-z]/g, '');

async function add(c: Ctx, name: string, list: Row[], returning: string[] = []): Promise<Row[]> {
  const out = await insertRows(c.tx, name, list, returning, { rebuildIndexes: c.bulk });
  c.counts[name] = (c.counts[name] ?? 0) + out.length;
  return out;
}

/** Rows of an institute-scoped entity get inst_cd and crt_by; year-scoped ones acdm_cd as well. */
const inst = (c: Ctx, r: Row): Row => ({ inst_cd: c.instCd, ...r, crt_by: c.admin });
const year = (c: Ctx, r: Row): Row => ({ inst_cd: c.instCd, acdm_cd: c.acdmCd, ...r, crt_by: c.admin });

async function namesOf(c: Ctx, table: 'role' | 'designation' | 'religion' | 'community'): Promise<Map<string, number>> {
  const cols = { role: ['rl_cd', 'rl_nm'], designation: ['desg_cd', 'desg_nm'], religion: ['rgn_cd', 'rgn_nm'], community: ['cmty_cd', 'cmty_nm'] }[table];
  const got = await rows<Row>(
    c.tx,
    sql`SELECT ${sql.identifier(cols[0])} AS k, ${sql.identifier(cols[1])} AS n FROM ${sql.identifier(table)} WHERE inst_cd = ${c.instCd}`,
  );
  return new Map(got.map((g) => [String(g.n), Number(g.k)]));
}

interface Built {
  classes: Map<string, number>;
  /** 'VI|A' -> sec_cd, in class then section order. */
  sections: Map<string, number>;
  subjects: Map<string, number>;
  /** Subjects of each section ('VI|A'), with their teacher's usr_cd. */
  mapping: Map<string, { sub: string; usr: number }[]>;
  teacher?: { usr_cd: number; fullName: string; sections: string[]; subjects: string[] };
  staffAccounts: Map<AccountLogin, { usr_cd: number; fullName: string }>;
  buses: string[];
}

async function classesAndSections(c: Ctx): Promise<Pick<Built, 'classes' | 'sections'>> {
  const groups = await add(c, 'class_group', c.plan.classGroups.map((g) => inst(c, { cls_grp_nm: g.name })), ['cls_grp_nm']);
  const groupCd = codeBy(groups, 'cls_grp_id', (r) => String(r.cls_grp_nm));
  const classRows: Row[] = [];
  for (const g of c.plan.classGroups) {
    for (const [nm, desc] of g.classes) classRows.push(inst(c, { cls_nm: nm, cls_odr: classRows.length + 1, cls_grp_id: groupCd.get(g.name) ?? null, cls_desc: desc }));
  }
  const classes = codeBy(await add(c, 'class', classRows, ['cls_nm']), 'cls_cd', (r) => String(r.cls_nm));
  const secRows: Row[] = [];
  let room = 1;
  for (const cls of classOrder(c.plan)) {
    for (const sec of c.plan.sections(c.scale)) secRows.push(inst(c, { sec_nm: sec, cls_cd: classes.get(cls)!, sec_desc: c.plan.kind === 'school' ? `Room ${room++}` : `${cls}, ${sec}` }));
  }
  const got = await add(c, 'section', secRows, ['sec_nm', 'cls_cd']);
  const clsName = new Map([...classes].map(([n, cd]) => [cd, n]));
  const byKey = codeBy(got, 'sec_cd', (r) => `${clsName.get(Number(r.cls_cd))}|${r.sec_nm}`);
  // Class order, then section order, whatever order RETURNING gave.
  const sections = new Map<string, number>();
  for (const cls of classOrder(c.plan)) for (const sec of c.plan.sections(c.scale)) sections.set(`${cls}|${sec}`, byKey.get(`${cls}|${sec}`)!);
  return { classes, sections };
}


interface EmployeeDraft {
  row: Row;
  account?: AccountLogin;
}

async function staffAndTeaching(c: Ctx, built: Pick<Built, 'classes' | 'sections'>): Promise<Omit<Built, 'classes' | 'sections' | 'buses'> & { drivers: number }> {
  const known = await namesOf(c, 'designation');
  const extra = c.plan.extraDesignations.filter((d) => !known.has(d));
  const added = await add(c, 'designation', extra.map((d, i) => inst(c, { desg_nm: d, desg_odr: known.size + i + 1 })), ['desg_nm']);
  const desg = new Map([...known, ...codeBy(added, 'desg_cd', (r) => String(r.desg_nm))]);
  const roles = await namesOf(c, 'role');
  if (!roles.has('SUPPORT STAFF')) {
    const [r] = await add(c, 'role', [inst(c, { rl_nm: 'SUPPORT STAFF', rl_dscr: 'Drivers, attenders and helpers (no sign-in)' })]);
    roles.set('SUPPORT STAFF', Number(r.rl_cd));
  }
  const r = rng(c, 'employees');
  const drafts: EmployeeDraft[] = [];
  const taken = new Set<string>();
  const newEmployee = (women: number, designation: string, role: string): void => {
    let p = person(r, women);
    // Two staff with one name confuse every dropdown; a school would tell them apart anyway.
    while (taken.has(`${p.first} ${p.family}`)) p = person(r, women);
    taken.add(`${p.first} ${p.family}`);
    const n = c.plan.empIdFirst + drafts.length;
    const id = `${c.plan.empIdPrefix}${String(n).padStart(4, '0')}`;
    const row: Row = inst(c, {
      usr_nm: id,
      usr_full_nm: `${p.first} ${p.family}`,
      usr_id: id,
      usr_typ: roles.get(role)!,
      usr_desg: desg.get(designation) ?? null,
      usr_gnd: p.gender,
      usr_ph: phone(r),
      usr_eml: `${mailPart(p.first)}.${mailPart(p.family)}${n}@${c.plan.domain}`,
      usr_cur_adr: address(c, r),
      usr_is_lgn: false,
      usr_pwd: null,
    });
    drafts.push({ row });
  };
  let drivers = 0;
  for (const s of c.plan.staff) {
    for (let i = 0; i < s.count; i++) {
      newEmployee(s.women, s.designation, s.role);
      if (s.designation === 'Driver') drivers++;
      if (s.account && i === 0) drafts[drafts.length - 1].account = s.account;
    }
  }
  // Teachers: each pool's sections in class order, `block` consecutive sections per teacher.
  const teaching: { draft: number; pool: TeachingPool; sections: string[] }[] = [];
  for (const pool of c.plan.pools) {
    const secs = [...built.sections.keys()].filter((k) => {
      const [cls, sec] = k.split('|');
      return pool.classes.includes(cls) && pool.subjects(cls, sec).length > 0;
    });
    for (let i = 0; i * pool.block < secs.length; i++) {
      newEmployee(pool.women, i === 0 && pool.firstDesignation ? pool.firstDesignation : pool.designation, 'TEACHER');
      if (pool.demoTeacher && i === 0) drafts[drafts.length - 1].account = 'TEACHER';
      teaching.push({ draft: drafts.length - 1, pool, sections: secs.slice(i * pool.block, (i + 1) * pool.block) });
    }
  }
  const got = await add(c, 'employee', drafts.map((d) => d.row), ['usr_id']);
  const usrById = codeBy(got, 'usr_cd', (x) => String(x.usr_id));
  const usrOf = (i: number): number => usrById.get(String(drafts[i].row.usr_id))!;

  const subjects = codeBy(
    await add(c, 'subject', c.plan.subjects.map(([nm, d]) => inst(c, { sub_nm: nm, sub_dscr: d || null })), ['sub_nm']),
    'sub_cd',
    (x) => String(x.sub_nm),
  );
  const mapping = new Map<string, { sub: string; usr: number }[]>();
  const mapRows: Row[] = [];
  for (const t of teaching) {
    for (const key of t.sections) {
      const [cls, sec] = key.split('|');
      for (const sub of t.pool.subjects(cls, sec)) {
        mapRows.push(year(c, { cls_cd: built.classes.get(cls)!, sec_cd: built.sections.get(key)!, sub_cd: subjects.get(sub)!, usr_cd: usrOf(t.draft) }));
        mapping.set(key, [...(mapping.get(key) ?? []), { sub, usr: usrOf(t.draft) }]);
      }
    }
  }
  await add(c, 'subject_detail', mapRows);

  const staffAccounts = new Map<AccountLogin, { usr_cd: number; fullName: string }>();
  let teacher: Built['teacher'];
  for (const [i, d] of drafts.entries()) {
    if (!d.account) continue;
    staffAccounts.set(d.account, { usr_cd: usrOf(i), fullName: String(d.row.usr_full_nm) });
    if (d.account === 'TEACHER') {
      const t = teaching.find((x) => x.draft === i)!;
      const [cls, sec] = t.sections[0].split('|');
      teacher = { usr_cd: usrOf(i), fullName: String(d.row.usr_full_nm), sections: t.sections.map((k) => k.replace('|', ' ')), subjects: [...t.pool.subjects(cls, sec)] };
    }
  }
  return { subjects, mapping, teacher, staffAccounts, drivers };
}

function address(c: Ctx, r: Rng): string {
  const [place, pin] = r.pick(c.plan.places);
  return `${r.int(1, 240)}, ${r.pick(streets)}, ${place}, ${c.plan.city} ${pin}`;
}

async function students(c: Ctx, built: Pick<Built, 'classes' | 'sections'>): Promise<void> {
  const r = rng(c, 'students');
  // Birthdays from a stream of their own, so the names and the rest of the register stay as they were.
  const rb = rng(c, 'birthdays');
  const secNames = c.plan.sections(c.scale);
  const religions = await namesOf(c, 'religion');
  const communities = await namesOf(c, 'community');
  const order = classOrder(c.plan);
  const list: Row[] = [];
  let admission = 0;
  for (const [key, secCd] of built.sections) {
    const [cls, sec] = key.split('|');
    const level = order.indexOf(cls);
    const kids: Row[] = [];
    const ageLevel = c.plan.kind === 'school' ? level : secNames.indexOf(sec);
    for (let i = 0; i < c.plan.studentsPerSection(c.scale); i++) {
      const p = person(r, 0.5);
      const father = r.pick(p.pool.male);
      const mother = r.pick(p.pool.female);
      // Most children join in the first class (LKG, first year); the rest come later.
      const joinedLevel = r.chance(0.7) ? 0 : r.int(0, level);
      const joinYear = c.startYear - (level - joinedLevel);
      const cmty = p.pool.religion === 'Jain' ? 'OC' : r.pick(p.pool.religion === 'Hindu' ? ['BC', 'BC', 'BC', 'MBC', 'MBC', 'SC', 'OC', 'ST'] : ['BC', 'BC', 'OC', 'SC']);
      admission++;
      kids.push(
        year(c, {
          stud_fs_nm: `${p.first} ${p.family}`,
          stud_nm_ntv_lang: null,
          stud_adm_cd: `${c.plan.admissionPrefix}/${joinYear}/${String(admission).padStart(5, '0')}`,
          stud_roll_nmb: 0,
          cls_cd: built.classes.get(cls)!,
          sec_cd: secCd,
          medium: r.chance(c.plan.englishMedium) ? 'English' : 'Tamil',
          stud_dob: birthDate(rb, c.plan.kind, c.startYear, Math.max(0, ageLevel)),
          stud_doj: iso(joinYear, c.plan.joinMonth, r.int(1, 15)),
          stud_gnd: p.gender,
          stud_fthr_nm: `${father} ${p.family}`,
          stud_mthr_nm: `${mother} ${p.family}`,
          stud_ph: phone(r),
          stud_eml: r.chance(0.4) ? `${mailPart(father)}.${mailPart(p.family)}${r.int(10, 99)}@example.com` : null,
          stud_per_adr: address(c, r),
          rgn_cd: religions.get(p.pool.religion) ?? null,
          cmty_cd: communities.get(cmty) ?? null,
        }),
      );
    }
    // Roll numbers follow the register, which is alphabetical.
    kids.sort((a, b) => String(a.stud_fs_nm).localeCompare(String(b.stud_fs_nm)));
    kids.forEach((k, i) => (k.stud_roll_nmb = i + 1));
    list.push(...kids);
  }
  await add(c, 'student', list);
}

async function transportAndBudget(c: Ctx): Promise<string[]> {
  const buses = await add(c, 'bus', c.plan.buses.map(([nm, route]) => inst(c, { bs_trck_bus_nm: nm, bs_trck_dscr: route })), ['bs_trck_bus_nm']);
  const busCd = codeBy(buses, 'bs_trck_cd', (x) => String(x.bs_trck_bus_nm));
  const cats = codeBy(
    await add(c, 'expense_category', c.plan.expenses.map((e, i) => inst(c, { exp_ctgy_nm: e.category, exp_ctgy_odr: i + 1, exp_ctgy_desc: e.desc })), ['exp_ctgy_nm']),
    'exp_ctgy_cd',
    (x) => String(x.exp_ctgy_nm),
  );
  const subs: Row[] = [];
  for (const e of c.plan.expenses) {
    for (const [nm, typ] of e.subs) subs.push(inst(c, { exp_sub_ctgy_nm: nm, exp_sub_ctgy_typ: typ, exp_ctgy_cd: cats.get(e.category)!, bs_trck_cd: null }));
    for (const head of e.perBus ?? []) {
      for (const [bus] of c.plan.buses) {
        // 'Diesel - Bus 1': the bus's short name keeps the sub-category name unique and readable.
        subs.push(inst(c, { exp_sub_ctgy_nm: `${head} - ${bus.replace(/ \(.*\)$/, '')}`, exp_sub_ctgy_typ: 'Expense', exp_ctgy_cd: cats.get(e.category)!, bs_trck_cd: busCd.get(bus)! }));
      }
    }
  }
  await add(c, 'expense_sub_category', subs);
  await add(c, 'bus_trip', busTrips(c, [...busCd.values()]));
  return [...busCd.keys()];
}

/** Today's trips as the office would see them mid-morning: most buses in, one late, evening trips not started. */
function busTrips(c: Ctx, buses: number[]): Row[] {
  const stops = ['Anna Nagar Roundtana', 'Koyambedu Market', 'Vadapalani Signal', 'Ashok Pillar', 'Guindy Estate', 'Velachery Main Road'];
  const drivers = ['Murugan K', 'Selvam R', 'Joseph A', 'Ravi Shankar', 'Kumar P', 'Anthony Raj'];
  return buses.flatMap((bs_trck_cd, i) => {
    const late = i === 1;
    const driver = { bs_trip_drv_nm: drivers[i % drivers.length], bs_trip_drv_ph: `98400${String(41230 + i * 7).padStart(5, '0')}` };
    return [
      inst(c, {
        bs_trip_dt: c.today,
        bs_trck_cd,
        bs_trip_typ: 'Morning Pickup',
        bs_trip_sts: late ? 'Delayed' : 'Reached School',
        bs_trip_last_stop: stops[(i * 2 + 1) % stops.length],
        bs_trip_eta: late ? '08:40:00' : '08:05:00',
        bs_trip_rmks: late ? 'Traffic diversion near the flyover work; about 20 minutes late.' : null,
        bs_trip_updt_dt: `${c.today}T08:${late ? '25' : String(2 + i).padStart(2, '0')}:00+05:30`,
        bs_trip_updt_by: 'Administrator',
        ...driver,
      }),
      inst(c, {
        bs_trip_dt: c.today,
        bs_trck_cd,
        bs_trip_typ: 'Evening Drop',
        bs_trip_sts: 'Not Started',
        bs_trip_last_stop: null,
        bs_trip_eta: '15:45:00',
        bs_trip_rmks: null,
        bs_trip_updt_dt: null,
        bs_trip_updt_by: null,
        ...driver,
      }),
    ];
  });
}

async function fees(c: Ctx): Promise<void> {
  const y = c.startYear;
  const m = (md: [number, number]): string => inYear(y, c.plan.joinMonth, md[0], md[1]);
  await add(c, 'fee_type', c.plan.feeTypes.map(([nm, d]) => inst(c, { feetyp_nm: nm, feetyp_desc: d })));
  await add(
    c,
    'fee_group',
    c.plan.feeGroups.map((g) => year(c, { fee_grp_nm: g.name, fee_grp_fee_str_dt: m(g.from), fee_grp_fee_exp_dt: m(g.to), fee_grp_fee_prid_amt: g.late, fee_grp_dscr: g.desc })),
  );
  const tenders: [string, string | null, boolean, string][] = [
    ['Cash', null, true, 'Paid at the office counter; receipt printed at once'],
    ['UPI', 'UPI Transaction Id', true, 'GPay, PhonePe, Paytm or BHIM to the school QR code'],
    ['Card', 'Card Last 4 Digits', false, 'Off until the new POS machine is installed'],
    ['Cheque', 'Cheque No.', true, 'In favour of the institution; cleared in 3 working days'],
    ['Bank Transfer', 'UTR Number', true, 'NEFT or IMPS to the institution account'],
    ['Demand Draft', 'DD Number', false, 'No longer accepted'],
    // Not chosen by the demo's counter bills: a wallet payment moves the wallet, an online one comes from a request.
    ['Wallet', null, true, "Paid from the student's wallet balance (canteen and stationery money)"],
    ['Online', 'Transaction Id', true, 'Paid through the payment gateway; billed when accepted on Online Pay Request'],
  ];
  await add(
    c,
    'tender_type',
    tenders.map(([nm, fld, on, d], i) => inst(c, { tnd_typ_nm: nm, tnd_typ_odr: i + 1, tnd_typ_fld_val: fld, tnd_typ_dscr: d, tnd_typ_sts: on })),
  );
}

/** Codes by name of an entity's rows in this institute (and year, for a year-scoped one). */
async function codesOf(c: Ctx, entityName: string, nameField: string): Promise<Map<string, number>> {
  const e = entity(entityName);
  // Names come from the declaration, so a typo fails here rather than as SQL.
  if (!e.fields[nameField]) throw new Error(`demo: ${entityName} has no field ${nameField}`);
  const inYearOnly = e.scope === 'academic-year' ? sql` AND acdm_cd = ${c.acdmCd}` : sql``;
  const got = await rows<Row>(
    c.tx,
    sql`SELECT ${sql.identifier(e.key)} AS k, ${sql.identifier(nameField)} AS n FROM ${sql.identifier(e.table)} WHERE inst_cd = ${c.instCd}${inYearOnly}`,
  );
  return new Map(got.map((g) => [String(g.n), Number(g.k)]));
}

/** Fee mapping (what each fee costs each class per term) and a quarter's income and expense entries. */
async function feeMappingAndExpenses(c: Ctx): Promise<void> {
  const groups = await codesOf(c, 'fee_group', 'fee_grp_nm');
  const types = await codesOf(c, 'fee_type', 'feetyp_nm');
  const classes = await codesOf(c, 'class', 'cls_nm');
  const need = (m: Map<string, number>, k: string): number => {
    const v = m.get(k);
    if (v === undefined) throw new Error(`demo: no ${k} for the fee plan`);
    return v;
  };
  const mapping: Row[] = [];
  for (const line of feePlan[c.plan.kind]) {
    for (const cls of line.classes) {
      mapping.push(
        year(c, { fee_grp_cd: need(groups, line.group), feetyp_cd: need(types, line.type), cls_cd: need(classes, cls), fee_amt: line.newAmt, fee_amt_aftr_prmtn: line.oldAmt }),
      );
    }
  }
  await add(c, 'fee', mapping);
  await refreshFeeNames(c.tx, sql`f.inst_cd = ${c.instCd} AND f.acdm_cd = ${c.acdmCd}`);
  const subs = await codesOf(c, 'expense_sub_category', 'exp_sub_ctgy_nm');
  const entries = expensePlan[c.plan.kind].map((x) => {
    const dt = inYear(c.startYear, c.plan.joinMonth, x.at[0], x.at[1]);
    // Entered on the day it was paid.
    return year(c, { exp_sub_ctgy_cd: need(subs, x.sub), exp_desc: x.desc, exp_amt: x.amt, exp_dt: dt, exp_crt_dt: dt });
  });
  await add(c, 'expense', entries);
}

/** An ISBN-13 in the 978-81 (India) range with its check digit, unique within the run. */
function isbn(r: Rng, seen: Set<string>): string {
  for (;;) {
    const body = `97881${String(r.int(0, 99_999_999)).padStart(8, '0')}`.slice(0, 12);
    const sum = [...body].reduce((a, d, i) => a + Number(d) * (i % 2 ? 3 : 1), 0);
    const full = `${body}${(10 - (sum % 10)) % 10}`;
    const out = `${full.slice(0, 3)}-${full.slice(3, 5)}-${full.slice(5, 9)}-${full.slice(9, 12)}-${full.slice(12)}`;
    if (!seen.has(out)) {
      seen.add(out);
      return out;
    }
  }
}

async function library(c: Ctx): Promise<void> {
  const r = rng(c, 'library');
  const cats = codeBy(
    await add(c, 'book_category', c.plan.shelves.map((s, i) => inst(c, { ctgy_nm: s, ctgy_seq_odr: i + 1, ctgy_dscr: null })), ['ctgy_nm']),
    'ctgy_cd',
    (x) => String(x.ctgy_nm),
  );
  const seen = new Set<string>();
  const books: Row[] = [];
  for (const shelf of c.plan.shelves) {
    for (const title of bookShelves[shelf] ?? []) {
      books.push(
        inst(c, {
          bk_nm: title,
          ctgy_cd: cats.get(shelf)!,
          bk_qty: r.int(1, shelf === 'Reference' ? 3 : 15),
          bk_barcd: isbn(r, seen),
          bk_ser_nmb: `ACC-${String(books.length + 1).padStart(5, '0')}`,
          bk_dscr: null,
        }),
      );
    }
  }
  await add(c, 'book', books);
}

function examStatus(from: string, to: string, today: string): string {
  if (to < addDays(today, -14)) return 'Published';
  if (to < today) return 'Completed';
  if (from <= addDays(today, 45)) return 'Scheduled';
  return 'Draft';
}

async function exams(c: Ctx, built: Pick<Built, 'classes' | 'sections' | 'subjects' | 'mapping'>): Promise<void> {
  const m = (md: [number, number]): string => inYear(c.startYear, c.plan.joinMonth, md[0], md[1]);
  const types = codeBy(
    await add(c, 'exam_type', c.plan.exams.map((e) => year(c, { exmtyp_nm: e.name, exmtyp_dscr: e.desc, exmtyp_sts: examStatus(m(e.from), m(e.to), c.today) })), ['exmtyp_nm']),
    'exmtyp_cd',
    (x) => String(x.exmtyp_nm),
  );
  const examRows: Row[] = [];
  for (const e of c.plan.exams) {
    for (const [key, secCd] of built.sections) {
      const [cls, sec] = key.split('|');
      examRows.push(year(c, { exm_nm: `${e.name} - ${cls} ${sec}`, exmtyp_cd: types.get(e.name)!, cls_cd: built.classes.get(cls)!, sec_cd: secCd, exm_strt_dt: m(e.from), exm_end_dt: m(e.to) }));
    }
  }
  const examCd = codeBy(await add(c, 'exam', examRows, ['exm_nm']), 'exm_cd', (x) => String(x.exm_nm));
  const marks: Row[] = [];
  for (const e of c.plan.exams) {
    for (const key of built.sections.keys()) {
      const [cls, sec] = key.split('|');
      for (const { sub } of built.mapping.get(key) ?? []) {
        if (c.plan.unexamined.includes(sub)) continue;
        marks.push(year(c, { exm_cd: examCd.get(`${e.name} - ${cls} ${sec}`)!, sub_cd: built.subjects.get(sub)!, mrk_max_mrk: e.max, mrk_min_mrk: e.pass }));
      }
    }
  }
  await add(c, 'mark', marks);
}

async function calendar(c: Ctx): Promise<void> {
  await add(c, 'holiday', holidaysOf(c.startYear, c.plan.kind).map((h) => year(c, { hly_nm: h.name, hly_frm_dt: h.from, hly_to_dt: h.to, hly_typ: h.type })));
  const label = `${c.startYear}-${String((c.startYear + 1) % 100).padStart(2, '0')}`;
  await add(
    c,
    'circular',
    // A circular dated after today has not been sent yet: the demo shows only those already issued.
    c.plan.circulars.filter((x) => inYear(c.startYear, c.plan.joinMonth, x.at[0], x.at[1]) <= c.today).map((x) =>
      year(c, { crlr_sub: x.sub.replace('new academic year', `academic year ${label}`), crlr_dscr: x.dscr, crlr_dt: inYear(c.startYear, c.plan.joinMonth, x.at[0], x.at[1]), crlr_crt_dt: inYear(c.startYear, c.plan.joinMonth, x.at[0], x.at[1]) }),
    ),
  );
}

/** The common part of what each demo area gets (demo-scope.ts). */
function scopeOf(c: Ctx): DemoScope {
  return {
    tx: c.tx,
    kind: c.plan.kind,
    instCd: c.instCd,
    acdmCd: c.acdmCd,
    startYear: c.startYear,
    joinMonth: c.plan.joinMonth,
    today: c.today,
    admin: c.admin,
    rng: (topic) => rng(c, topic),
    add: (name, list, ret) => add(c, name, list, ret),
  };
}

/**
 * The bulk load of a fresh database: with session_replication_role = replica, PostgreSQL fires neither the
 * foreign-key checks (one lookup per row and key: 12,000 register rows x 5 keys) nor the fee-position
 * triggers (a recomputation of the students touched after every statement into students, fees, discounts,
 * bills and lines). Together they were most of the demo's time. The rows come from the plans, whose keys
 * come from RETURNING, and a test checks every foreign key of the finished demo and compares it with one
 * written row by row. Only a superuser may set it (always so on PGlite); otherwise the demo goes row by row.
 */
async function bulkLoad(tx: DbOrTx, opts: DemoOptions): Promise<boolean> {
  if (opts.rowByRow) return false;
  const [r] = await rows<{ su: string }>(tx, sql`SELECT current_setting('is_superuser') AS su`);
  if (r?.su !== 'on') return false;
  await tx.execute(sql`SET LOCAL session_replication_role = replica`);
  return true;
}

/**
 * Back to the ordinary checks and triggers, with every fee position of the institute computed once, as the
 * triggers would have left them: what follows (fee follow-ups, online payments) reads the positions.
 */
async function endBulkLoad(c: Ctx): Promise<void> {
  if (!c.bulk) return;
  await c.tx.execute(sql`SET LOCAL session_replication_role = origin`);
  c.bulk = false;
  await c.tx.execute(sql`SELECT fee_position_refresh(ARRAY(SELECT stud_cd FROM student WHERE inst_cd = ${c.instCd} ORDER BY stud_cd))`);
}

async function buildInstitute(c: Ctx): Promise<Built> {
  const scope = scopeOf(c);
  const cs = await classesAndSections(c);
  const staff = await staffAndTeaching(c, cs);
  const buses = await transportAndBudget(c);
  await fees(c);
  await feeMappingAndExpenses(c);
  // The students after their fee mapping: the fee trigger then has no one to recompute, and the students'
  // own insert computes every position once (fees first took 2.6-3.6 s of a first start, students first
  // a tenth of a second).
  await students(c, cs);
  await library(c);
  await libraryDemo(scope);
  await exams(c, { ...cs, ...staff });
  await calendar(c);
  const accounts = new Map([...staff.staffAccounts].map(([login, a]) => [login as string, a.usr_cd]));
  if (staff.teacher) accounts.set('TEACHER', staff.teacher.usr_cd);
  await officeDemo({ ...scope, ...cs, subjects: staff.subjects, mapping: staff.mapping, accounts });
  await scheduleDemo({ ...scope, accounts });
  await customReportDemo({ ...scope, topClass: classOrder(c.plan).at(-1) ?? '', firstShelf: c.plan.shelves[0] ?? '' });
  await studentWorkflowDemo({ ...scope, sections: cs.sections, mapping: staff.mapping, counts: c.counts });
  await transportDemo(scope);
  await marksDemo(scope);
  // Last year and this year's discounts change what a child owes: before the bills.
  await lastYearDemo({ ...scope, plan: c.plan, scale: c.scale, ...cs, accountant: staff.staffAccounts.get('ACCOUNTANT') });
  // Bills last: they store each student's section as it is after the section moves.
  const [me] = await rows<{ usr_full_nm: string }>(c.tx, sql`SELECT usr_full_nm FROM employee WHERE usr_cd = ${c.admin}`);
  const accountant = staff.staffAccounts.get('ACCOUNTANT');
  const collectors = [...(accountant ? [accountant] : []), { usr_cd: c.admin, fullName: me?.usr_full_nm ?? 'Admin' }];
  await feeBillsDemo({ ...scope, collectors });
  await endBulkLoad(c);
  // After the bills: fee follow-ups and online payments are about them.
  await studentOfficeDemo({ ...scope, ...cs, subjects: staff.subjects, mapping: staff.mapping, accountant });
  return { ...cs, ...staff, buses };
}

/** Every live page of a module: pages without an entity yet cannot be granted. */
const livePagesOf = (module: string): PageDef[] => livePages().filter((pg) => pg.module === module);

/** The restricted demo accounts' pages: what each role would be given in a real school. */
function grantsFor(login: AccountLogin): { page: PageDef; buttons: readonly string[]; dataChk: boolean }[] {
  if (login === 'TEACHER') {
    const pg = pagesOfEntity('student')[0];
    return pg ? [{ page: pg, buttons: ['view', 'export'], dataChk: true }] : [];
  }
  const module = login === 'ACCOUNTANT' ? 'fee' : 'library';
  return livePagesOf(module).map((pg) => ({ page: pg, buttons: pg.buttons, dataChk: false }));
}

async function accounts(c: Ctx, built: Built, passwords: Map<AccountLogin, { clear: string; hash: string }>): Promise<DemoAccount[]> {
  const out: DemoAccount[] = [];
  const perms: Row[] = [];
  for (const login of ACCOUNT_LOGINS) {
    const who = login === 'TEACHER' ? built.teacher : built.staffAccounts.get(login);
    if (!who) continue;
    const pwd = passwords.get(login)!;
    await c.tx.execute(sql`UPDATE employee SET usr_nm = ${login}, usr_is_lgn = true, usr_pwd = ${pwd.hash} WHERE usr_cd = ${who.usr_cd}`);
    const grants = grantsFor(login);
    for (const g of grants) {
      perms.push(
        inst(c, {
          usr_prms_usr_cd: who.usr_cd,
          usr_prms_mdl: g.page.module,
          usr_prms_page: g.page.page,
          usr_prms_pth_url: pagePath(g.page),
          usr_prms_is_alw: true,
          usr_prms_btns: g.buttons.join(','),
          usr_need_data_chk: g.dataChk,
          usr_prms_dscr: 'Demo account',
          usr_sts: true,
        }),
      );
    }
    const access =
      login === 'TEACHER' && built.teacher
        ? `${built.teacher.subjects.join(', ')} teacher of ${built.teacher.sections.join(' and ')}: the Student page, view and export, own students only`
        : login === 'ACCOUNTANT'
          ? 'the Fee Master pages'
          : 'the Library pages';
    out.push({ login, password: pwd.clear, fullName: who.fullName, access, pages: grants.map((g) => `${g.page.module}/${g.page.page}`) });
  }
  await add(c, 'user_permission', perms);
  return out;
}

async function analyzeFilledTables(db: Db): Promise<void> {
  const filled = await rows<{ t: string }>(
    db,
    sql`SELECT c.relname AS t FROM pg_class c
        WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r' AND pg_relation_size(c.oid) > 0 ORDER BY c.relname`,
  );
  if (filled.length === 0) return;
  // Names read from the catalog, quoted as identifiers.
  await db.execute(sql`ANALYZE ${sql.join(filled.map((f) => sql.identifier(f.t)), sql`, `)}`);
}

/**
 * The demo school's and college's content for the current academic year, on top of seedIfEmpty's
 * institutes, years and masters. One transaction; does nothing when the school already has classes, so a
 * second process starting at the same time (or a restart) never doubles it.
 */
export async function generateDemo(db: Db, opts: DemoOptions = {}): Promise<DemoResult> {
  const t0 = performance.now();
  const seed = opts.seed ?? DEMO_SEED;
  const scale = Math.max(1, Math.floor(opts.scale ?? 1));
  const today = (opts.today ?? new Date()).toISOString().slice(0, 10);
  // Hashed on libuv's threads while the school is written; awaited where the accounts are made.
  const hashing = Promise.all(
    ACCOUNT_LOGINS.map(async (login) => {
      const clear = opts.password ?? randomBytes(12).toString('base64url');
      return [login, { clear, hash: await hash(clear) }] as const;
    }),
  );
  // A failure surfaces where the accounts await it; without a demo to write nothing waits for it.
  hashing.catch(() => undefined);
  const counts: Record<string, number> = {};
  const result = await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(727276)`);
    const insts = await rows<{ inst_cd: number; inst_typ: string }>(tx, sql`SELECT inst_cd, inst_typ FROM institute ORDER BY inst_cd`);
    const [admin] = await rows<{ usr_cd: number }>(tx, sql`SELECT usr_cd FROM employee WHERE usr_nm = 'ADMIN'`);
    const school = insts.find((i) => i.inst_typ === 'school');
    if (!school || !admin) return { created: false, accounts: [] };
    const [{ n }] = await rows<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM class WHERE inst_cd = ${school.inst_cd}`);
    if (n > 0) return { created: false, accounts: [] };
    let made: DemoAccount[] = [];
    for (const [plan, instRow] of [
      [schoolPlan, school],
      [collegePlan, insts.find((i) => i.inst_typ === 'college')],
    ] as const) {
      if (!instRow) continue;
      const [yr] = await rows<{ acdm_cd: number; acdm_strt_yr: number }>(
        tx,
        sql`SELECT acdm_cd, acdm_strt_yr FROM academic WHERE inst_cd = ${instRow.inst_cd} AND acdm_sts ORDER BY acdm_strt_yr DESC LIMIT 1`,
      );
      if (!yr) continue;
      const bulk = await bulkLoad(tx, opts);
      const c: Ctx = { tx, plan, instCd: instRow.inst_cd, acdmCd: yr.acdm_cd, startYear: yr.acdm_strt_yr, admin: admin.usr_cd, scale, seed, today, counts, bulk };
      const built = await buildInstitute(c);
      if (plan.kind === 'school') made = await accounts(c, built, new Map(await hashing));
    }
    return { created: true, accounts: made };
  });
  // Thousands of rows just arrived: plan the first lists on their real sizes (db/statistics.ts). The tables
  // that hold rows only: PostgreSQL's own catalogs took three quarters of a whole-database ANALYZE (2.9 s
  // of 3.6 s on a loaded box), and the server's periodic refresh (keepStatistics) covers them later.
  if (result.created) await analyzeFilledTables(db);
  return { ...result, counts, ms: performance.now() - t0 };
}
