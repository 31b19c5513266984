import { overdueOf } from './fee-sums';

/**
 * Fee report (reports/fee_report, /api/feedefaultreport/): the defaulters, students with an overdue
 * balance, with how long the oldest unpaid term has been overdue and whom to call. Overdue means the
 * earliest unpaid due date (stored in fee_position, kept by the database on every write) is before today:
 * a range of an index in the report's order, so the first page reads fifty rows and the count one range.
 */
export const feeReportView = `
SELECT p.stud_cd, p.inst_cd, p.acdm_cd, 1 AS row_ver,
       s.stud_fs_nm, s.stud_adm_cd, s.cls_cd, s.sec_cd, s.stud_fthr_nm, s.stud_ph,
       p.needtopay, p.discount, p.fee_coll_amt, od."pendingAmt", p.bal_amt AS "balAmt", p.first_due_dt AS fee_dflt_since,
       (current_date - p.first_due_dt)::int AS fee_dflt_days,
       p.last_bill_no AS fee_coll_cd, p.last_bill_dt AS fee_coll_crt_dt
FROM fee_position p
-- Every position has its student (the key references it); LEFT so that a count, which needs no student
-- column, is one range of fee_position_due_idx and never joins.
LEFT JOIN student s ON s.stud_cd = p.stud_cd
${overdueOf('p')}
WHERE p.first_due_dt < current_date`;
