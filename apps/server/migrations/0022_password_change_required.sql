DROP VIEW IF EXISTS "staff_book_stock_v";
--> statement-breakpoint
DROP VIEW IF EXISTS "transport_budget_v";
--> statement-breakpoint
DROP VIEW IF EXISTS "overall_budget_v";
--> statement-breakpoint
DROP VIEW IF EXISTS "academic_fee_collect_v";
--> statement-breakpoint
DROP VIEW IF EXISTS "fee_report_v";
--> statement-breakpoint
DROP VIEW IF EXISTS "student_detail_v";
--> statement-breakpoint
DROP VIEW IF EXISTS "fee_collection_v";
--> statement-breakpoint
DROP VIEW IF EXISTS "login_lock_v";
--> statement-breakpoint
DROP VIEW IF EXISTS "fee_position_term_calc_v";
--> statement-breakpoint
DROP VIEW IF EXISTS "fee_position_calc_v";
--> statement-breakpoint
DROP VIEW IF EXISTS "fee_position_due_calc_v";
--> statement-breakpoint
DROP VIEW IF EXISTS "student_fee_line_v";
--> statement-breakpoint
ALTER TABLE "employee" ADD COLUMN "usr_pwd_chg_req" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
CREATE VIEW "student_fee_line_v" AS
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
) p ON p.inst_cd = s.inst_cd AND p.acdm_cd = s.acdm_cd AND p.stud_cd = s.stud_cd AND p.fee_cd = f.fee_cd;
--> statement-breakpoint
CREATE VIEW "fee_position_due_calc_v" AS
SELECT s.stud_cd, t.due_dt, t.amount, t.discount, t.paid, t.owed
FROM student s
CROSS JOIN LATERAL (
  SELECT 
  x.fee_grp_fee_exp_dt AS due_dt,
  sum(x.amount)::numeric(14, 2) AS amount,
  sum(x.discount)::numeric(14, 2) AS discount,
  sum(x.paid)::numeric(14, 2) AS paid,
  sum(greatest(x.amount - x.discount - x.paid, 0))::numeric(14, 2) AS owed
  FROM student_fee_line_v x
  WHERE x.stud_cd = s.stud_cd
  GROUP BY x.fee_grp_fee_exp_dt
) t;
--> statement-breakpoint
CREATE VIEW "fee_position_calc_v" AS
SELECT s.stud_cd, s.inst_cd, s.acdm_cd,
       coalesce(t.needtopay, 0)::numeric(14, 2) AS needtopay, coalesce(t.discount, 0)::numeric(14, 2) AS discount,
       coalesce(t.fee_coll_amt, 0)::numeric(14, 2) AS fee_coll_amt, coalesce(t.bal_amt, 0)::numeric(14, 2) AS bal_amt,
       t.first_due_dt,
       lb.fee_coll_bill_no AS last_bill_no, lb.fee_coll_crt_dt AS last_bill_dt
FROM student s
-- Grouped, not per student: the dues of many students are summed in one pass and joined by hash.
LEFT JOIN (SELECT d.stud_cd, 
  coalesce(sum(d.amount), 0)::numeric(14, 2) AS needtopay,
  coalesce(sum(d.discount), 0)::numeric(14, 2) AS discount,
  coalesce(sum(d.paid), 0)::numeric(14, 2) AS fee_coll_amt,
  coalesce(sum(d.owed), 0)::numeric(14, 2) AS bal_amt,
  min(d.due_dt) FILTER (WHERE d.owed > 0) AS first_due_dt FROM fee_position_due_calc_v d GROUP BY d.stud_cd) t ON t.stud_cd = s.stud_cd

LEFT JOIN LATERAL (
  SELECT b.fee_coll_bill_no, b.fee_coll_crt_dt FROM fee_collection_bill b
  WHERE b.stud_cd = s.stud_cd AND b.fee_coll_sts = 'Active'
  ORDER BY b.fee_coll_bill_no DESC LIMIT 1
) lb ON true;
--> statement-breakpoint
CREATE VIEW "fee_position_term_calc_v" AS
SELECT d.stud_cd, d.due_dt, d.owed AS due_amt FROM fee_position_due_calc_v d WHERE d.due_dt IS NOT NULL AND d.owed > 0;
--> statement-breakpoint
CREATE VIEW "login_lock_v" AS
SELECT a.atmpt_cd, 1 AS row_ver,
       CASE a.atmpt_kind
         WHEN 'Login Id and Address' THEN a.atmpt_usr_nm || ' from ' || a.atmpt_ip
         WHEN 'Address' THEN a.atmpt_ip
         WHEN 'Known Device' THEN a.atmpt_usr_nm || ' on a known device'
         ELSE a.atmpt_usr_nm
       END AS atmpt_subject,
       a.atmpt_kind, a.atmpt_usr_nm, a.atmpt_ip, a.atmpt_fail_cnt, a.atmpt_first_at, a.atmpt_last_at, a.atmpt_next_at,
       greatest(ceil(extract(epoch FROM a.atmpt_next_at - now())), 0)::int AS atmpt_wait_sec
FROM login_attempt a
WHERE a.atmpt_fail_cnt > 0;
--> statement-breakpoint
CREATE VIEW "fee_collection_v" AS
SELECT s.stud_cd, s.inst_cd, s.acdm_cd, 1 AS row_ver,
       s.stud_fs_nm, s.stud_adm_cd, s.stud_roll_nmb, s.cls_cd, s.sec_cd,
       p.last_bill_no AS fee_coll_cd, p.last_bill_dt AS fee_coll_crt_dt,
       p.needtopay, p.discount, p.fee_coll_amt, od."pendingAmt", p.bal_amt AS "balAmt",
       CASE WHEN p.first_due_dt < current_date THEN p.first_due_dt END AS fee_dflt_since
FROM student s
JOIN fee_position p ON p.stud_cd = s.stud_cd AND p.inst_cd = s.inst_cd AND p.acdm_cd = s.acdm_cd

LEFT JOIN LATERAL (
  SELECT coalesce(sum(t.due_amt), 0)::numeric(14, 2) AS "pendingAmt" FROM fee_position_term t
  WHERE t.stud_cd = p.stud_cd AND t.due_dt < current_date
) od ON true;
--> statement-breakpoint
CREATE VIEW "student_detail_v" AS
SELECT s.stud_cd, s.inst_cd, s.acdm_cd, 1 AS row_ver,
       s.stud_fs_nm, s.stud_adm_cd, s.stud_roll_nmb, s.cls_cd, s.sec_cd,
       s.stud_fthr_nm, s.stud_ph, b.bs_trck_bus_nm,
       p.last_bill_no AS fee_coll_cd, p.last_bill_dt AS fee_coll_crt_dt, od."pendingAmt", p.bal_amt AS "balAmt"
FROM student s
JOIN fee_position p ON p.stud_cd = s.stud_cd AND p.inst_cd = s.inst_cd AND p.acdm_cd = s.acdm_cd
LEFT JOIN bus_mapping m ON m.stud_cd = s.stud_cd
LEFT JOIN bus b ON b.bs_trck_cd = m.bs_trck_cd

LEFT JOIN LATERAL (
  SELECT coalesce(sum(t.due_amt), 0)::numeric(14, 2) AS "pendingAmt" FROM fee_position_term t
  WHERE t.stud_cd = p.stud_cd AND t.due_dt < current_date
) od ON true;
--> statement-breakpoint
CREATE VIEW "fee_report_v" AS
SELECT p.stud_cd, p.inst_cd, p.acdm_cd, 1 AS row_ver,
       s.stud_fs_nm, s.stud_adm_cd, s.cls_cd, s.sec_cd, s.stud_fthr_nm, s.stud_ph,
       p.needtopay, p.discount, p.fee_coll_amt, od."pendingAmt", p.bal_amt AS "balAmt", p.first_due_dt AS fee_dflt_since,
       (current_date - p.first_due_dt)::int AS fee_dflt_days,
       p.last_bill_no AS fee_coll_cd, p.last_bill_dt AS fee_coll_crt_dt
FROM fee_position p
-- Every position has its student (the key references it); LEFT so that a count, which needs no student
-- column, is one range of fee_position_due_idx and never joins.
LEFT JOIN student s ON s.stud_cd = p.stud_cd

LEFT JOIN LATERAL (
  SELECT coalesce(sum(t.due_amt), 0)::numeric(14, 2) AS "pendingAmt" FROM fee_position_term t
  WHERE t.stud_cd = p.stud_cd AND t.due_dt < current_date
) od ON true
WHERE p.first_due_dt < current_date;
--> statement-breakpoint
CREATE VIEW "academic_fee_collect_v" AS
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
WHERE t.bal_amt > 0;
--> statement-breakpoint
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
       -- The latest issue of this book to this employee (Stock keeps it); rows older than that column fall back
       -- to the employee's latest issue of any book.
       coalesce(k.usr_bk_stk_iss_dt, (SELECT max(c.bk_chk_dt) FROM book_checkout c
        WHERE c.inst_cd = k.inst_cd AND c.bk_chk_usr_typ = 'Employee' AND c.bk_chk_usr_cd = k.usr_bk_stk_usr_cd)) AS bk_chk_dt,
       k.usr_bk_stk_due_dt,
       greatest(coalesce(current_date - k.usr_bk_stk_due_dt, 0), 0) AS days_overdue
FROM book_checkinout_summary k
JOIN employee u ON u.usr_cd = k.usr_bk_stk_usr_cd
LEFT JOIN designation d ON d.desg_cd = u.usr_desg
WHERE k.usr_bk_stk_usr_typ = 'Employee' AND k.usr_bk_stk_qty > 0;
