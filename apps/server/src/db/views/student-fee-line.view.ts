/**
 * Every fee line of every student: one row per student and fee mapping row of the student's class in the
 * student's year, with what the student owes on it (old-student amount once promoted), the discount
 * granted, what active bills paid, and how much of that by the term's due date (the late-fee rule). The
 * counter's dues, the discount rules and the fee summaries all read this one definition, so the fee office's
 * numbers agree everywhere. Late fees themselves are charged by the counter (collect-fee).
 *
 * Promoted = a row of the same admission number exists in an earlier academic year of the institute
 * (decisions.md). Every part is an index probe per student and fee line, so one student's lines (the
 * counter) cost the same at any school size, and a summary's page computes only the students it shows
 * (fee-collection.view.ts); bench/ measures both.
 */
export const studentFeeLineView = `
SELECT s.stud_cd, s.inst_cd, s.acdm_cd, f.fee_cd, f.fee_grp_cd, f.feetyp_cd,
       g.fee_grp_fee_str_dt, g.fee_grp_fee_exp_dt,
       pr.promoted,
       (CASE WHEN pr.promoted THEN f.fee_amt_aftr_prmtn ELSE f.fee_amt END)::numeric(14, 2) AS amount,
       coalesce(d.disc_amt, 0)::numeric(14, 2) AS discount,
       coalesce(p.paid, 0)::numeric(14, 2) AS paid,
       coalesce(p.paid_by_due, 0)::numeric(14, 2) AS paid_by_due
FROM student s
JOIN academic sa ON sa.acdm_cd = s.acdm_cd
CROSS JOIN LATERAL (
  -- Probes the unique (institute, year, admission no) index once per earlier year of the institute.
  SELECT EXISTS (
    SELECT 1 FROM academic oa
    JOIN student o ON o.inst_cd = oa.inst_cd AND o.acdm_cd = oa.acdm_cd AND lower(o.stud_adm_cd) = lower(s.stud_adm_cd)
    WHERE oa.inst_cd = s.inst_cd AND oa.acdm_strt_yr < sa.acdm_strt_yr
  ) AS promoted
  -- A fence: without it the planner copies the EXISTS into every use of 'promoted', once per fee line each.
  OFFSET 0
) pr
JOIN fee f ON f.cls_cd = s.cls_cd AND f.inst_cd = s.inst_cd AND f.acdm_cd = s.acdm_cd
JOIN fee_group g ON g.fee_grp_cd = f.fee_grp_cd
LEFT JOIN student_discount d ON d.stud_cd = s.stud_cd AND d.fee_cd = f.fee_cd
-- Grouped by columns that carry the student: a query for some students gets them pushed in (index
-- probes), a whole-year report joins the sums by hash.
LEFT JOIN (
  SELECT l.inst_cd, l.acdm_cd, l.stud_cd, l.fee_cd, sum(l.fee_coll_dtl_amt) AS paid,
         sum(l.fee_coll_dtl_amt) FILTER (WHERE b.fee_coll_crt_dt <= lg.fee_grp_fee_exp_dt) AS paid_by_due
  FROM fee_collection_line l
  JOIN fee_collection_bill b ON b.fee_coll_cd = l.fee_coll_cd
  JOIN fee_group lg ON lg.fee_grp_cd = l.fee_grp_cd
  WHERE l.fee_coll_dtl_kind = 'Fee' AND l.fee_coll_dtl_sts = 'Active'
  GROUP BY l.inst_cd, l.acdm_cd, l.stud_cd, l.fee_cd
) p ON p.inst_cd = s.inst_cd AND p.acdm_cd = s.acdm_cd AND p.stud_cd = s.stud_cd AND p.fee_cd = f.fee_cd`;
