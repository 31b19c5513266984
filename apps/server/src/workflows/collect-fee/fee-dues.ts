import { sql, type DbOrTx } from '../../db/client';
import { preparedRows } from './prepared-statement';
import { localDateTime } from '../../lib/clock';
import { fromPaise, toPaise } from '../../lib/paise';

/** One payable line of a student: a fee mapping row, or a fee group's late fee (fee_cd null). */
export interface DueLine {
  kind: 'Fee' | 'Late Fee';
  fee_cd: number | null;
  fee_grp_cd: number;
  fee_grp_nm: string;
  fee_grp_fee_exp_dt: string | null;
  feetyp_nm: string | null;
  amount: string;
  discount: string;
  paid: string;
  due: string;
}

export interface StudentDues {
  stud_cd: number;
  promoted: boolean;
  lines: DueLine[];
  /** Each fee group's start date: the receipt lists its lines in term order. */
  groupStart: ReadonlyMap<number, string | null>;
}

interface FeeRow {
  fee_cd: number;
  fee_grp_cd: number;
  fee_grp_nm: string;
  str_dt: string | null;
  exp_dt: string | null;
  late_amt: string | null;
  feetyp_nm: string;
  promoted: boolean;
  amount: string;
  discount: string;
  paid: string;
  paid_by_due: string;
  late_paid: string;
}

/**
 * Every fee line of the student's class this year with amount, discount, paid and due, in term order, plus
 * each term's late fee once its due date has passed with something of the term still unpaid on that date
 * (decisions.md). The amounts come from student_fee_line_v, the one definition the fee summaries also sum
 * (old-student amount once promoted, active bills only: a cancelled bill's amounts are due again). Callers
 * that collect must hold the student's row lock, so no other counter changes 'paid' meanwhile.
 */
export async function studentDues(db: DbOrTx, instCd: number, acdmCd: number, studCd: number, today = localDateTime().date): Promise<StudentDues> {
  // One statement, prepared: each term's late fee paid so far rides along on the term's rows.
  const fees = await preparedRows<FeeRow>(
    db,
    'fee_dues',
    sql`SELECT x.fee_cd, x.fee_grp_cd, g.fee_grp_nm, g.fee_grp_fee_str_dt::text AS str_dt, g.fee_grp_fee_exp_dt::text AS exp_dt,
               g.fee_grp_fee_prid_amt::text AS late_amt, t.feetyp_nm, x.promoted, x.amount::text AS amount, x.discount::text AS discount,
               x.paid::text AS paid, x.paid_by_due::text AS paid_by_due, coalesce(lp.amt, 0)::text AS late_paid
        FROM student_fee_line_v x
        JOIN fee_group g ON g.fee_grp_cd = x.fee_grp_cd
        JOIN fee_type t ON t.feetyp_cd = x.feetyp_cd
        LEFT JOIN (SELECT fee_grp_cd, sum(fee_coll_dtl_amt) AS amt FROM fee_collection_line
                   WHERE inst_cd = ${instCd} AND acdm_cd = ${acdmCd} AND stud_cd = ${studCd}
                     AND fee_coll_dtl_sts = 'Active' AND fee_coll_dtl_kind = 'Late Fee'
                   GROUP BY fee_grp_cd) lp ON lp.fee_grp_cd = x.fee_grp_cd
        WHERE x.stud_cd = ${studCd} AND x.inst_cd = ${instCd} AND x.acdm_cd = ${acdmCd}
        ORDER BY g.fee_grp_fee_str_dt, g.fee_grp_cd, t.feetyp_nm, x.fee_cd`,
  );
  // A class without fees this year has nothing to pay, whatever the student's history.
  const promoted = fees[0]?.promoted ?? false;
  const groupStart = new Map(fees.map((r) => [Number(r.fee_grp_cd), r.str_dt]));
  const lines: DueLine[] = [];
  let groupRows: FeeRow[] = [];
  const closeGroup = () => {
    const g = groupRows[0];
    if (!g || toPaise(g.late_amt) <= 0 || !g.exp_dt || g.exp_dt >= today) return;
    const late = toPaise(g.late_amt);
    const paidLate = toPaise(g.late_paid);
    const net = groupRows.reduce((a, r) => a + toPaise(r.amount) - toPaise(r.discount), 0);
    const byDue = groupRows.reduce((a, r) => a + toPaise(r.paid_by_due), 0);
    // Charged when the term was not fully paid by its due date; once (part) paid it stays on the books.
    if (byDue >= net && paidLate === 0) return;
    lines.push({
      kind: 'Late Fee',
      fee_cd: null,
      fee_grp_cd: Number(g.fee_grp_cd),
      fee_grp_nm: g.fee_grp_nm,
      fee_grp_fee_exp_dt: g.exp_dt,
      feetyp_nm: null,
      amount: fromPaise(late),
      discount: '0.00',
      paid: fromPaise(paidLate),
      due: fromPaise(Math.max(0, late - paidLate)),
    });
  };
  for (const r of fees) {
    if (groupRows.length && Number(groupRows[0].fee_grp_cd) !== Number(r.fee_grp_cd)) {
      closeGroup();
      groupRows = [];
    }
    groupRows.push(r);
    const due = toPaise(r.amount) - toPaise(r.discount) - toPaise(r.paid);
    lines.push({
      kind: 'Fee',
      fee_cd: Number(r.fee_cd),
      fee_grp_cd: Number(r.fee_grp_cd),
      fee_grp_nm: r.fee_grp_nm,
      fee_grp_fee_exp_dt: r.exp_dt,
      feetyp_nm: r.feetyp_nm,
      amount: fromPaise(toPaise(r.amount)),
      discount: fromPaise(toPaise(r.discount)),
      paid: fromPaise(toPaise(r.paid)),
      due: fromPaise(Math.max(0, due)),
    });
  }
  closeGroup();
  return { stud_cd: studCd, promoted, lines, groupStart };
}
