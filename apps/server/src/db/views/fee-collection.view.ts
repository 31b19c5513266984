/**
 * Fee collection summary (fee/fee_management, /api/fee_collection/): one row per student of the year.
 * needtopay = the year's fees, discount = granted, fee_coll_amt = paid by active bills against them,
 * balAmt = what is left for the year, pendingAmt = the part of it whose term's due date has passed.
 * fee_coll_cd is the number of the student's last active bill (the spec's "last bill"). Sums are grouped by
 * the institute and year too, so a list's institute/year filter reaches them (see student-fee-line.view.ts).
 */
export const feeCollectionView = `
SELECT s.stud_cd, s.inst_cd, s.acdm_cd, 1 AS row_ver,
       s.stud_fs_nm, s.stud_adm_cd, s.stud_roll_nmb, s.cls_cd, s.sec_cd,
       lb.fee_coll_bill_no AS fee_coll_cd, lb.fee_coll_crt_dt,
       coalesce(t.needtopay, 0)::numeric(14, 2) AS needtopay,
       coalesce(t.discount, 0)::numeric(14, 2) AS discount,
       coalesce(t.fee_coll_amt, 0)::numeric(14, 2) AS fee_coll_amt,
       coalesce(t."pendingAmt", 0)::numeric(14, 2) AS "pendingAmt",
       coalesce(t."balAmt", 0)::numeric(14, 2) AS "balAmt",
       t.fee_dflt_since
FROM student s
LEFT JOIN (
  SELECT x.inst_cd, x.acdm_cd, x.stud_cd,
         sum(x.amount) AS needtopay,
         sum(x.discount) AS discount,
         sum(x.paid) AS fee_coll_amt,
         sum(greatest(x.amount - x.discount - x.paid, 0)) FILTER (WHERE x.fee_grp_fee_exp_dt < current_date) AS "pendingAmt",
         sum(greatest(x.amount - x.discount - x.paid, 0)) AS "balAmt",
         min(x.fee_grp_fee_exp_dt) FILTER (WHERE x.fee_grp_fee_exp_dt < current_date AND x.amount - x.discount - x.paid > 0) AS fee_dflt_since
  FROM student_fee_line_v x
  GROUP BY x.inst_cd, x.acdm_cd, x.stud_cd
) t ON t.inst_cd = s.inst_cd AND t.acdm_cd = s.acdm_cd AND t.stud_cd = s.stud_cd
LEFT JOIN (
  SELECT b.inst_cd, b.acdm_cd, b.stud_cd, max(b.fee_coll_bill_no) AS fee_coll_bill_no,
         (array_agg(b.fee_coll_crt_dt ORDER BY b.fee_coll_bill_no DESC))[1] AS fee_coll_crt_dt
  FROM fee_collection_bill b
  WHERE b.fee_coll_sts = 'Active'
  GROUP BY b.inst_cd, b.acdm_cd, b.stud_cd
) lb ON lb.inst_cd = s.inst_cd AND lb.acdm_cd = s.acdm_cd AND lb.stud_cd = s.stud_cd`;
