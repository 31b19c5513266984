/** The Stock rows of employees, with the employee's name and designation as they are now, and how late they are. */
export const staffBookStockView = `
SELECT k.usr_bk_stk_cd, k.inst_cd, 1 AS row_ver,
       u.usr_full_nm, u.usr_nm, d.desg_nm,
       k.bk_cd, k.usr_bk_stk_qty,
       -- The latest issue of this book to this employee (Stock keeps it); rows older than that column fall back
       -- to the employee's latest issue of any book.
       coalesce(k.usr_bk_stk_iss_dt, (SELECT max(c.bk_chk_dt) FROM book_checkout c
        WHERE c.inst_cd = k.inst_cd AND c.bk_chk_usr_typ = 'Employee' AND c.bk_chk_usr_cd = k.usr_bk_stk_usr_cd)) AS bk_chk_dt,
       k.usr_bk_stk_due_dt,
       greatest(coalesce(current_date - k.usr_bk_stk_due_dt, 0), 0) AS days_overdue
FROM book_checkinout_summary k
JOIN employee u ON u.usr_cd = k.usr_bk_stk_usr_cd
LEFT JOIN designation d ON d.desg_cd = u.usr_desg
WHERE k.usr_bk_stk_usr_typ = 'Employee' AND k.usr_bk_stk_qty > 0`;
