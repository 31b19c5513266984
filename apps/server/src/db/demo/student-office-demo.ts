import { fromPaise, toPaise } from '../../lib/paise';
import { rows, sql } from '../client';
import { addDays, birthDate, iso } from './calendar';
import type { Row } from './insert-rows';
import { namePools } from './names';
import type { Rng } from './prng';
import { markedDays } from './student-workflow-demo';
import type { DemoScope } from './demo-scope';

export interface StudentOfficeDemo extends DemoScope {
  /** 'VI' -> cls_cd; 'VI|A' -> sec_cd; subject name -> sub_cd. */
  classes: ReadonlyMap<string, number>;
  sections: ReadonlyMap<string, number>;
  subjects: ReadonlyMap<string, number>;
  /** Subjects of each section ('VI|A') with their teacher's usr_cd. */
  mapping: ReadonlyMap<string, readonly { sub: string; usr: number }[]>;
  accountant?: { usr_cd: number; fullName: string };
}

interface Kid {
  stud_cd: number;
  stud_fs_nm: string;
  stud_gnd: string | null;
  stud_fthr_nm: string | null;
  stud_mthr_nm: string | null;
  stud_ph: string | null;
  stud_dob: string | null;
  stud_doj: string | null;
  cls_cd: number;
  cls_nm: string;
  cls_odr: number;
  sec_nm: string;
}

interface Office {
  d: StudentOfficeDemo;
  kids: Kid[];
  adminName: string;
  clerk: { usr_cd: number; fullName: string };
  yearStart: string;
  /** School days with a register, oldest first. */
  days: string[];
}

const pad = (n: number): string => String(n).padStart(2, '0');
const clock = (r: Rng, from: number, to: number): string => `${pad(r.int(from, to))}:${pad(r.int(0, 11) * 5)}:00`;
const isSunday = (day: string): boolean => new Date(`${day}T00:00:00Z`).getUTCDay() === 0;
const nextWorkday = (day: string): string => (isSunday(day) ? addDays(day, 1) : new Date(`${day}T00:00:00Z`).getUTCDay() === 6 ? addDays(day, 2) : day);
const firstName = (full: string | null): string => (full ?? '').split(' ')[0] || 'the parent';
const rupees = (paise: number): string => `Rs ${fromPaise(paise)}`;

/**
 * The student office's everyday records, written after the bills because the follow-ups and online payments
 * are about them: wallets, certificates, this year's admissions (and next year's first enquiries), homework
 * and study material, leave requests that agree with the register, early and member pickups, calls to
 * families with fees overdue and online payments waiting for the office or already billed.
 */
export async function studentOfficeDemo(d: StudentOfficeDemo): Promise<void> {
  const kids = await rows<Kid>(
    d.tx,
    sql`SELECT s.stud_cd, s.stud_fs_nm, s.stud_gnd, s.stud_fthr_nm, s.stud_mthr_nm, s.stud_ph, s.stud_dob::text AS stud_dob, s.stud_doj::text AS stud_doj,
               s.cls_cd, c.cls_nm, c.cls_odr, x.sec_nm
        FROM student s JOIN class c ON c.cls_cd = s.cls_cd JOIN section x ON x.sec_cd = s.sec_cd
        WHERE s.inst_cd = ${d.instCd} AND s.acdm_cd = ${d.acdmCd} ORDER BY s.stud_cd`,
  );
  if (kids.length === 0) return;
  const [me] = await rows<{ usr_full_nm: string }>(d.tx, sql`SELECT usr_full_nm FROM employee WHERE usr_cd = ${d.admin}`);
  const adminName = me?.usr_full_nm ?? 'Administrator';
  const o: Office = {
    d,
    kids,
    adminName,
    clerk: d.accountant ?? { usr_cd: d.admin, fullName: adminName },
    yearStart: iso(d.startYear, d.joinMonth, 1),
    days: markedDays({ kind: d.kind, startYear: d.startYear, joinMonth: d.joinMonth, today: d.today }),
  };
  await wallets(o);
  await certificates(o);
  await admissions(o);
  await assignments(o);
  await resources(o);
  await leaves(o);
  await pickups(o);
  await followups(o);
  await onlinePayments(o);
}

const base = (o: Office, r: Row, by = o.d.admin): Row => ({ inst_cd: o.d.instCd, acdm_cd: o.d.acdmCd, ...r, crt_by: by });
const later = (a: string, b: string): string => (a > b ? a : b);

/**
 * About one child in four keeps money in the wallet for the canteen and stationery: Rs 200 to Rs 3,000 now.
 * The balance is the sum of the wallet's movements, as the ledger keeps it: a top-up at the start of the year,
 * canteen and stationery spends, and for some a second top-up on the day of the last change.
 */
async function wallets(o: Office): Promise<void> {
  const r = o.d.rng('wallets');
  const list: Row[] = [];
  for (const k of o.kids) {
    if (!r.chance(0.25)) continue;
    list.push(base(o, { stud_cd: k.stud_cd, wlt_amt: fromPaise(r.int(4, 60) * 5_000), usr_full_nm: o.clerk.fullName, wlt_updt_dt: later(o.yearStart, addDays(o.d.today, -r.int(0, 75))) }, o.clerk.usr_cd));
  }
  const made = await o.d.add('wallet', list, ['stud_cd']);
  const byStudent = new Map(made.map((w) => [Number(w.stud_cd), Number(w.wlt_cd)]));
  const moves: Row[] = [];
  const spendReasons = ['Canteen', 'Stationery', 'Notebooks', 'Canteen snacks', 'Art supplies'];
  for (const w of list) {
    const wltCd = byStudent.get(Number(w.stud_cd));
    if (wltCd === undefined) continue;
    const target = toPaise(String(w.wlt_amt));
    const last = String(w.wlt_updt_dt);
    const span = Math.max(0, Math.round((Date.parse(last) - Date.parse(o.yearStart)) / 86_400_000));
    const spends = Array.from({ length: r.int(0, 4) }, () => r.int(2, 30) * 500);
    const spent = spends.reduce((a, b) => a + b, 0);
    // Part of today's balance came in with a later top-up (on the last change), the rest with the first one.
    const second = spends.length > 0 && r.chance(0.4) ? Math.min(target, r.int(1, 10) * 10_000) : 0;
    const first = target - second + spent;
    let balance = 0;
    const add = (type: string, paise: number, reason: string, on: string): void => {
      balance += paise;
      moves.push(
        base(o, {
          wlt_cd: wltCd,
          stud_cd: w.stud_cd,
          wlt_txn_typ: type,
          wlt_txn_amt: fromPaise(paise),
          wlt_txn_bal: fromPaise(balance),
          wlt_txn_rsn: reason,
          wlt_txn_by: o.clerk.fullName,
          wlt_txn_dt: on,
          wlt_txn_tm: clock(r, 9, 15),
        }, o.clerk.usr_cd),
      );
    };
    const days = spends.map(() => addDays(o.yearStart, r.int(1, Math.max(1, span)))).sort();
    add('Top-up', first, 'Paid in by the parent', spends.length > 0 || second > 0 ? o.yearStart : last);
    spends.forEach((p, i) => add('Spend', -p, r.pick(spendReasons), days[i] > last ? last : days[i]));
    if (second > 0) add('Top-up', second, 'Paid in by the parent', last);
  }
  await o.d.add('wallet_transaction', moves);
}

/** Bonafide certificates (bank, scholarship, bus pass), the odd conduct certificate and a few who leave this week. */
async function certificates(o: Office): Promise<void> {
  const r = o.d.rng('certificates');
  const list: Row[] = [];
  const issue = (k: Kid, kind: string, nm: string, on: string, more: Row = {}): void => {
    // Every row names every column (the bulk insert wants one shape); what a kind does not state stays empty.
    const blank = { cert_fct_prps: null, cert_fct_lvng_dt: null, cert_fct_lvng_rsn: null, cert_fct_cndct: null };
    list.push(base(o, { stud_cd: k.stud_cd, cert_fct_typ: kind, cert_fct_nm: nm, cert_fct_crt_dt: on, usr_nm: o.adminName, ...blank, ...more }));
  };
  const span = Math.max(0, Math.round((Date.parse(o.d.today) - Date.parse(o.yearStart)) / 86_400_000));
  const leaving = new Set<number>();
  for (let i = 0; i < (o.d.kind === 'school' ? 3 : 2); i++) leaving.add(r.pick(o.kids).stud_cd);
  const purposes = ['To open a savings bank account', 'For the scholarship application', 'For the bus pass', 'For the passport application'];
  const reasons = ["Parent's transfer to another town", 'Family moving to another city', 'Admission in another school nearer home'];
  for (const k of o.kids) {
    if (leaving.has(k.stud_cd)) {
      // Leaving this week: the transfer and conduct certificates go together.
      const conduct = r.pick(['Very Good', 'Good', 'Excellent']);
      issue(k, 'Transfer Certificate', 'Transfer Certificate', o.d.today, { cert_fct_lvng_dt: o.d.today, cert_fct_lvng_rsn: r.pick(reasons), cert_fct_cndct: conduct });
      issue(k, 'Conduct', 'Conduct Certificate', o.d.today, { cert_fct_cndct: conduct });
    } else if (r.chance(0.05)) {
      // For a bank account, a scholarship or a bus pass: any working day of the year so far.
      const on = nextWorkday(addDays(o.yearStart, r.int(3, Math.max(3, span))));
      issue(k, 'Bonafide', 'Bonafide Certificate', on > o.d.today ? o.d.today : on, { cert_fct_prps: r.pick(purposes) });
    } else if (r.chance(0.01)) {
      issue(k, 'Conduct', 'Conduct Certificate', addDays(o.d.today, -r.int(1, Math.max(1, Math.min(60, span)))), { cert_fct_cndct: r.pick(['Very Good', 'Good']) });
    }
  }
  list.sort((a, b) => String(a.cert_fct_crt_dt).localeCompare(String(b.cert_fct_crt_dt)));
  await o.d.add('certificate', list);
  // The institute's one running series, last year's leavers' certificates first (written before these), in
  // the order issued: what the server's certificate hooks give a certificate made on the page.
  await o.d.tx.execute(
    sql`UPDATE certificate c SET cert_fct_nmb = n.k
        FROM (SELECT cert_fct_cd, row_number() OVER (ORDER BY cert_fct_crt_dt, cert_fct_cd)::int AS k FROM certificate WHERE inst_cd = ${o.d.instCd}) n
        WHERE n.cert_fct_cd = c.cert_fct_cd`,
  );
}

/**
 * This year's intake as the office processed it: every child who joined this year was an application
 * admitted a few weeks before joining (same name, mobile and class), others were rejected or withdrawn; and
 * the first enquiries for next year's intake, still open.
 */
async function admissions(o: Office): Promise<void> {
  const r = o.d.rng('admissions');
  const list: Row[] = [];
  const dob = (intake: number, level: number): string => birthDate(r, o.d.kind, intake, level);
  const levelOf = (k: Kid): number => (o.d.kind === 'school' ? k.cls_odr - 1 : ['I Year', 'II Year', 'III Year'].indexOf(k.sec_nm));
  const row = (dt: string, nm: string, birth: string, mob: string | null, cls: number, status: string, studCd: number | null = null): Row =>
    base(o, { stud_admn_dt: dt, stud_admn_stud_nm: nm, stud_admn_stud_dob: birth, stud_admn_stud_mob: mob, cls_cd: cls, stud_admn_status: status, stud_cd: studCd });
  for (const k of o.kids) {
    if (!k.stud_doj || k.stud_doj < o.yearStart) continue;
    // The form the parents filled in gave the birthday the register now holds; Admit linked it to the student.
    list.push(row(addDays(k.stud_doj, -r.int(14, 100)), k.stud_fs_nm, k.stud_dob ?? dob(o.d.startYear, Math.max(0, levelOf(k))), k.stud_ph, k.cls_cd, 'Admitted', k.stud_cd));
  }
  const firstClass = [...o.d.classes.values()][0];
  const classCodes = [...o.d.classes.values()];
  const person = (): string => {
    const pool = r.pick(namePools);
    return `${r.pick(r.chance(0.5) ? pool.female : pool.male)} ${r.pick(pool.family)}`;
  };
  const phone = (): string => `+91 ${r.pick(['9', '8', '7', '6'])}${r.int(1000, 9999)} ${r.int(10000, 99999)}`;
  const closed = o.d.kind === 'school' ? 14 : 6;
  for (let i = 0; i < closed; i++) {
    const cls = r.chance(0.6) ? firstClass : r.pick(classCodes);
    list.push(row(addDays(o.yearStart, -r.int(20, 110)), person(), dob(o.d.startYear, cls === firstClass ? 0 : r.int(1, 4)), phone(), cls, r.pick(['Rejected', 'Withdrawn', 'Withdrawn'])));
  }
  // Next June's intake: enquiries from the last seven weeks, a few already applied or shortlisted.
  const open = o.d.kind === 'school' ? 18 : 5;
  for (let i = 0; i < open; i++) {
    const dt = addDays(o.d.today, -r.int(0, 48));
    const roll = r.next();
    list.push(row(dt, person(), dob(o.d.startYear + 1, 0), phone(), firstClass, roll < 0.5 ? 'Enquiry' : roll < 0.85 ? 'Applied' : 'Shortlisted'));
  }
  list.sort((a, b) => String(a.stud_admn_dt).localeCompare(String(b.stud_admn_dt)));
  await o.d.add('student_admission', list);
  // Admit numbers the next child in the school's own series ('SMS/{YYYY}/{#####}'), as its register does.
  const [sample] = await rows<{ adm: string }>(o.d.tx, sql`SELECT stud_adm_cd AS adm FROM student WHERE inst_cd = ${o.d.instCd} AND stud_adm_cd LIKE '%/%' LIMIT 1`);
  if (sample) {
    await o.d.add('setting', [
      { inst_cd: o.d.instCd, setg_unq_cd: 'ADMN_NO_PTRN', setg_nm: 'Admission number pattern', setg_val: `${sample.adm.split('/')[0]}/{YYYY}/{#####}`, crt_by: o.d.admin },
    ]);
  }
}

const homework: Record<string, readonly string[]> = {
  English: ['Comprehension passage and questions', 'Letter writing: to your friend about a holiday', 'Grammar worksheet: tenses', 'Read the lesson and write new words with meanings'],
  Tamil: ['Thirukkural: learn and write five couplets', 'Katturai: en pallikoodam', 'Ilakkanam payirchi', 'Seyyul: memorise the poem'],
  Hindi: ['Varnamala practice', 'Write ten sentences about your family', 'Vyakaran worksheet: sangya'],
  Mathematics: ['Exercise problems, chapter review', 'Worksheet: fractions and decimals', 'Word problems on percentages', 'Mental maths practice sheet', 'Geometry: construct and measure angles'],
  'Environmental Science': ['Draw and label the parts of a plant', 'Collect five kinds of leaves', 'Our neighbourhood: a short note'],
  Science: ['Diagram: the human digestive system', 'Activity: separating mixtures at home', 'Questions on light and shadows', 'Project: a model of the solar system'],
  'Social Science': ['Map work: rivers of Tamil Nadu', 'Timeline of the freedom struggle', 'Questions on the Indian Constitution'],
  'Computer Science': ['Type a paragraph in the word processor', 'Draw a flowchart for making tea', 'Parts of a computer: worksheet'],
};
const collegeWork = ['Assignment: unit one questions', 'Seminar topic write-up', 'Problem set for the unit', 'Case study and short report', 'Reading summary for the tutorial'];

/** Homework per section and subject: some due and closed, some open, the odd draft for next week. */
async function assignments(o: Office): Promise<void> {
  const r = o.d.rng('assignments');
  const list: Row[] = [];
  for (const [key, secCd] of o.d.sections) {
    const [cls] = key.split('|');
    const clsCd = o.d.classes.get(cls);
    for (const { sub, usr } of o.d.mapping.get(key) ?? []) {
      const subCd = o.d.subjects.get(sub);
      const topics = o.d.kind === 'school' ? homework[sub] : collegeWork;
      if (clsCd === undefined || subCd === undefined || !topics) continue;
      const count = o.d.kind === 'school' && ['LKG', 'UKG'].includes(cls) ? 1 : 2;
      const dues = [addDays(o.d.today, -r.int(8, 30)), addDays(o.d.today, r.int(1, 10))].slice(2 - count);
      for (const [i, dueRaw] of dues.entries()) {
        const due = nextWorkday(dueRaw);
        const set = later(o.yearStart, addDays(due, -r.int(5, 10)));
        if (set > o.d.today) continue;
        const status = due < addDays(o.d.today, -7) ? 'Closed' : due > o.d.today && i === dues.length - 1 && r.chance(0.15) ? 'Draft' : 'Published';
        const title = r.pick(topics);
        list.push(
          base(
            o,
            {
              stud_asgmt_ttl: o.d.kind === 'school' ? title : `${sub}: ${title}`,
              cls_cd: clsCd,
              sec_cd: secCd,
              sub_cd: subCd,
              stud_asgmt_dscr: status === 'Closed' ? 'Collected and corrected; marks entered in the class register.' : 'Submit in the notebook on the due date. Neat handwriting counts.',
              stud_asgmt_due_dt: due,
              stud_asgmt_sts: status,
              stud_asgmt_crt_dt: set,
            },
            usr,
          ),
        );
      }
    }
  }
  await o.d.add('student_assignment', list);
}

/** Notes, question papers and links for each class's main subjects, uploaded by the subject's teacher. */
async function resources(o: Office): Promise<void> {
  const r = o.d.rng('resources');
  const list: Row[] = [];
  const kinds = ['Notes', 'Question Paper', 'Worksheet', 'Presentation'] as const;
  const link = o.d.kind === 'school' ? 'Tamil Nadu textbooks online: https://www.textbooksonline.tn.nic.in/' : 'University syllabus: https://b-u.ac.in/ (syllabus and model papers)';
  const seen = new Set<string>();
  for (const [key, teachers] of o.d.mapping) {
    const [cls] = key.split('|');
    for (const { sub, usr } of teachers) {
      if (seen.has(`${cls}|${sub}`) || ['Physical Education', 'Drawing'].includes(sub) || !r.chance(o.d.kind === 'school' ? 0.45 : 0.4)) continue;
      seen.add(`${cls}|${sub}`);
      const typ = r.pick(kinds);
      const title = typ === 'Question Paper' ? `${sub} - previous year question paper (${cls})` : typ === 'Presentation' ? `${sub} - unit slides (${cls})` : `${sub} - ${typ.toLowerCase()} for ${cls}`;
      list.push({
        inst_cd: o.d.instCd,
        stud_rscs_ttl: title,
        stud_rscs_typ: typ,
        cls_cd: o.d.classes.get(cls) ?? null,
        sub_cd: o.d.subjects.get(sub) ?? null,
        stud_rscs_dscr: r.chance(0.4) ? link : typ === 'Question Paper' ? 'With the answer key; the printed copy is in the library.' : 'Covers the first two units; revise before the test.',
        stud_rscs_fl: null,
        stud_rscs_upl_dt: later(o.yearStart, addDays(o.d.today, -r.int(3, 120))),
        crt_by: usr,
      });
    }
  }
  list.push({
    inst_cd: o.d.instCd,
    stud_rscs_ttl: 'How to use the library and reading room',
    stud_rscs_typ: 'Other',
    cls_cd: null,
    sub_cd: null,
    stud_rscs_dscr: 'Borrowing rules, fines and the reading room timings, for every class.',
    stud_rscs_fl: null,
    stud_rscs_upl_dt: addDays(o.yearStart, 10) < o.d.today ? addDays(o.yearStart, 10) : o.d.today,
    crt_by: o.d.admin,
  });
  list.sort((a, b) => String(a.stud_rscs_upl_dt).localeCompare(String(b.stud_rscs_upl_dt)));
  await o.d.add('student_resource', list);
}

/**
 * Leave requests that agree with the register: approved leave covers days the child was marked absent,
 * rejected and cancelled requests days the child came; requests from tomorrow on are pending or approved.
 */
async function leaves(o: Office): Promise<void> {
  const r = o.d.rng('leave-requests');
  const types = new Map(
    (await rows<{ leav_typ_cd: number; leav_typ_nm: string }>(o.d.tx, sql`SELECT leav_typ_cd, leav_typ_nm FROM leave_type WHERE inst_cd = ${o.d.instCd} AND leav_typ_for IN ('Student', 'Both')`)).map(
      (t) => [t.leav_typ_nm, t.leav_typ_cd],
    ),
  );
  const anyType = types.get('Sick Leave') ?? types.get('Medical Leave') ?? [...types.values()][0];
  if (anyType === undefined) return;
  const sick: number = anyType;
  const medical: number = types.get('Medical Leave') ?? sick;
  const marks = await rows<{ stud_cd: number; day: string; sts: string }>(
    o.d.tx,
    sql`SELECT stud_cd, stud_attn_dt::text AS day, stud_attn_sts AS sts FROM student_attendance
        WHERE inst_cd = ${o.d.instCd} AND acdm_cd = ${o.d.acdmCd} ORDER BY stud_cd, stud_attn_dt`,
  );
  const byKid = new Map<number, { day: string; sts: string }[]>();
  for (const m of marks) byKid.set(m.stud_cd, [...(byKid.get(m.stud_cd) ?? []), m]);
  const list: Row[] = [];
  const leave = (stud: number, typ: number, from: string, to: string, reason: string, status: string): void => {
    list.push(base(o, { stud_cd: stud, leav_typ_cd: typ, stud_leav_frm_dt: from, stud_leav_to_dt: to, stud_leav_rsn: reason, stud_leav_sts: status }));
  };
  for (const k of o.kids) {
    const days = byKid.get(k.stud_cd) ?? [];
    // A run of consecutive register days marked absent, for an approved leave.
    const i = days.findIndex((x) => x.sts === 'Absent');
    if (i >= 0 && r.chance(0.12)) {
      let j = i;
      while (j + 1 < days.length && days[j + 1].sts === 'Absent' && j - i < 3) j++;
      const long = j > i;
      leave(k.stud_cd, long ? medical : sick, days[i].day, days[j].day, long ? r.pick(['Viral fever; doctor advised rest.', 'Chicken pox; certificate attached.', 'Typhoid, under treatment.']) : r.pick(['Fever and cold.', 'Stomach upset.', 'Eye infection (conjunctivitis).', 'Family function in the native place.']), 'Approved');
      continue;
    }
    const present = days.filter((x) => x.sts === 'Present');
    if (present.length && r.chance(0.01)) {
      const day = r.pick(present).day;
      leave(k.stud_cd, sick, day, day, r.pick(['Cousin\'s wedding.', 'Going to the native place.']), r.chance(0.5) ? 'Rejected' : 'Cancelled');
      continue;
    }
    if (r.chance(0.02)) {
      const from = nextWorkday(addDays(o.d.today, r.int(1, 14)));
      const to = nextWorkday(addDays(from, r.int(0, 2)));
      leave(k.stud_cd, r.chance(0.7) ? sick : medical, from, to, r.pick(['Family function in the native place.', 'Minor surgery; doctor has advised rest.', "Sister's wedding.", 'Temple festival in the village.']), r.chance(0.6) ? 'Pending' : 'Approved');
    }
  }
  await o.d.add('student_leave', list);
}

/** Early pickups on days the child was at school, and people other than the parents collecting a child. */
async function pickups(o: Office): Promise<void> {
  const r = o.d.rng('pickups');
  const present = await rows<{ stud_cd: number; day: string }>(
    o.d.tx,
    sql`SELECT stud_cd, stud_attn_dt::text AS day FROM student_attendance
        WHERE inst_cd = ${o.d.instCd} AND acdm_cd = ${o.d.acdmCd} AND stud_attn_sts = 'Present' AND stud_cd % 37 = 5 ORDER BY stud_attn_dt, stud_cd`,
  );
  const kid = new Map(o.kids.map((k) => [k.stud_cd, k]));
  const early: Row[] = [];
  const members: Row[] = [];
  const upcoming = nextWorkday(addDays(o.d.today, 1));
  for (const p of present) {
    const k = kid.get(p.stud_cd);
    if (!k || !r.chance(0.12)) continue;
    const father = firstName(k.stud_fthr_nm);
    const rejected = r.chance(0.1);
    early.push(
      base(o, {
        stud_cd: k.stud_cd,
        erly_pckp_dt: p.day,
        erly_pckp_tm: clock(r, 11, 14),
        erly_pckp_req_rsn: r.pick(['Dental appointment.', 'Not feeling well; parent called.', 'Family function in the evening.', 'Passport office appointment.', 'Going to the native place by the afternoon train.']),
        erly_pckp_req_sts: rejected ? 'Rejected' : 'Picked Up',
        erly_pckp_cmts: rejected ? 'Unit test in the afternoon; parent agreed to collect the child after school.' : `Collected by ${r.chance(0.6) ? `father (${father})` : 'mother'}; signed the gate register.`,
      }),
    );
    if (r.chance(0.35)) {
      const family = (k.stud_fs_nm.split(' ').at(-1) ?? '').trim();
      const pool = namePools.find((x) => x.family.includes(family)) ?? namePools[0];
      const who = r.pick([`${r.pick(pool.male)} ${family} (uncle)`, `${r.pick(pool.male)} ${family} (grandfather)`, `${r.pick(pool.female)} ${family} (aunt)`, `${r.pick(pool.male)} (auto driver, regular)`]);
      const refused = r.chance(0.1);
      members.push(
        base(o, {
          stud_cd: k.stud_cd,
          mbr_pckp_psn: who,
          mbr_pckp_dt: p.day,
          mbr_pckp_rsn: r.pick(['Parents out of town.', 'Mother in hospital.', 'Father working late this week.']),
          mbr_pckp_sts: refused ? 'Rejected' : 'Picked Up',
          mbr_pckp_cmts: refused ? 'Not on the authorised list and the parent could not be reached; child kept until the father came.' : 'Parent confirmed by phone; ID checked at the gate.',
        }),
      );
    }
  }
  // Requests for the next school day, still to be decided or already approved.
  for (const k of o.kids.filter((x) => x.stud_cd % 53 === 7)) {
    early.push(
      base(o, { stud_cd: k.stud_cd, erly_pckp_dt: upcoming, erly_pckp_tm: clock(r, 11, 14), erly_pckp_req_rsn: r.pick(['Eye check-up at the hospital.', 'Sports selection trials outside school.']), erly_pckp_req_sts: r.chance(0.5) ? 'Pending' : 'Approved', erly_pckp_cmts: null }),
    );
    const family = (k.stud_fs_nm.split(' ').at(-1) ?? '').trim();
    const pool = namePools.find((x) => x.family.includes(family)) ?? namePools[0];
    members.push(
      base(o, { stud_cd: k.stud_cd, mbr_pckp_psn: `${r.pick(pool.male)} ${family} (uncle)`, mbr_pckp_dt: upcoming, mbr_pckp_rsn: 'Parents travelling for a wedding.', mbr_pckp_sts: r.chance(0.5) ? 'Pending' : 'Approved', mbr_pckp_cmts: null }),
    );
  }
  await o.d.add('early_pickup', early);
  await o.d.add('member_pickup', members);
}

/** Calls to the families of defaulters (a term overdue) and of children who still owe last year's fees. */
async function followups(o: Office): Promise<void> {
  const r = o.d.rng('fee-followups');
  const owing = await rows<{ stud_cd: number; pending: string; since: string | null }>(
    o.d.tx,
    sql`SELECT stud_cd, "pendingAmt"::text AS pending, fee_dflt_since::text AS since FROM fee_collection_v
        WHERE inst_cd = ${o.d.instCd} AND acdm_cd = ${o.d.acdmCd} AND "pendingAmt" > 0 ORDER BY stud_cd`,
  );
  const old = await rows<{ stud_cd: number; bal: string; label: string }>(
    o.d.tx,
    sql`SELECT c.stud_cd, v."balAmt"::text AS bal, v.acdm_label AS label FROM academic_fee_collect_v v
        JOIN student c ON c.inst_cd = v.inst_cd AND c.acdm_cd = v.acdm_cd AND lower(c.stud_adm_cd) = lower(v.stud_adm_cd)
        WHERE v.inst_cd = ${o.d.instCd} AND v.acdm_cd = ${o.d.acdmCd} ORDER BY c.stud_cd`,
  );
  const kid = new Map(o.kids.map((k) => [k.stud_cd, k]));
  const list: Row[] = [];
  const log = (k: Kid, note: string, daysAgo: number, next: number | null): void => {
    const on = addDays(o.d.today, -daysAgo);
    list.push(base(o, { stud_cd: k.stud_cd, fee_flwup_nt: note, fee_flwup_nxt_dt: next === null ? null : addDays(on, next), fee_flwup_crt_dt: on, fee_flwup_crt_tm: clock(r, 10, 16) }, o.clerk.usr_cd));
  };
  for (const w of owing) {
    const k = kid.get(w.stud_cd);
    if (!k || !r.chance(0.45)) continue;
    const parent = r.chance(0.6) ? `father ${firstName(k.stud_fthr_nm)}` : `mother ${firstName(k.stud_mthr_nm)}`;
    const amount = rupees(toPaise(w.pending));
    const sinceDays = w.since ? Math.max(1, Math.round((Date.parse(o.d.today) - Date.parse(w.since)) / 86_400_000)) : 20;
    const first = Math.min(sinceDays, r.int(12, 30));
    log(k, `Called ${parent} on ${k.stud_ph ?? 'the registered number'}: ${amount} overdue. ${r.pick(['Promised to pay by the end of the month.', 'Will pay after salary on the 5th.', 'Asked for two instalments; told to meet the correspondent.', 'Did not answer; SMS sent.'])}`, first, r.int(7, 14));
    if (first > 10 && r.chance(0.5)) {
      log(k, `Second call to ${parent}: ${r.pick(['paid nothing yet; promised to come to the counter on Saturday.', 'not reachable; reminder letter sent with the child.', 'part payment promised this week.'])}`, r.int(0, first - 7), r.chance(0.8) ? r.int(5, 10) : null);
    }
  }
  for (const w of old) {
    const k = kid.get(w.stud_cd);
    if (!k) continue;
    log(k, `Reminded ${`father ${firstName(k.stud_fthr_nm)}`} of ${rupees(toPaise(w.bal))} still due for ${w.label}; to be paid at the counter under that year.`, r.int(3, 40), r.int(7, 21));
  }
  list.sort((a, b) => `${a.fee_flwup_crt_dt} ${a.fee_flwup_crt_tm}`.localeCompare(`${b.fee_flwup_crt_dt} ${b.fee_flwup_crt_tm}`));
  await o.d.add('fee_followup', list);
}

/**
 * Payments made through the payment gateway: accepted ones became bills (UPI bills of the last weeks,
 * same amount and date, the bill's number); a few wait for the office; a few were rejected.
 */
async function onlinePayments(o: Office): Promise<void> {
  const r = o.d.rng('online-payments');
  const billed = await rows<{ fee_coll_cd: number; stud_cd: number; no: number; dt: string; amt: string }>(
    o.d.tx,
    sql`SELECT b.fee_coll_cd, b.stud_cd, b.fee_coll_bill_no AS no, b.fee_coll_crt_dt::text AS dt, b.fee_coll_amt::text AS amt
        FROM fee_collection_bill b JOIN tender_type t ON t.tnd_typ_cd = b.tnd_typ_cd
        WHERE b.inst_cd = ${o.d.instCd} AND b.acdm_cd = ${o.d.acdmCd} AND b.fee_coll_sts = 'Active' AND t.tnd_typ_nm = 'UPI'
          AND b.fee_coll_crt_dt >= ${addDays(o.d.today, -75)}
        ORDER BY b.fee_coll_bill_no`,
  );
  const owing = await rows<{ stud_cd: number; pending: string }>(
    o.d.tx,
    sql`SELECT stud_cd, "pendingAmt"::text AS pending FROM fee_collection_v WHERE inst_cd = ${o.d.instCd} AND acdm_cd = ${o.d.acdmCd} AND "pendingAmt" > 0 ORDER BY stud_cd`,
  );
  const ids = new Set<string>();
  const txn = (): string => {
    for (;;) {
      const id = `pay_${Array.from({ length: 14 }, () => 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789'[r.int(0, 55)]).join('')}`;
      if (!ids.has(id)) {
        ids.add(id);
        return id;
      }
    }
  };
  const list: Row[] = [];
  const want = o.d.kind === 'school' ? 24 : 8;
  for (const b of billed) {
    if (list.length >= want) break;
    if (!r.chance(0.3)) continue;
    list.push(
      base(
        o,
        {
          stud_cd: b.stud_cd,
          oln_pay_txn_id: txn(),
          oln_pay_txn_dt: b.dt,
          oln_pay_tot_amt: b.amt,
          oln_pay_bill_no: String(b.no),
          fee_coll_cd: Number(b.fee_coll_cd),
          oln_pay_acpt_sts: 'Accepted',
          oln_pay_rjct_rsn: null,
          oln_pay_actn_by: o.clerk.fullName,
          oln_pay_src: 'Gateway',
        },
        o.clerk.usr_cd,
      ),
    );
  }
  const waiting = o.d.kind === 'school' ? 6 : 2;
  for (const w of owing.filter(() => r.chance(0.1)).slice(0, waiting + 3)) {
    const pending = list.filter((x) => x.oln_pay_acpt_sts === 'Pending').length < waiting;
    const paise = toPaise(w.pending);
    const tenth = r.chance(0.5);
    list.push(
      base(
        o,
        {
          stud_cd: w.stud_cd,
          oln_pay_txn_id: txn(),
          oln_pay_txn_dt: addDays(o.d.today, pending ? -r.int(0, 2) : -r.int(10, 40)),
          // A rejected one: the gateway's amount did not match the fee paid for (a digit short, or a double payment).
          // Pending: what the term(s) past their due date still ask, which accepting bills oldest term first.
          oln_pay_tot_amt: fromPaise(pending ? paise : tenth ? Math.floor(paise / 10) : paise * 2),
          oln_pay_bill_no: null,
          fee_coll_cd: null,
          oln_pay_acpt_sts: pending ? 'Pending' : 'Rejected',
          oln_pay_rjct_rsn: pending ? null : tenth ? 'Amount does not match the fee due; the parent was asked to pay the balance at the counter.' : 'Paid twice; the gateway refunds the second payment.',
          oln_pay_actn_by: pending ? null : o.clerk.fullName,
          oln_pay_src: 'Gateway',
        },
        o.clerk.usr_cd,
      ),
    );
  }
  list.sort((a, b) => String(a.oln_pay_txn_dt).localeCompare(String(b.oln_pay_txn_dt)));
  await o.d.add('online_payment_request', list);
}
