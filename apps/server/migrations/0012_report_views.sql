CREATE VIEW "overall_budget_v" AS
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
         extract(year FROM e.exp_dt), extract(month FROM e.exp_dt);
--> statement-breakpoint
CREATE VIEW "transport_budget_v" AS
SELECT b.bs_trck_cd, b.inst_cd, a.acdm_cd, 1 AS row_ver,
       b.bs_trck_bus_nm, b.bs_trck_dscr,
       s.trns_stud_cnt, x.trns_exp_cnt,
       x.trns_inc_amt, x.trns_exp_amt,
       CASE WHEN s.trns_stud_cnt > 0 THEN round(x.trns_exp_amt / s.trns_stud_cnt, 2) END::numeric(14, 2) AS trns_cost_per_stud
FROM bus b
JOIN academic a ON a.inst_cd = b.inst_cd
CROSS JOIN LATERAL (
  SELECT count(*)::int AS trns_stud_cnt FROM bus_mapping m
  WHERE m.bs_trck_cd = b.bs_trck_cd AND m.inst_cd = b.inst_cd AND m.acdm_cd = a.acdm_cd
) s
CROSS JOIN LATERAL (
  SELECT count(*) FILTER (WHERE sc.exp_sub_ctgy_typ = 'Expense')::int AS trns_exp_cnt,
         coalesce(sum(e.exp_amt) FILTER (WHERE sc.exp_sub_ctgy_typ = 'Income'), 0)::numeric(14, 2) AS trns_inc_amt,
         coalesce(sum(e.exp_amt) FILTER (WHERE sc.exp_sub_ctgy_typ = 'Expense'), 0)::numeric(14, 2) AS trns_exp_amt
  FROM expense_sub_category sc
  JOIN expense e ON e.exp_sub_ctgy_cd = sc.exp_sub_ctgy_cd AND e.acdm_cd = a.acdm_cd
  WHERE sc.bs_trck_cd = b.bs_trck_cd
) x;
--> statement-breakpoint
CREATE VIEW "staff_book_stock_v" AS
SELECT k.usr_bk_stk_cd, k.inst_cd, 1 AS row_ver,
       u.usr_full_nm, u.usr_nm, d.desg_nm,
       k.bk_cd, k.usr_bk_stk_qty,
       (SELECT max(c.bk_chk_dt) FROM book_checkout c
        WHERE c.inst_cd = k.inst_cd AND c.bk_chk_usr_typ = 'Employee' AND c.bk_chk_usr_cd = k.usr_bk_stk_usr_cd) AS bk_chk_dt
FROM book_checkinout_summary k
JOIN employee u ON u.usr_cd = k.usr_bk_stk_usr_cd
LEFT JOIN designation d ON d.desg_cd = u.usr_desg
WHERE k.usr_bk_stk_usr_typ = 'Employee' AND k.usr_bk_stk_qty > 0;
