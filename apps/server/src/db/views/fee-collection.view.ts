import { defaultingSince, overdueOf } from './fee-sums';

/**
 * Fee collection summary (fee/fee_management, /api/fee_collection/): one row per student of the year.
 * needtopay = the year's fees, discount = granted, fee_coll_amt = paid by active bills against them,
 * balAmt = what is left for the year, pendingAmt = the part of it whose term's due date has passed.
 * fee_coll_cd is the number of the student's last active bill (the spec's "last bill"). The figures are the
 * student's fee_position row, kept by the database on every write (fee-position.ddl.ts), so a sort by
 * balance walks an index and stops at the page; only the overdue part is summed, for the rows shown.
 */
export const feeCollectionView = `
SELECT s.stud_cd, s.inst_cd, s.acdm_cd, 1 AS row_ver,
       s.stud_fs_nm, s.stud_adm_cd, s.stud_roll_nmb, s.cls_cd, s.sec_cd,
       p.last_bill_no AS fee_coll_cd, p.last_bill_dt AS fee_coll_crt_dt,
       p.needtopay, p.discount, p.fee_coll_amt, od."pendingAmt", p.bal_amt AS "balAmt",
       ${defaultingSince('p')} AS fee_dflt_since
FROM student s
JOIN fee_position p ON p.stud_cd = s.stud_cd AND p.inst_cd = s.inst_cd AND p.acdm_cd = s.acdm_cd
${overdueOf('p')}`;
