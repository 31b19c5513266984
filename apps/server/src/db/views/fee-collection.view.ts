import { feeSums, lastBill } from './fee-sums';

/**
 * Fee collection summary (fee/fee_management, /api/fee_collection/): one row per student of the year.
 * needtopay = the year's fees, discount = granted, fee_coll_amt = paid by active bills against them,
 * balAmt = what is left for the year, pendingAmt = the part of it whose term's due date has passed.
 * fee_coll_cd is the number of the student's last active bill (the spec's "last bill"). The sums are a
 * LEFT JOIN LATERAL of one row per student: PostgreSQL computes them only for the rows a page shows (paged by
 * name through the student index) and drops them from a count, so the grid's total costs a plain count.
 */
export const feeCollectionView = `
SELECT s.stud_cd, s.inst_cd, s.acdm_cd, 1 AS row_ver,
       s.stud_fs_nm, s.stud_adm_cd, s.stud_roll_nmb, s.cls_cd, s.sec_cd,
       lb.fee_coll_bill_no AS fee_coll_cd, lb.fee_coll_crt_dt,
       t.needtopay, t.discount, t.fee_coll_amt, t."pendingAmt", t."balAmt", t.fee_dflt_since
FROM student s
LEFT JOIN LATERAL (SELECT ${feeSums} FROM student_fee_line_v x WHERE x.stud_cd = s.stud_cd) t ON true
${lastBill('s')}`;
