/**
 * The year's Income / Expense entries per month, category and type. The key is built from the category,
 * month and type so a row keeps its code while other months change (no row_number over the whole table,
 * which would also stop the institute/year filter from reaching the base table).
 */
export const overallBudgetView = `
SELECT ((c.exp_ctgy_cd * 1200 + (extract(year FROM e.exp_dt)::int % 100) * 12 + extract(month FROM e.exp_dt)::int - 1) * 2
        + CASE WHEN sc.exp_sub_ctgy_typ = 'Income' THEN 1 ELSE 0 END)::int AS bdgt_cd,
       e.inst_cd, e.acdm_cd, 1 AS row_ver,
       to_char(e.exp_dt, 'YYYY-MM')::varchar(7) AS bdgt_mnth,
       c.exp_ctgy_nm,
       sc.exp_sub_ctgy_typ AS bdgt_typ,
       count(*)::int AS bdgt_cnt,
       sum(e.exp_amt)::numeric(14, 2) AS bdgt_amt
FROM expense e
JOIN expense_sub_category sc ON sc.exp_sub_ctgy_cd = e.exp_sub_ctgy_cd
JOIN expense_category c ON c.exp_ctgy_cd = sc.exp_ctgy_cd
GROUP BY e.inst_cd, e.acdm_cd, c.exp_ctgy_cd, c.exp_ctgy_nm, sc.exp_sub_ctgy_typ, to_char(e.exp_dt, 'YYYY-MM'),
         extract(year FROM e.exp_dt), extract(month FROM e.exp_dt)`;
