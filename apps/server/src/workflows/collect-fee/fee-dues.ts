import { rows, sql, type DbOrTx } from '../../db/client';
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
}

interface FeeRow {
  fee_cd: number;
  fee_grp_cd: number;
  fee_grp_nm: string;
  exp_dt: string | null;
  late_amt: string | null;
  feetyp_nm: string;
  amount: string;
  discount: string;
  paid: string;
  paid_by_due: string;
}

/**
 * Promoted = a row of the same admission number exists in an earlier academic year of the institute
 * (decisions.md): such a student pays the mapping's old-student amount.
 */
export const promotedSql = (studCd: number) => sql`EXISTS (
  SELECT 1 FROM student p JOIN academic pa ON pa.acdm_cd = p.acdm_cd
  JOIN student s ON s.stud_cd = ${studCd} JOIN academic sa ON sa.acdm_cd = s.acdm_cd
  WHERE p.inst_cd = s.inst_cd AND lower(p.stud_adm_cd) = lower(s.stud_adm_cd) AND pa.acdm_strt_yr < sa.acdm_strt_yr)`;

/**
 * Every fee line of the student's class this year with amount, discount, paid and due, in term order, plus
 * each term's late fee once its due date has passed with something of the term still unpaid on that date
 * (decisions.md). Paid counts active bill lines only: a cancelled bill's amounts are due again. Callers that
 * collect must hold the student's row lock, so no other counter changes 'paid' meanwhile.
 */
export async function studentDues(db: DbOrTx, instCd: number, acdmCd: number, studCd: number, today = localDateTime().date): Promise<StudentDues> {
  const [{ promoted }] = await rows<{ promoted: boolean }>(db, sql`SELECT ${promotedSql(studCd)} AS promoted`);
  const fees = await rows<FeeRow>(
    db,
    sql`WITH paid AS (
          SELECT l.fee_cd, sum(l.fee_coll_dtl_amt) AS amt,
                 sum(CASE WHEN b.fee_coll_crt_dt <= g.fee_grp_fee_exp_dt THEN l.fee_coll_dtl_amt ELSE 0 END) AS by_due
          FROM fee_collection_line l
          JOIN fee_collection_bill b ON b.fee_coll_cd = l.fee_coll_cd
          JOIN fee_group g ON g.fee_grp_cd = l.fee_grp_cd
          WHERE l.inst_cd = ${instCd} AND l.acdm_cd = ${acdmCd} AND l.stud_cd = ${studCd}
            AND l.fee_coll_dtl_sts = 'Active' AND l.fee_coll_dtl_kind = 'Fee'
          GROUP BY l.fee_cd)
        SELECT f.fee_cd, f.fee_grp_cd, g.fee_grp_nm, g.fee_grp_fee_exp_dt::text AS exp_dt, g.fee_grp_fee_prid_amt::text AS late_amt,
               t.feetyp_nm,
               (CASE WHEN ${promoted}::boolean THEN f.fee_amt_aftr_prmtn ELSE f.fee_amt END)::text AS amount,
               coalesce(d.disc_amt, 0)::text AS discount,
               coalesce(p.amt, 0)::text AS paid,
               coalesce(p.by_due, 0)::text AS paid_by_due
        FROM student s
        JOIN fee f ON f.cls_cd = s.cls_cd AND f.inst_cd = s.inst_cd AND f.acdm_cd = s.acdm_cd
        JOIN fee_group g ON g.fee_grp_cd = f.fee_grp_cd
        JOIN fee_type t ON t.feetyp_cd = f.feetyp_cd
        LEFT JOIN student_discount d ON d.stud_cd = s.stud_cd AND d.fee_cd = f.fee_cd
        LEFT JOIN paid p ON p.fee_cd = f.fee_cd
        WHERE s.stud_cd = ${studCd} AND s.inst_cd = ${instCd} AND s.acdm_cd = ${acdmCd}
        ORDER BY g.fee_grp_fee_str_dt, g.fee_grp_cd, t.feetyp_nm, f.fee_cd`,
  );
  const latePaid = new Map(
    (
      await rows<{ fee_grp_cd: number; amt: string }>(
        db,
        sql`SELECT fee_grp_cd, sum(fee_coll_dtl_amt)::text AS amt FROM fee_collection_line
            WHERE inst_cd = ${instCd} AND acdm_cd = ${acdmCd} AND stud_cd = ${studCd}
              AND fee_coll_dtl_sts = 'Active' AND fee_coll_dtl_kind = 'Late Fee'
            GROUP BY fee_grp_cd`,
      )
    ).map((r) => [Number(r.fee_grp_cd), toPaise(r.amt)]),
  );
  const lines: DueLine[] = [];
  let groupRows: FeeRow[] = [];
  const closeGroup = () => {
    const g = groupRows[0];
    if (!g || toPaise(g.late_amt) <= 0 || !g.exp_dt || g.exp_dt >= today) return;
    const late = toPaise(g.late_amt);
    const paidLate = latePaid.get(Number(g.fee_grp_cd)) ?? 0;
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
  return { stud_cd: studCd, promoted, lines };
}
