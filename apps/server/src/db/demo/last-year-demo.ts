import { refreshFeeNames } from '../../hooks/fee.hooks';
import { discountAmount, discountPercent } from '../../hooks/student-discount.hooks';
import { fromPaise, toPaise } from '../../lib/paise';
import { rows, sql } from '../client';
import { addDays, birthDate, inYear, iso } from './calendar';
import { feeBillsDemo } from './fee-bills';
import type { Row } from './insert-rows';
import { feePlan } from './money-plans';
import { pickPool, streets } from './names';
import { classOrder, type InstitutePlan } from './plans';
import type { Rng } from './prng';
import type { DemoScope } from './demo-scope';

export interface LastYearDemo extends DemoScope {
  plan: InstitutePlan;
  scale: number;
  /** 'VI' -> cls_cd and 'VI|A' -> sec_cd. */
  classes: ReadonlyMap<string, number>;
  sections: ReadonlyMap<string, number>;
  /** Who sat at the counter last year besides the administrator. */
  accountant?: { usr_cd: number; fullName: string };
}

type Copied = Record<(typeof COPIED)[number], string | number | null>;
type ThisYearStudent = Copied & { stud_cd: number; cls_cd: number; sec_cd: number; start_sec: number };

/** The columns a student row keeps from year to year (all but class, section and roll number). */
const COPIED = [
  'stud_fs_nm',
  'stud_nm_ntv_lang',
  'stud_adm_cd',
  'medium',
  'stud_dob',
  'stud_doj',
  'stud_gnd',
  'stud_fthr_nm',
  'stud_mthr_nm',
  'stud_ph',
  'stud_eml',
  'stud_per_adr',
  'rgn_cd',
  'cmty_cd',
] as const;

interface DiscountPlan {
  stud_cd: number;
  pct: string;
  reason: string;
}

export const yearLabel = (y: number): string => `${y}-${String((y + 1) % 100).padStart(2, '0')}`;
const phone = (r: Rng): string => `+91 ${r.pick(['9', '8', '7', '6'])}${r.int(1000, 9999)} ${r.int(10000, 99999)}`;
const familyOf = (name: string): string => name.split(' ').at(-1) ?? name;

/**
 * Last year as the office left it, so that promotion, the old-student fee and Academic Fee Collect have
 * something real behind them: the earlier (inactive) academic year gets a row for every child of this year
 * who was already here (same admission number and details, the class or college year below, the section
 * of the same name), plus the children who left at its end (the top class, a few who moved away); last
 * year's fee groups and a slightly cheaper copy of this year's mapping; bills written by this year's bill
 * code, nearly everyone paid in full and about one in twenty left owing part of the last term; a promotion
 * record per section moved on and the year-to-year copy records. Then this year's discounts (staff wards,
 * siblings, merit), which change what a child owes and so must exist before this year's bills.
 */
export async function lastYearDemo(d: LastYearDemo): Promise<void> {
  const [prev] = await rows<{ acdm_cd: number }>(
    d.tx,
    sql`SELECT acdm_cd FROM academic WHERE inst_cd = ${d.instCd} AND acdm_strt_yr = ${d.startYear - 1} ORDER BY acdm_cd LIMIT 1`,
  );
  const family = await siblingsAndStaffWards(d);
  if (prev) await lastYear(d, prev.acdm_cd);
  await discounts(d, family);
}

/** Siblings share their parents' details; a staff ward's mother is on the teaching staff. Done before last year copies the rows. */
async function siblingsAndStaffWards(d: LastYearDemo): Promise<DiscountPlan[]> {
  const r = d.rng('siblings');
  const kids = await rows<{ stud_cd: number; stud_fs_nm: string; stud_gnd: string; rgn_cd: number | null; cls_nm: string; cls_odr: number }>(
    d.tx,
    sql`SELECT s.stud_cd, s.stud_fs_nm, s.stud_gnd, s.rgn_cd, c.cls_nm, c.cls_odr FROM student s JOIN class c ON c.cls_cd = s.cls_cd
        WHERE s.inst_cd = ${d.instCd} AND s.acdm_cd = ${d.acdmCd} ORDER BY s.stud_cd`,
  );
  const used = new Set<number>();
  const out: DiscountPlan[] = [];
  // Brothers and sisters (school only): the younger child gets the elder's parents, phone, e-mail and address.
  const pairs = d.plan.kind === 'school' ? 12 * d.scale : 0;
  for (let tries = 0, made = 0; made < pairs && tries < 5000 && kids.length > 1; tries++) {
    const elder = r.pick(kids);
    const younger = r.pick(kids);
    if (used.has(elder.stud_cd) || used.has(younger.stud_cd) || elder.cls_odr - younger.cls_odr < 2) continue;
    if (familyOf(elder.stud_fs_nm) !== familyOf(younger.stud_fs_nm) || elder.rgn_cd !== younger.rgn_cd) continue;
    used.add(elder.stud_cd).add(younger.stud_cd);
    made++;
    await d.tx.execute(sql`UPDATE student y SET stud_fthr_nm = e.stud_fthr_nm, stud_mthr_nm = e.stud_mthr_nm, stud_ph = e.stud_ph,
                                   stud_eml = e.stud_eml, stud_per_adr = e.stud_per_adr, cmty_cd = e.cmty_cd
                           FROM student e WHERE e.stud_cd = ${elder.stud_cd} AND y.stud_cd = ${younger.stud_cd}`);
    const who = elder.stud_gnd === 'Female' ? 'elder sister' : 'elder brother';
    out.push({ stud_cd: younger.stud_cd, pct: '10.00', reason: `Sibling concession: ${who} ${elder.stud_fs_nm} is in ${elder.cls_nm}.` });
  }
  // Staff wards: a child of the same family name as a woman on the teaching staff is hers.
  const teachers = await rows<{ usr_full_nm: string; desg_nm: string | null }>(
    d.tx,
    sql`SELECT e.usr_full_nm, g.desg_nm FROM employee e JOIN role ro ON ro.rl_cd = e.usr_typ LEFT JOIN designation g ON g.desg_cd = e.usr_desg
        WHERE e.inst_cd = ${d.instCd} AND ro.rl_nm = 'TEACHER' AND e.usr_gnd = 'Female' ORDER BY e.usr_cd`,
  );
  const wards = (d.plan.kind === 'school' ? 6 : 2) * d.scale;
  for (const t of teachers) {
    if (out.length - pairs >= wards) break;
    if (!r.chance(0.5)) continue;
    const child = kids.find((k) => !used.has(k.stud_cd) && familyOf(k.stud_fs_nm) === familyOf(t.usr_full_nm));
    if (!child) continue;
    used.add(child.stud_cd);
    await d.tx.execute(sql`UPDATE student SET stud_mthr_nm = ${t.usr_full_nm} WHERE stud_cd = ${child.stud_cd}`);
    out.push({ stud_cd: child.stud_cd, pct: '50.00', reason: `Staff ward: mother ${t.usr_full_nm} is ${/^[AEIOU]/.test(t.desg_nm ?? '') ? 'an' : 'a'} ${t.desg_nm ?? 'teacher'} here.` });
  }
  return out;
}

async function lastYear(d: LastYearDemo, prevCd: number): Promise<void> {
  const r = d.rng('last-year');
  const order = classOrder(d.plan);
  const secNames = d.plan.sections(d.scale);
  const keyOf = new Map([...d.sections].map(([k, cd]) => [cd, k]));
  const yearStart = iso(d.startYear, d.plan.joinMonth, 1);
  const prevStart = d.startYear - 1;
  /** Where a child of this class and section was last year: the class below (school) or the college year below. */
  const below = (key: string): string | undefined => {
    const [cls, sec] = key.split('|');
    if (d.plan.kind === 'school') {
      const i = order.indexOf(cls);
      return i > 0 ? `${order[i - 1]}|${sec}` : undefined;
    }
    const j = secNames.indexOf(sec);
    return j > 0 ? `${cls}|${secNames[j - 1]}` : undefined;
  };

  // The section each child started this year in: before any section move (interchange) of this year.
  const current = await rows<ThisYearStudent>(
    d.tx,
    sql`SELECT s.stud_cd, s.cls_cd, s.sec_cd, ${sql.join(COPIED.map((c) => (c === 'stud_doj' || c === 'stud_dob' ? sql`s.${sql.identifier(c)}::text AS ${sql.identifier(c)}` : sql`s.${sql.identifier(c)}`)), sql`, `)},
               coalesce((SELECT i.frm_sec_cd FROM student_interchange i WHERE i.stud_cd = s.stud_cd ORDER BY i.stud_intchg_dt, i.stud_intchg_cd LIMIT 1), s.sec_cd) AS start_sec
        FROM student s WHERE s.inst_cd = ${d.instCd} AND s.acdm_cd = ${d.acdmCd} ORDER BY s.stud_cd`,
  );
  const drafts: { key: string; row: Row; stays?: string }[] = [];
  for (const s of current) {
    const now = keyOf.get(Number(s.start_sec));
    const was = now ? below(now) : undefined;
    // Children who joined this year have no row last year, whatever their class.
    if (!now || !was || !s.stud_doj || String(s.stud_doj) >= yearStart) continue;
    const row: Row = {};
    for (const c of COPIED) row[c] = s[c];
    drafts.push({ key: was, row, stays: now });
  }

  // Those who left at the end of last year: the whole top class (the school ends there; the college's final
  // year graduated) and a few who moved away. New people with admission numbers after this year's.
  const rl = d.rng('leavers');
  // Their birthdays from a stream of their own, so the leavers' names and numbers stay as they were.
  const rb = d.rng('leavers-birthdays');
  const topKeys = [...d.sections.keys()].filter((k) => {
    const [cls, sec] = k.split('|');
    return d.plan.kind === 'school' ? cls === order.at(-1) : sec === secNames.at(-1);
  });
  const religions = new Map(
    (await rows<{ rgn_cd: number; rgn_nm: string }>(d.tx, sql`SELECT rgn_cd, rgn_nm FROM religion WHERE inst_cd = ${d.instCd}`)).map((x) => [x.rgn_nm, x.rgn_cd]),
  );
  const communities = new Map(
    (await rows<{ cmty_cd: number; cmty_nm: string }>(d.tx, sql`SELECT cmty_cd, cmty_nm FROM community WHERE inst_cd = ${d.instCd}`)).map((x) => [x.cmty_nm, x.cmty_cd]),
  );
  let serial = current.reduce((a, s) => Math.max(a, Number(String(s.stud_adm_cd).split('/').at(-1)) || 0), 0);
  const leaver = (yearsHere: number, level: number): Row => {
    const pool = pickPool(rl);
    const female = rl.chance(0.5);
    const family = rl.pick(pool.family);
    const joinYear = prevStart - yearsHere;
    const [place, pin] = rl.pick(d.plan.places);
    serial++;
    return {
      stud_fs_nm: `${rl.pick(female ? pool.female : pool.male)} ${family}`,
      stud_nm_ntv_lang: null,
      stud_adm_cd: `${d.plan.admissionPrefix}/${joinYear}/${String(serial).padStart(5, '0')}`,
      medium: rl.chance(d.plan.englishMedium) ? 'English' : 'Tamil',
      stud_dob: birthDate(rb, d.plan.kind, prevStart, level),
      stud_doj: iso(joinYear, d.plan.joinMonth, rl.int(1, 15)),
      stud_gnd: female ? 'Female' : 'Male',
      stud_fthr_nm: `${rl.pick(pool.male)} ${family}`,
      stud_mthr_nm: `${rl.pick(pool.female)} ${family}`,
      stud_ph: phone(rl),
      stud_eml: null,
      stud_per_adr: `${rl.int(1, 240)}, ${rl.pick(streets)}, ${place}, ${d.plan.city} ${pin}`,
      rgn_cd: religions.get(pool.religion) ?? null,
      cmty_cd: communities.get(pool.religion === 'Hindu' ? rl.pick(['BC', 'BC', 'MBC', 'SC', 'OC']) : 'BC') ?? null,
    };
  };
  const leavers: { key: string; row: Row; reason: string }[] = [];
  for (const key of topKeys) {
    const level = d.plan.kind === 'school' ? order.length - 1 : secNames.length - 1;
    for (let i = 0; i < d.plan.studentsPerSection(d.scale); i++) {
      const yearsHere = rl.chance(0.7) ? level : rl.int(0, level);
      leavers.push({ key, row: leaver(yearsHere, level), reason: d.plan.kind === 'school' ? 'Completed the course' : 'Completed the degree' });
    }
  }
  const movers = (d.plan.kind === 'school' ? 8 : 3) * d.scale;
  for (let i = 0; i < movers; i++) {
    const key = rl.pick([...d.sections.keys()].filter((k) => !topKeys.includes(k)));
    const level = d.plan.kind === 'school' ? order.indexOf(key.split('|')[0]) : secNames.indexOf(key.split('|')[1]);
    leavers.push({ key, row: leaver(rl.int(0, Math.max(0, level)), Math.max(0, level)), reason: rl.pick(["Father's job transferred to Bengaluru", 'Family moved to Madurai', 'Joined a school nearer home', 'Family moved abroad']) });
  }

  // Roll numbers follow last year's register, alphabetical in each section.
  const all = [...drafts.map((x) => ({ key: x.key, row: x.row })), ...leavers.map((x) => ({ key: x.key, row: x.row }))];
  const bySection = new Map<string, Row[]>();
  for (const x of all) bySection.set(x.key, [...(bySection.get(x.key) ?? []), x.row]);
  const list: Row[] = [];
  for (const [key, kids] of [...bySection].sort((a, b) => Number(d.sections.get(a[0])) - Number(d.sections.get(b[0])))) {
    kids.sort((a, b) => String(a.stud_fs_nm).localeCompare(String(b.stud_fs_nm)));
    const [cls] = key.split('|');
    kids.forEach((k, i) =>
      list.push({ inst_cd: d.instCd, acdm_cd: prevCd, ...k, stud_roll_nmb: i + 1, cls_cd: d.classes.get(cls)!, sec_cd: d.sections.get(key)!, crt_by: d.admin }),
    );
  }
  const saved = await d.add('student', list, ['stud_adm_cd']);
  const prevStud = new Map(saved.map((s) => [String(s.stud_adm_cd), Number(s.stud_cd)]));

  // Last year's fee groups (same terms a year earlier) and mapping: this year's plan about 5% cheaper.
  const groups = new Map(
    (
      await d.add(
        'fee_group',
        d.plan.feeGroups.map((g) => ({
          inst_cd: d.instCd,
          acdm_cd: prevCd,
          fee_grp_nm: g.name,
          fee_grp_fee_str_dt: inYear(prevStart, d.plan.joinMonth, g.from[0], g.from[1]),
          fee_grp_fee_exp_dt: inYear(prevStart, d.plan.joinMonth, g.to[0], g.to[1]),
          fee_grp_fee_prid_amt: g.late,
          fee_grp_dscr: g.desc,
          crt_by: d.admin,
        })),
        ['fee_grp_nm'],
      )
    ).map((g) => [String(g.fee_grp_nm), Number(g.fee_grp_cd)]),
  );
  const types = new Map(
    (await rows<{ feetyp_cd: number; feetyp_nm: string }>(d.tx, sql`SELECT feetyp_cd, feetyp_nm FROM fee_type WHERE inst_cd = ${d.instCd}`)).map((t) => [t.feetyp_nm, t.feetyp_cd]),
  );
  // Whole Rs 50s, in paise: 95% of the amount, rounded half up.
  const cheaper = (amt: string): string => fromPaise(Math.floor((toPaise(amt) * 95 + 250_000) / 500_000) * 5_000);
  const mapping: Row[] = [];
  for (const line of feePlan[d.plan.kind]) {
    const g = groups.get(line.group);
    const t = types.get(line.type);
    if (g === undefined || t === undefined) continue;
    for (const cls of line.classes) {
      const c = d.classes.get(cls);
      if (c === undefined) continue;
      mapping.push({ inst_cd: d.instCd, acdm_cd: prevCd, fee_grp_cd: g, feetyp_cd: t, cls_cd: c, fee_amt: cheaper(line.newAmt), fee_amt_aftr_prmtn: cheaper(line.oldAmt), crt_by: d.admin });
    }
  }
  await d.add('fee', mapping);
  await refreshFeeNames(d.tx, sql`f.inst_cd = ${d.instCd} AND f.acdm_cd = ${prevCd}`);

  // Bills of last year, by the same code as this year's: everything fell due long ago. The per-line view is
  // planned on the tables' real sizes only with fresh statistics (db/statistics.ts): seconds otherwise.
  await d.tx.execute(sql`ANALYZE student, academic, fee, fee_group, student_discount, fee_collection_line`);
  const [me] = await rows<{ usr_full_nm: string }>(d.tx, sql`SELECT usr_full_nm FROM employee WHERE usr_cd = ${d.admin}`);
  await feeBillsDemo({
    ...d,
    acdmCd: prevCd,
    collectors: [...(d.accountant ? [d.accountant] : []), { usr_cd: d.admin, fullName: me?.usr_full_nm ?? 'Administrator' }],
    rng: (topic) => d.rng(`last-year/${topic}`),
    habits: { full: 0.95, part: 0.05, laterTerms: 1, shortAt: 'last', cancellations: false },
  });

  // Promotion: one record per section moved on, the week before this year began.
  const promotedOn = addDays(yearStart, -7);
  const moved = new Map<string, number>();
  for (const x of drafts) moved.set(`${x.key}>${x.stays}`, (moved.get(`${x.key}>${x.stays}`) ?? 0) + 1);
  const promotions: Row[] = [...moved]
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map(([pair, n]) => {
      const [from, to] = pair.split('>');
      return {
        inst_cd: d.instCd,
        frm_cls_cd: d.classes.get(from.split('|')[0])!,
        frm_sec_cd: d.sections.get(from)!,
        to_cls_cd: d.classes.get(to.split('|')[0])!,
        to_sec_cd: d.sections.get(to)!,
        prmtn_stud_cnt: n,
        prmtn_crt_dt: promotedOn,
        crt_acdm_cd: prevCd,
        to_acdm_cd: d.acdmCd,
        crt_by: d.admin,
      };
    });
  // The office promotes in class order, so the newest record is the top class's.
  promotions.sort((a, b) => Number(a.frm_sec_cd) - Number(b.frm_sec_cd));
  await d.add('promotion', promotions);

  // Transfer and conduct certificates of those who left, issued in the last weeks of last year.
  const lastDay = addDays(yearStart, -1);
  const certs: Row[] = [];
  for (const x of leavers) {
    const stud = prevStud.get(String(x.row.stud_adm_cd));
    if (stud === undefined) continue;
    const on = addDays(lastDay, -r.int(5, 40));
    // Kinds and what a TC states; the numbers are given with this year's certificates (student-office-demo).
    const cert = { inst_cd: d.instCd, acdm_cd: prevCd, stud_cd: stud, cert_fct_crt_dt: on, cert_fct_cndct: 'Good', usr_nm: me?.usr_full_nm ?? 'Administrator', crt_by: d.admin };
    certs.push({ ...cert, cert_fct_typ: 'Transfer Certificate', cert_fct_nm: 'Transfer Certificate', cert_fct_lvng_dt: on, cert_fct_lvng_rsn: 'Completed the year; joining another school' });
    certs.push({ ...cert, cert_fct_typ: 'Conduct', cert_fct_nm: 'Conduct Certificate', cert_fct_lvng_dt: null, cert_fct_lvng_rsn: null });
  }
  await d.add('certificate', certs);

  // What the year-to-year copy carried from last year into this one.
  const [{ n: groupsNow }] = await rows<{ n: number }>(d.tx, sql`SELECT count(*)::int AS n FROM fee_group WHERE inst_cd = ${d.instCd} AND acdm_cd = ${d.acdmCd}`);
  const [{ n: feesNow }] = await rows<{ n: number }>(d.tx, sql`SELECT count(*)::int AS n FROM fee WHERE inst_cd = ${d.instCd} AND acdm_cd = ${d.acdmCd}`);
  const [{ n: holidaysNow }] = await rows<{ n: number }>(d.tx, sql`SELECT count(*)::int AS n FROM holiday WHERE inst_cd = ${d.instCd} AND acdm_cd = ${d.acdmCd}`);
  const from = yearLabel(prevStart);
  const to = yearLabel(d.startYear);
  const copy = (tbl: string, n: number, dscr: string): Row => ({ inst_cd: d.instCd, mgrtn_tbl_cd: tbl, frm_acdm_cd: prevCd, to_acdm_cd: d.acdmCd, row_cnt: n, mgrtn_dscr: dscr, crt_by: d.admin });
  await d.add('migration', [
    copy('fee_group', groupsNow, `Terms of ${from} copied to ${to} with the dates moved on a year.`),
    copy('fee', feesNow, `Fee mapping of ${from} copied to ${to}; amounts then revised (about 5% up).`),
    copy('holiday', holidaysNow, `Holiday list of ${from} copied; festival dates corrected to the ${to} government list.`),
    copy('student', drafts.length, `Students of ${from} promoted into their ${d.plan.kind === 'school' ? 'next class' : 'next year'} (see Promotion); ${leavers.length} left with a transfer certificate.`),
  ]);
}

/** Staff wards 50%, siblings 10% and merit 25% of tuition, each line as the discount hooks would store it. */
async function discounts(d: LastYearDemo, family: DiscountPlan[]): Promise<void> {
  const plans = [...family];
  const taken = new Set(plans.map((p) => p.stud_cd));
  // Merit: the best average of each class (college: each year of a department) in this year's papers marked so far.
  const scores = await rows<{ stud_cd: number; cls_nm: string; cls_desc: string | null; cls_odr: number; sec_nm: string }>(
    d.tx,
    sql`SELECT m.stud_cd, c.cls_nm, c.cls_desc, c.cls_odr, x.sec_nm
        FROM student_mark m JOIN mark k ON k.mrk_cd = m.mrk_cd JOIN student s ON s.stud_cd = m.stud_cd
        JOIN class c ON c.cls_cd = s.cls_cd JOIN section x ON x.sec_cd = s.sec_cd
        WHERE m.inst_cd = ${d.instCd} AND m.acdm_cd = ${d.acdmCd} AND m.stud_mrk_obt IS NOT NULL
        GROUP BY m.stud_cd, c.cls_odr, c.cls_nm, c.cls_desc, x.sec_nm
        ORDER BY c.cls_odr, x.sec_nm, avg(m.stud_mrk_obt / k.mrk_max_mrk) DESC, m.stud_cd`,
  );
  const groupDone = new Set<string>();
  for (const b of scores) {
    const group = d.plan.kind === 'school' ? b.cls_nm : `${b.cls_nm} ${b.sec_nm}`;
    // No scholarships in kindergarten.
    if (groupDone.has(group) || taken.has(b.stud_cd) || (d.plan.kind === 'school' && b.cls_odr <= 2)) continue;
    groupDone.add(group);
    taken.add(b.stud_cd);
    plans.push({ stud_cd: b.stud_cd, pct: '25.00', reason: `Merit scholarship: first in ${d.plan.kind === 'school' ? (b.cls_desc ?? b.cls_nm) : group} in this year's examinations.` });
  }
  if (plans.length === 0) return;
  const lines = await rows<{ stud_cd: number; fee_cd: number; amount: string; sec_cd: number }>(
    d.tx,
    sql`SELECT l.stud_cd, l.fee_cd, l.amount::text AS amount, s.sec_cd
        FROM student_fee_line_v l JOIN student s ON s.stud_cd = l.stud_cd JOIN fee_type t ON t.feetyp_cd = l.feetyp_cd
        WHERE l.inst_cd = ${d.instCd} AND l.acdm_cd = ${d.acdmCd} AND t.feetyp_nm = 'Tuition Fee'
          AND l.stud_cd IN (${sql.join(plans.map((p) => sql`${p.stud_cd}`), sql`, `)})
        ORDER BY l.stud_cd, l.fee_grp_fee_str_dt, l.fee_cd`,
  );
  const planOf = new Map(plans.map((p) => [p.stud_cd, p]));
  const out: Row[] = [];
  for (const l of lines) {
    const p = planOf.get(Number(l.stud_cd))!;
    const base = toPaise(l.amount);
    const amt = discountAmount(p.pct, base);
    out.push({
      inst_cd: d.instCd,
      acdm_cd: d.acdmCd,
      stud_cd: Number(l.stud_cd),
      fee_cd: Number(l.fee_cd),
      disc_pct: discountPercent(amt, base),
      disc_amt: fromPaise(amt),
      disc_rsn: p.reason,
      sec_cd: Number(l.sec_cd),
      crt_by: d.admin,
    });
  }
  await d.add('student_discount', out);
}
