/**
 * Fee report (reports/fee_report, /api/feedefaultreport/): the defaulters, students with an overdue
 * balance, with how long the oldest unpaid term has been overdue and whom to call.
 */
export const feeReportView = `
SELECT fc.stud_cd, fc.inst_cd, fc.acdm_cd, 1 AS row_ver,
       fc.stud_fs_nm, fc.stud_adm_cd, fc.cls_cd, fc.sec_cd, s.stud_fthr_nm, s.stud_ph,
       fc.needtopay, fc.discount, fc.fee_coll_amt, fc."pendingAmt", fc."balAmt", fc.fee_dflt_since,
       (current_date - fc.fee_dflt_since)::int AS fee_dflt_days,
       fc.fee_coll_cd, fc.fee_coll_crt_dt
FROM fee_collection_v fc
JOIN student s ON s.stud_cd = fc.stud_cd
WHERE fc."pendingAmt" > 0`;
