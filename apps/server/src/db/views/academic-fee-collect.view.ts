/**
 * Academic fee collect (fee/academic_fee_collect): this year's students who still owe fees of an earlier
 * academic year (same admission number), one row per student and earlier year, with that year's position
 * (the earlier row's fee_position, kept by the database on every write). The key is the earlier year's
 * student row, which is where a payment of that balance is booked.
 */
export const academicFeeCollectView = `
SELECT o.stud_cd AS acdm_fee_stud_cd, c.inst_cd, c.acdm_cd, 1 AS row_ver,
       c.stud_fs_nm, c.stud_adm_cd, c.cls_cd, c.sec_cd,
       (oa.acdm_strt_yr::text || '-' || lpad((oa.acdm_end_yr % 100)::text, 2, '0'))::varchar(7) AS acdm_label,
       o.acdm_cd AS acdm_fee_acdm_cd,
       oc.cls_nm AS prev_cls_nm,
       t.needtopay, t.discount, t.fee_coll_amt, t.bal_amt AS "balAmt", t.last_bill_no AS fee_coll_cd, t.last_bill_dt AS fee_coll_crt_dt
FROM student c
JOIN academic ca ON ca.acdm_cd = c.acdm_cd
JOIN student o ON o.inst_cd = c.inst_cd AND lower(o.stud_adm_cd) = lower(c.stud_adm_cd)
JOIN academic oa ON oa.acdm_cd = o.acdm_cd AND oa.acdm_strt_yr < ca.acdm_strt_yr
JOIN fee_position t ON t.stud_cd = o.stud_cd
LEFT JOIN class oc ON oc.cls_cd = o.cls_cd
WHERE t.bal_amt > 0`;
