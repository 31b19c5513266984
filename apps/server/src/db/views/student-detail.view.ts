/**
 * Student detail (fee/quick_fee_collection, /api/student/detail/): the counter's student finder, each
 * student with the parent's name and phone, the bus, and the fee position of fee_collection_v.
 */
export const studentDetailView = `
SELECT fc.stud_cd, fc.inst_cd, fc.acdm_cd, 1 AS row_ver,
       fc.stud_fs_nm, fc.stud_adm_cd, fc.stud_roll_nmb, fc.cls_cd, fc.sec_cd,
       s.stud_fthr_nm, s.stud_ph, b.bs_trck_bus_nm,
       fc.fee_coll_cd, fc.fee_coll_crt_dt, fc."pendingAmt", fc."balAmt"
FROM fee_collection_v fc
JOIN student s ON s.stud_cd = fc.stud_cd
LEFT JOIN bus_mapping m ON m.stud_cd = fc.stud_cd
LEFT JOIN bus b ON b.bs_trck_cd = m.bs_trck_cd`;
