import { feeSums, lastBill } from './fee-sums';

/**
 * Fee report (reports/fee_report, /api/feedefaultreport/): the defaulters, students with an overdue
 * balance, with how long the oldest unpaid term has been overdue and whom to call. Every student of the year
 * must be summed to find them, so the sums are grouped for the whole year at once (hash joins), not per
 * student as on the paged fee management list.
 */
export const feeReportView = `
SELECT s.stud_cd, s.inst_cd, s.acdm_cd, 1 AS row_ver,
       s.stud_fs_nm, s.stud_adm_cd, s.cls_cd, s.sec_cd, s.stud_fthr_nm, s.stud_ph,
       t.needtopay, t.discount, t.fee_coll_amt, t."pendingAmt", t."balAmt", t.fee_dflt_since,
       (current_date - t.fee_dflt_since)::int AS fee_dflt_days,
       lb.fee_coll_bill_no AS fee_coll_cd, lb.fee_coll_crt_dt
FROM student s
JOIN (
  SELECT x.inst_cd, x.acdm_cd, x.stud_cd, ${feeSums}
  FROM student_fee_line_v x
  GROUP BY x.inst_cd, x.acdm_cd, x.stud_cd
) t ON t.inst_cd = s.inst_cd AND t.acdm_cd = s.acdm_cd AND t.stud_cd = s.stud_cd
${lastBill('s')}
WHERE t."pendingAmt" > 0`;
