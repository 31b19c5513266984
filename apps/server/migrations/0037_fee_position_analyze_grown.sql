-- A statement of 200 rows or more into the student table, and a batch refresh, first analyze the fee tables that
-- grew to twice their statistics (fee_position_analyze_grown): a first import into an empty table was planned as
-- if the table were still empty, and 4,000 students took 38 s on PGlite.
-- New students' dues are summed once per class (each new student owes exactly his class's fee lines), not once per student.
CREATE OR REPLACE FUNCTION fee_position_analyze_grown() RETURNS void LANGUAGE plpgsql AS $fee_position$
DECLARE
  stale regclass;
BEGIN
  FOR stale IN
    SELECT c.oid::regclass FROM pg_class c
     WHERE c.oid IN ('student'::regclass, 'fee'::regclass, 'fee_collection_line'::regclass, 'fee_collection_bill'::regclass,
                     'student_discount'::regclass, 'fee_position'::regclass, 'fee_position_term'::regclass)
       AND (c.reltuples < 0 OR pg_relation_size(c.oid) > 2 * c.relpages::bigint * current_setting('block_size')::bigint + 65536)
  LOOP
    EXECUTE format('ANALYZE %s', stale);
  END LOOP;
END$fee_position$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION fee_position_refresh_batch(ids integer[]) RETURNS void LANGUAGE plpgsql SET plan_cache_mode = auto AS $fee_position$
BEGIN
  IF cardinality(ids) >= 200 THEN
    PERFORM fee_position_analyze_grown();
  END IF;
  -- Every student row has a position row: create the missing ones, so that there is a row to lock.
  INSERT INTO fee_position (stud_cd, inst_cd, acdm_cd)
  SELECT s.stud_cd, s.inst_cd, s.acdm_cd FROM student s WHERE s.stud_cd IN (SELECT unnest(ids)) ORDER BY s.stud_cd
  ON CONFLICT (stud_cd) DO NOTHING;
  -- Lock them (in key order, so two refreshes of overlapping students cannot deadlock) BEFORE computing: a
  -- writer of the same student that committed meanwhile is then seen by the next statement's snapshot
  -- (read committed), and one still running waits for this one. Without the lock first, two bills of one
  -- child could each store a sum that misses the other.
  PERFORM 1 FROM fee_position p WHERE p.stud_cd IN (SELECT unnest(ids)) ORDER BY p.stud_cd FOR UPDATE;
  -- One pass over the students' fee lines (d) makes both tables; rows that did not change are not written.
  WITH d AS MATERIALIZED (
    SELECT * FROM fee_position_due_calc_v WHERE stud_cd IN (SELECT unnest(ids))
  ), c AS (
SELECT s.stud_cd, s.inst_cd, s.acdm_cd,
       coalesce(t.needtopay, 0)::numeric(14, 2) AS needtopay, coalesce(t.discount, 0)::numeric(14, 2) AS discount,
       coalesce(t.fee_coll_amt, 0)::numeric(14, 2) AS fee_coll_amt, coalesce(t.bal_amt, 0)::numeric(14, 2) AS bal_amt,
       t.first_due_dt,
       lb.fee_coll_bill_no AS last_bill_no, lb.fee_coll_crt_dt AS last_bill_dt
FROM (SELECT stud_cd, inst_cd, acdm_cd FROM student WHERE stud_cd IN (SELECT unnest(ids))) s
-- Grouped, not per student: the dues of many students are summed in one pass and joined by hash.
LEFT JOIN (SELECT d.stud_cd, 
  coalesce(sum(d.amount), 0)::numeric(14, 2) AS needtopay,
  coalesce(sum(d.discount), 0)::numeric(14, 2) AS discount,
  coalesce(sum(d.paid), 0)::numeric(14, 2) AS fee_coll_amt,
  coalesce(sum(d.owed), 0)::numeric(14, 2) AS bal_amt,
  min(d.due_dt) FILTER (WHERE d.owed > 0) AS first_due_dt FROM d d GROUP BY d.stud_cd) t ON t.stud_cd = s.stud_cd

LEFT JOIN LATERAL (
  SELECT b.fee_coll_bill_no, b.fee_coll_crt_dt FROM fee_collection_bill b
  WHERE b.stud_cd = s.stud_cd AND b.fee_coll_sts = 'Active'
  ORDER BY b.fee_coll_bill_no DESC LIMIT 1
) lb ON true
  ), pos AS (
    UPDATE fee_position p
       SET inst_cd = c.inst_cd, acdm_cd = c.acdm_cd, needtopay = c.needtopay, discount = c.discount,
           fee_coll_amt = c.fee_coll_amt, bal_amt = c.bal_amt, first_due_dt = c.first_due_dt,
           last_bill_no = c.last_bill_no, last_bill_dt = c.last_bill_dt
      FROM c
     WHERE c.stud_cd = p.stud_cd
       AND (p.inst_cd, p.acdm_cd, p.needtopay, p.discount, p.fee_coll_amt, p.bal_amt, p.first_due_dt, p.last_bill_no, p.last_bill_dt)
           IS DISTINCT FROM
           (c.inst_cd, c.acdm_cd, c.needtopay, c.discount, c.fee_coll_amt, c.bal_amt, c.first_due_dt, c.last_bill_no, c.last_bill_dt)
    RETURNING 1
  ), gone AS (
    -- The due dates no longer owing (disjoint from the rows written below, so one statement can do both).
    DELETE FROM fee_position_term t
     WHERE t.stud_cd IN (SELECT unnest(ids))
       AND NOT EXISTS (SELECT 1 FROM d WHERE d.stud_cd = t.stud_cd AND d.due_dt = t.due_dt AND d.due_dt IS NOT NULL AND d.owed > 0)
    RETURNING 1
  )
  INSERT INTO fee_position_term AS t (stud_cd, due_dt, due_amt)
  SELECT d.stud_cd, d.due_dt, d.owed FROM d WHERE d.due_dt IS NOT NULL AND d.owed > 0
  ON CONFLICT (stud_cd, due_dt) DO UPDATE SET due_amt = excluded.due_amt WHERE t.due_amt <> excluded.due_amt;
END$fee_position$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION fee_position_on_student() RETURNS trigger LANGUAGE plpgsql AS $fee_position$
DECLARE
  ids integer[];
  fresh_ids integer[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    -- Before the first plan of this call: the lookups below by admission number are planned with the statistics.
    IF (SELECT count(*) FROM new_rows) >= 200 THEN
      PERFORM fee_position_analyze_grown();
    END IF;
    SELECT array_agg(n.stud_cd) INTO fresh_ids FROM new_rows n
     WHERE NOT EXISTS (
       SELECT 1 FROM academic oa
       JOIN student s ON s.inst_cd = oa.inst_cd AND s.acdm_cd = oa.acdm_cd AND lower(s.stud_adm_cd) = lower(n.stud_adm_cd)
       WHERE oa.inst_cd = n.inst_cd AND s.stud_cd <> n.stud_cd);
    IF fresh_ids IS NOT NULL THEN
    WITH fresh AS MATERIALIZED (
      SELECT n.stud_cd, n.inst_cd, n.acdm_cd, n.cls_cd FROM new_rows n WHERE n.stud_cd IN (SELECT unnest(fresh_ids))
    ), x AS (
      -- Each class's fee lines once, not once per student (5,000 new students of a class with 10 fees were
      -- 50,000 fee and fee-group lookups): a new student owes exactly his class's lines.
      SELECT k.inst_cd, k.acdm_cd, k.cls_cd, g.fee_grp_fee_exp_dt, f.fee_amt::numeric(14, 2) AS amount,
             0::numeric(14, 2) AS discount, 0::numeric(14, 2) AS paid
      FROM (SELECT DISTINCT n.inst_cd, n.acdm_cd, n.cls_cd FROM fresh n) k
      JOIN academic sa ON sa.acdm_cd = k.acdm_cd
      JOIN fee f ON f.cls_cd = k.cls_cd AND f.inst_cd = k.inst_cd AND f.acdm_cd = k.acdm_cd
      JOIN fee_group g ON g.fee_grp_cd = f.fee_grp_cd
    ), kd AS (
      SELECT x.inst_cd, x.acdm_cd, x.cls_cd, 
  x.fee_grp_fee_exp_dt AS due_dt,
  sum(x.amount)::numeric(14, 2) AS amount,
  sum(x.discount)::numeric(14, 2) AS discount,
  sum(x.paid)::numeric(14, 2) AS paid,
  sum(greatest(x.amount - x.discount - x.paid, 0))::numeric(14, 2) AS owed FROM x GROUP BY x.inst_cd, x.acdm_cd, x.cls_cd, x.fee_grp_fee_exp_dt
    ), d AS MATERIALIZED (
      SELECT n.stud_cd, kd.due_dt, kd.amount, kd.discount, kd.paid, kd.owed
      FROM fresh n JOIN kd ON kd.inst_cd = n.inst_cd AND kd.acdm_cd = n.acdm_cd AND kd.cls_cd = n.cls_cd
    ), c AS (
SELECT s.stud_cd, s.inst_cd, s.acdm_cd,
       coalesce(t.needtopay, 0)::numeric(14, 2) AS needtopay, coalesce(t.discount, 0)::numeric(14, 2) AS discount,
       coalesce(t.fee_coll_amt, 0)::numeric(14, 2) AS fee_coll_amt, coalesce(t.bal_amt, 0)::numeric(14, 2) AS bal_amt,
       t.first_due_dt,
       lb.fee_coll_bill_no AS last_bill_no, lb.fee_coll_crt_dt AS last_bill_dt
FROM fresh s
-- Grouped, not per student: the dues of many students are summed in one pass and joined by hash.
LEFT JOIN (SELECT d.stud_cd, 
  coalesce(sum(d.amount), 0)::numeric(14, 2) AS needtopay,
  coalesce(sum(d.discount), 0)::numeric(14, 2) AS discount,
  coalesce(sum(d.paid), 0)::numeric(14, 2) AS fee_coll_amt,
  coalesce(sum(d.owed), 0)::numeric(14, 2) AS bal_amt,
  min(d.due_dt) FILTER (WHERE d.owed > 0) AS first_due_dt FROM d d GROUP BY d.stud_cd) t ON t.stud_cd = s.stud_cd

LEFT JOIN LATERAL (
  SELECT b.fee_coll_bill_no, b.fee_coll_crt_dt FROM fee_collection_bill b
  WHERE b.stud_cd = s.stud_cd AND b.fee_coll_sts = 'Active'
  ORDER BY b.fee_coll_bill_no DESC LIMIT 1
) lb ON true
    ), pos AS (
      INSERT INTO fee_position (stud_cd, inst_cd, acdm_cd, needtopay, discount, fee_coll_amt, bal_amt, first_due_dt, last_bill_no, last_bill_dt)
      SELECT c.stud_cd, c.inst_cd, c.acdm_cd, c.needtopay, c.discount, c.fee_coll_amt, c.bal_amt, c.first_due_dt, c.last_bill_no, c.last_bill_dt
      FROM c
      RETURNING 1
    )
    INSERT INTO fee_position_term (stud_cd, due_dt, due_amt)
    SELECT d.stud_cd, d.due_dt, d.owed FROM d WHERE d.due_dt IS NOT NULL AND d.owed > 0;
    END IF;
    SELECT array_agg(DISTINCT x.stud_cd) INTO ids FROM (
      SELECT n.stud_cd FROM new_rows n WHERE n.stud_cd NOT IN (SELECT unnest(fresh_ids))
      UNION
      SELECT s.stud_cd FROM new_rows n
      JOIN academic oa ON oa.inst_cd = n.inst_cd
      JOIN student s ON s.inst_cd = oa.inst_cd AND s.acdm_cd = oa.acdm_cd AND lower(s.stud_adm_cd) = lower(n.stud_adm_cd)
      WHERE n.stud_cd NOT IN (SELECT unnest(fresh_ids))
    ) x;
  ELSIF TG_OP = 'UPDATE' THEN
    WITH changed AS (
      SELECT n.stud_cd, n.inst_cd, lower(n.stud_adm_cd) AS adm, o.inst_cd AS old_inst, lower(o.stud_adm_cd) AS old_adm
      FROM old_rows o JOIN new_rows n ON n.stud_cd = o.stud_cd
      WHERE (o.cls_cd, o.inst_cd, o.acdm_cd, lower(o.stud_adm_cd)) IS DISTINCT FROM (n.cls_cd, n.inst_cd, n.acdm_cd, lower(n.stud_adm_cd))
    ), adms AS (
      SELECT c.inst_cd, c.adm FROM changed c UNION SELECT c.old_inst, c.old_adm FROM changed c
    )
    SELECT array_agg(DISTINCT x.stud_cd) INTO ids FROM (
      SELECT c.stud_cd FROM changed c
      UNION
      SELECT s.stud_cd FROM adms a
      JOIN academic oa ON oa.inst_cd = a.inst_cd
      JOIN student s ON s.inst_cd = oa.inst_cd AND s.acdm_cd = oa.acdm_cd AND lower(s.stud_adm_cd) = a.adm
    ) x;
  ELSE
    -- The deleted rows' own positions go with them (ON DELETE CASCADE).
    SELECT array_agg(DISTINCT s.stud_cd) INTO ids FROM old_rows o
      JOIN academic oa ON oa.inst_cd = o.inst_cd
      JOIN student s ON s.inst_cd = oa.inst_cd AND s.acdm_cd = oa.acdm_cd AND lower(s.stud_adm_cd) = lower(o.stud_adm_cd);
  END IF;
  PERFORM fee_position_refresh(ids);
  RETURN NULL;
END$fee_position$;
