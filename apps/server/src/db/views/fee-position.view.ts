import { dueSums, lastBill, positionSums } from './fee-sums';

/**
 * Per student and due date, what the student's fee lines add up to (student_fee_line_v, the counter's own
 * definition): the one pass over the lines that both stored tables are made from. Per student (LATERAL),
 * so a refresh of a few students costs a few index probes at any school size.
 */
export const feePositionDueCalcView = `
SELECT s.stud_cd, t.due_dt, t.amount, t.discount, t.paid, t.owed
FROM student s
CROSS JOIN LATERAL (
  SELECT ${dueSums}
  FROM student_fee_line_v x
  WHERE x.stud_cd = s.stud_cd
  GROUP BY x.fee_grp_fee_exp_dt
) t`;

/**
 * The fee_position row of each student of `students` (a relation with stud_cd, inst_cd, acdm_cd) from its
 * per-due-date rows `dues`: used by the view below and, on a CTE of the students a write touched, by the
 * refresh function, so both are the same text.
 */
export const positionSelect = (students: string, dues: string): string => `
SELECT s.stud_cd, s.inst_cd, s.acdm_cd,
       coalesce(t.needtopay, 0)::numeric(14, 2) AS needtopay, coalesce(t.discount, 0)::numeric(14, 2) AS discount,
       coalesce(t.fee_coll_amt, 0)::numeric(14, 2) AS fee_coll_amt, coalesce(t.bal_amt, 0)::numeric(14, 2) AS bal_amt,
       t.first_due_dt,
       lb.fee_coll_bill_no AS last_bill_no, lb.fee_coll_crt_dt AS last_bill_dt
FROM ${students} s
-- Grouped, not per student: the dues of many students are summed in one pass and joined by hash.
LEFT JOIN (SELECT d.stud_cd, ${positionSums} FROM ${dues} d GROUP BY d.stud_cd) t ON t.stud_cd = s.stud_cd
${lastBill('s')}`;

/** What every student's fee_position row must hold (the rebuild and the drift check read it). */
export const feePositionCalcView = positionSelect('student', 'fee_position_due_calc_v');

/** The fee_position_term rows of a student: due dates with something still owed. */
export const termWhere = 'd.due_dt IS NOT NULL AND d.owed > 0';

/** What every student's fee_position_term rows must hold. */
export const feePositionTermCalcView = `
SELECT d.stud_cd, d.due_dt, d.owed AS due_amt FROM fee_position_due_calc_v d WHERE ${termWhere}`;
