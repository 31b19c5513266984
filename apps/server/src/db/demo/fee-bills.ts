import { rows, sql } from '../client';
import { fromPaise, toPaise } from '../../lib/paise';
import { addDays } from './calendar';
import type { Row } from './insert-rows';
import type { Rng } from './prng';
import type { DemoScope } from './demo-scope';

/**
 * The demo's fee bills of the current year, written as the collect-fee workflow writes them (same columns,
 * same invariants), so the counter, Fee Collected, the summaries and the defaulters report all have data:
 * about three in four students paid the first terms in full, one in ten in part, the rest not yet; a term
 * that has opened since is paid by most good payers; a few paid after the due date with the late fee; a
 * handful of bills were cancelled (re-billed, a bounced cheque, one cancelled by mistake and restored).
 */
export interface FeeBillsDemo extends DemoScope {
  /** Who sat at the counter: the first collects most bills. */
  collectors: readonly { usr_cd: number; fullName: string }[];
  /** How families paid that year; this year's habits when left out. */
  habits?: PayHabits;
}

/**
 * Shares of students paying in full and in part (the rest pay nothing yet), the chance a full payer also
 * paid each later term, which visit a part payer left short (the first, stopping there; or the last, having
 * paid the earlier ones in full), and whether the year had its handful of cancelled bills.
 */
export interface PayHabits {
  full: number;
  part: number;
  laterTerms: number;
  shortAt: 'first' | 'last';
  cancellations: boolean;
}

const THIS_YEAR: PayHabits = { full: 0.75, part: 0.1, laterTerms: 0.8, shortAt: 'first', cancellations: true };

interface FeeLine {
  stud_cd: number;
  stud_adm_cd: string;
  cls_cd: number;
  sec_cd: number;
  fee_cd: number;
  fee_grp_cd: number;
  start: string;
  due_dt: string;
  late: string;
  discount: string;
  /** Amount less discount, in paise. */
  net: number;
}

interface Tender {
  tnd_typ_cd: number;
  tnd_typ_nm: string;
  tnd_typ_fld_val: string | null;
}

interface PlannedLine {
  fee_cd: number | null;
  fee_grp_cd: number;
  kind: 'Fee' | 'Late Fee';
  paise: number;
  discount: string;
}

interface PlannedBill {
  student: FeeLine;
  date: string;
  time: string;
  tender: Tender;
  reference: string | null;
  collector: { usr_cd: number; fullName: string };
  lines: PlannedLine[];
  status: 'Active' | 'Cancelled';
  cancel?: { date: string; reason: string; by: string; undo?: { date: string; by: string } };
}

/** How often each tender is used at a school counter; tenders that are off are never offered. */
const TENDER_SHARE: Record<string, number> = { Cash: 55, UPI: 30, Cheque: 7, 'Bank Transfer': 8 };

const digits = (r: Rng, n: number): string => Array.from({ length: n }, (_, i) => String(r.int(i === 0 ? 1 : 0, 9))).join('');

function referenceFor(r: Rng, t: Tender): string | null {
  const asked = (t.tnd_typ_fld_val ?? '').trim();
  if (!asked) return null;
  if (/upi/i.test(asked)) return digits(r, 12);
  if (/cheque/i.test(asked)) return digits(r, 6);
  if (/utr/i.test(asked)) return `${r.pick(['SBIN', 'IOBA', 'CNRB', 'HDFC', 'ICIC'])}${digits(r, 12)}`;
  return digits(r, 10);
}

function pickTender(r: Rng, tenders: readonly Tender[]): Tender {
  const weighted = tenders.map((t) => ({ t, w: TENDER_SHARE[t.tnd_typ_nm] ?? 3 }));
  let roll = r.next() * weighted.reduce((a, x) => a + x.w, 0);
  for (const x of weighted) {
    roll -= x.w;
    if (roll < 0) return x.t;
  }
  return weighted[0].t;
}

/** A working day (no Sunday) between from and to inclusive; from itself when the range is one day. */
function dayBetween(r: Rng, from: string, to: string): string {
  const span = Math.max(0, Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000));
  let d = addDays(from, r.int(0, span));
  if (new Date(`${d}T00:00:00Z`).getUTCDay() === 0) d = d > from ? addDays(d, -1) : addDays(d, 1) <= to ? addDays(d, 1) : d;
  return d;
}

const timeOf = (r: Rng): string => `${String(r.int(9, 15)).padStart(2, '0')}:${String(r.int(0, 59)).padStart(2, '0')}:00`;

export async function feeBillsDemo(d: FeeBillsDemo): Promise<void> {
  const r = d.rng('fee-bills');
  // What each student owes on each mapping row of a term that has opened: the same view the summaries read.
  const lines = await rows<Omit<FeeLine, 'net'> & { amount: string }>(
    d.tx,
    sql`SELECT l.stud_cd, s.stud_adm_cd, s.cls_cd, s.sec_cd, l.fee_cd, l.fee_grp_cd,
               g.fee_grp_fee_str_dt::text AS start, g.fee_grp_fee_exp_dt::text AS due_dt, coalesce(g.fee_grp_fee_prid_amt, 0)::text AS late,
               l.amount::text AS amount, l.discount::text AS discount
        FROM student_fee_line_v l
        JOIN student s ON s.stud_cd = l.stud_cd
        JOIN fee_group g ON g.fee_grp_cd = l.fee_grp_cd
        WHERE l.inst_cd = ${d.instCd} AND l.acdm_cd = ${d.acdmCd} AND g.fee_grp_fee_str_dt <= ${d.today}
        ORDER BY l.stud_cd, g.fee_grp_fee_str_dt, g.fee_grp_cd, l.fee_cd`,
  );
  const tenders = await rows<Tender>(
    d.tx,
    // Wallet and Online bills are written by their own workflows (a wallet movement, an accepted request).
    sql`SELECT tnd_typ_cd, tnd_typ_nm, tnd_typ_fld_val FROM tender_type
        WHERE inst_cd = ${d.instCd} AND tnd_typ_sts AND tnd_typ_nm NOT IN ('Wallet', 'Online') ORDER BY tnd_typ_odr`,
  );
  if (lines.length === 0 || tenders.length === 0 || d.collectors.length === 0) return;
  const cash = tenders.find((t) => !(t.tnd_typ_fld_val ?? '').trim()) ?? tenders[0];

  const byStudent = new Map<number, FeeLine[]>();
  for (const l of lines) {
    const net = toPaise(l.amount) - toPaise(l.discount);
    if (net <= 0) continue;
    const list = byStudent.get(Number(l.stud_cd)) ?? [];
    list.push({ ...l, stud_cd: Number(l.stud_cd), cls_cd: Number(l.cls_cd), sec_cd: Number(l.sec_cd), fee_cd: Number(l.fee_cd), fee_grp_cd: Number(l.fee_grp_cd), net });
    byStudent.set(Number(l.stud_cd), list);
  }

  const collector = () => (r.chance(0.85) ? d.collectors[0] : r.pick(d.collectors));
  const bills: PlannedBill[] = [];
  const h = d.habits ?? THIS_YEAR;
  for (const own of byStudent.values()) {
    const roll = r.next();
    const profile = roll < h.full ? 'full' : roll < h.full + h.part ? 'part' : 'none';
    if (profile === 'none') continue;
    // Terms that open on the same day are paid together at one visit (Term 1 with the annual charges).
    const visits = new Map<string, FeeLine[]>();
    for (const l of own) visits.set(l.start, [...(visits.get(l.start) ?? []), l]);
    let first = true;
    let left = visits.size;
    for (const [start, due] of visits) {
      left--;
      const short = profile === 'part' && (h.shortAt === 'first' ? first : left === 0);
      if (!first && ((profile === 'part' && h.shortAt === 'first') || (profile === 'full' && !r.chance(h.laterTerms)))) continue;
      const inFull = !short;
      const earliestDue = due.reduce((a, l) => (l.due_dt < a ? l.due_dt : a), due[0].due_dt);
      const onTimeUntil = earliestDue < d.today ? earliestDue : d.today;
      // About one in twelve pays after the due date, within six weeks of it, and so pays the late fee too.
      const late = inFull && earliestDue < d.today && r.chance(0.08);
      const date = late ? dayBetween(r, addDays(earliestDue, 1), addDays(earliestDue, 42) < d.today ? addDays(earliestDue, 42) : d.today) : dayBetween(r, start, onTimeUntil);
      let paid: PlannedLine[];
      if (inFull) {
        paid = due.map((l) => ({ fee_cd: l.fee_cd, fee_grp_cd: l.fee_grp_cd, kind: 'Fee', paise: l.net, discount: l.discount }));
      } else {
        // Part: the first fee of the visit, or half of it (in whole hundreds) when it is the only one.
        const l = due[0];
        const paise = due.length > 1 ? l.net : Math.max(10_000, Math.floor(l.net / 2 / 10_000) * 10_000);
        paid = [{ fee_cd: l.fee_cd, fee_grp_cd: l.fee_grp_cd, kind: 'Fee', paise: Math.min(paise, l.net), discount: l.discount }];
      }
      // The late fee of each term whose due date had passed unpaid by the day of the bill.
      const groups = new Map(due.map((l) => [l.fee_grp_cd, l] as const));
      for (const g of groups.values()) {
        if (inFull && date > g.due_dt && toPaise(g.late) > 0) paid.push({ fee_cd: null, fee_grp_cd: g.fee_grp_cd, kind: 'Late Fee', paise: toPaise(g.late), discount: '0.00' });
      }
      const tender = pickTender(r, tenders);
      bills.push({ student: due[0], date, time: timeOf(r), tender, reference: referenceFor(r, tender), collector: collector(), lines: paid, status: 'Active' });
      first = false;
    }
  }

  // A handful of cancellations, each as the cancel workflow leaves it.
  const fullBills = bills.filter((b) => b.lines.every((l) => l.kind === 'Fee'));
  const cancels = h.cancellations ? Math.max(3, Math.round(bills.length / 120)) : 0;
  const chosen = new Set<PlannedBill>();
  while (chosen.size < Math.min(cancels, fullBills.length)) chosen.add(r.pick(fullBills));
  let i = 0;
  for (const b of chosen) {
    const by = d.collectors[d.collectors.length - 1].fullName;
    if (i === 0) {
      // Cancelled by mistake on the day and restored: the bill is active, its cancellation kept as history.
      b.cancel = { date: b.date, reason: 'Cancelled the wrong bill by mistake.', by, undo: { date: b.date, by } };
    } else if (b.tender.tnd_typ_nm === 'Cheque' || i % 2 === 0) {
      // Not paid after all: the amounts fall due again.
      const when = addDays(b.date, 3) < d.today ? addDays(b.date, 3) : d.today;
      const reason = b.tender.tnd_typ_nm === 'Cheque' ? 'Cheque returned unpaid by the bank.' : 'Parent asked to pay later; amount refunded.';
      b.status = 'Cancelled';
      b.cancel = { date: when, reason, by };
    } else {
      // Keyed under the wrong tender: cancelled and collected again in cash on a new bill the same day.
      b.status = 'Cancelled';
      b.cancel = { date: b.date, reason: `Entered as ${b.tender.tnd_typ_nm} by mistake; collected again in cash on a new bill.`, by };
      const later = `${String(Math.min(16, Number(b.time.slice(0, 2)) + 1)).padStart(2, '0')}${b.time.slice(2)}`;
      bills.push({ ...b, time: later, tender: cash, reference: null, status: 'Active', cancel: undefined });
    }
    i++;
  }

  // One receipt book per institute and year: numbers run in the order the bills were written.
  bills.sort((a, b) => (a.date === b.date ? a.time.localeCompare(b.time) : a.date.localeCompare(b.date)));
  const billRows: Row[] = bills.map((b, n) => ({
    fee_coll_bill_no: n + 1,
    fee_coll_crt_dt: b.date,
    fee_coll_crt_tm: b.time,
    stud_cd: b.student.stud_cd,
    stud_adm_cd: b.student.stud_adm_cd,
    cls_cd: b.student.cls_cd,
    sec_cd: b.student.sec_cd,
    fee_coll_amt: fromPaise(b.lines.reduce((a, l) => a + l.paise, 0)),
    fee_coll_disc_amt: fromPaise(b.lines.reduce((a, l) => a + toPaise(l.discount), 0)),
    tnd_typ_cd: b.tender.tnd_typ_cd,
    fee_coll_ref: b.reference,
    fee_coll_by: b.collector.fullName,
    fee_coll_sts: b.status,
    fee_coll_idem_key: `demo-${d.acdmCd}-${n + 1}`,
    inst_cd: d.instCd,
    acdm_cd: d.acdmCd,
    crt_by: b.collector.usr_cd,
  }));
  const saved = await d.add('collected_fee', billRows, ['fee_coll_bill_no']);
  const codeOf = new Map(saved.map((s) => [Number(s.fee_coll_bill_no), Number(s.fee_coll_cd)]));
  const lineRows: Row[] = [];
  const cancelRows: Row[] = [];
  bills.forEach((b, n) => {
    const id = codeOf.get(n + 1)!;
    for (const l of b.lines) {
      lineRows.push({
        fee_coll_cd: id,
        stud_cd: b.student.stud_cd,
        fee_cd: l.fee_cd,
        fee_grp_cd: l.fee_grp_cd,
        fee_coll_dtl_kind: l.kind,
        fee_coll_dtl_amt: fromPaise(l.paise),
        fee_coll_dtl_disc: l.discount,
        // A line's status is its bill's: 'paid so far' sums active lines only.
        fee_coll_dtl_sts: b.status,
        inst_cd: d.instCd,
        acdm_cd: d.acdmCd,
        crt_by: b.collector.usr_cd,
      });
    }
    if (b.cancel) {
      cancelRows.push({
        fee_cncl_fee_cd: id,
        fee_cncl_stud_cd: b.student.stud_cd,
        fee_cncl_tot_amt: billRows[n].fee_coll_amt,
        bill_by: b.collector.fullName,
        fee_cncl_bill_dt: b.date,
        cncl_by: b.cancel.by,
        fee_cncl_dt: b.cancel.date,
        fee_cncl_rsn: b.cancel.reason,
        fee_cncl_undo_dt: b.cancel.undo?.date ?? null,
        fee_cncl_undo_by: b.cancel.undo?.by ?? null,
        inst_cd: d.instCd,
        acdm_cd: d.acdmCd,
        crt_by: d.collectors[d.collectors.length - 1].usr_cd,
      });
    }
  });
  await d.add('collected_fee_detail', lineRows);
  await d.add('cancel_fee', cancelRows);
}
