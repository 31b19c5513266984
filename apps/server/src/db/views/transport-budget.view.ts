/**
 * One row per bus and academic year of its institute: riders from the year's bus mapping, income and
 * expense from the year's entries under sub-categories tied to the bus. Correlated sums, so a filter on the
 * institute and year reaches the bus and mapping indexes instead of summing every year first.
 */
export const transportBudgetView = `
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
) x`;
