/**
 * Every fee line of every student: one row per student and fee mapping row of the student's class in the
 * student's year, with what the student owes on it (old-student amount once promoted), the discount
 * granted, what active bills paid, and how much of that by the term's due date (the late-fee rule). The
 * counter's dues, the discount rules and the fee summaries all read this one definition, so the fee office's
 * numbers agree everywhere. Late fees themselves are charged by the counter (collect-fee).
 *
 * Promoted = a row of the same admission number exists in an earlier academic year of the institute
 * (decisions.md), as in the collection workflow. Everything is joined set-wise, grouped by columns that carry
 * the institute and year, so a list of one institute's year never sums other institutes or years and no
 * sub-select runs once per student (a page of the summary stays a few milliseconds at thousands of students).
 */
export const studentFeeLineView = `
SELECT s.stud_cd, s.inst_cd, s.acdm_cd, f.fee_cd, f.fee_grp_cd, f.feetyp_cd,
       g.fee_grp_fee_str_dt, g.fee_grp_fee_exp_dt,
       coalesce(fy.first_yr < sa.acdm_strt_yr, false) AS promoted,
       (CASE WHEN fy.first_yr < sa.acdm_strt_yr THEN f.fee_amt_aftr_prmtn ELSE f.fee_amt END)::numeric(14, 2) AS amount,
       coalesce(d.disc_amt, 0)::numeric(14, 2) AS discount,
       coalesce(p.paid, 0)::numeric(14, 2) AS paid,
       coalesce(p.paid_by_due, 0)::numeric(14, 2) AS paid_by_due
FROM student s
JOIN academic sa ON sa.acdm_cd = s.acdm_cd
JOIN fee f ON f.cls_cd = s.cls_cd AND f.inst_cd = s.inst_cd AND f.acdm_cd = s.acdm_cd
JOIN fee_group g ON g.fee_grp_cd = f.fee_grp_cd
LEFT JOIN (
  SELECT o.inst_cd, lower(o.stud_adm_cd) AS adm, min(oa.acdm_strt_yr) AS first_yr
  FROM student o JOIN academic oa ON oa.acdm_cd = o.acdm_cd
  GROUP BY o.inst_cd, lower(o.stud_adm_cd)
) fy ON fy.inst_cd = s.inst_cd AND fy.adm = lower(s.stud_adm_cd)
LEFT JOIN student_discount d ON d.stud_cd = s.stud_cd AND d.fee_cd = f.fee_cd
LEFT JOIN (
  SELECT l.inst_cd, l.acdm_cd, l.stud_cd, l.fee_cd, sum(l.fee_coll_dtl_amt) AS paid,
         sum(l.fee_coll_dtl_amt) FILTER (WHERE b.fee_coll_crt_dt <= lg.fee_grp_fee_exp_dt) AS paid_by_due
  FROM fee_collection_line l
  JOIN fee_collection_bill b ON b.fee_coll_cd = l.fee_coll_cd
  JOIN fee_group lg ON lg.fee_grp_cd = l.fee_grp_cd
  WHERE l.fee_coll_dtl_kind = 'Fee' AND l.fee_coll_dtl_sts = 'Active'
  GROUP BY l.inst_cd, l.acdm_cd, l.stud_cd, l.fee_cd
) p ON p.inst_cd = s.inst_cd AND p.acdm_cd = s.acdm_cd AND p.stud_cd = s.stud_cd AND p.fee_cd = f.fee_cd`;
