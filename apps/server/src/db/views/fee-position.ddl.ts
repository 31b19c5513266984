import { dueSums } from './fee-sums';
import { positionSelect, termWhere } from './fee-position.view';

/**
 * Fee balances as data (issue 10): fee_position holds each student row's fee position for its year, and
 * fee_position_term what is still owed per due date, so that fee management sorted by balance and the
 * defaulters report read indexed columns instead of summing every student's fee lines on each request.
 *
 * They are kept exact by statement-level triggers on every table the position is computed from (student,
 * academic, fee, fee_group, student_discount, fee_collection_bill, fee_collection_line): each collects the
 * students its statement touched and calls fee_position_refresh, which recomputes their rows from
 * fee_position_due_calc_v (a view generated from the same TS source as the counter's
 * dues, fee-position.view.ts). So no writer (a workflow, a hook, the generic API, the demo, an import, psql)
 * can forget, and a rebuild (rebuild-fee-positions.ts) only ever repairs what a hand edit with triggers
 * disabled broke.
 *
 * These statements are copied by hand into the migration that created the tables (drizzle cannot express
 * triggers); fee-position-drift.test.ts fails when the database's functions differ from these texts.
 */

/** The tables and their indexes (no declaration: rows are written by the database only, never the API). */
export const feePositionTables = [
  `CREATE TABLE IF NOT EXISTS "fee_position" (
  "stud_cd" integer PRIMARY KEY REFERENCES "student"("stud_cd") ON DELETE CASCADE,
  "inst_cd" integer NOT NULL,
  "acdm_cd" integer NOT NULL,
  "needtopay" numeric(14, 2) NOT NULL DEFAULT 0,
  "discount" numeric(14, 2) NOT NULL DEFAULT 0,
  "fee_coll_amt" numeric(14, 2) NOT NULL DEFAULT 0,
  "bal_amt" numeric(14, 2) NOT NULL DEFAULT 0,
  "first_due_dt" date,
  "last_bill_no" integer,
  "last_bill_dt" date
)`,
  // Fee management sorted by balance (either direction), keyset-friendly: ties broken by the student code.
  `CREATE INDEX IF NOT EXISTS "fee_position_bal_idx" ON "fee_position" ("inst_cd", "acdm_cd", "bal_amt", "stud_cd")`,
  // The defaulters: first_due_dt < today is a range of this index, in the report's order (oldest first).
  `CREATE INDEX IF NOT EXISTS "fee_position_due_idx" ON "fee_position" ("inst_cd", "acdm_cd", "first_due_dt", "stud_cd") WHERE "first_due_dt" IS NOT NULL`,
  `CREATE TABLE IF NOT EXISTS "fee_position_term" (
  "stud_cd" integer NOT NULL REFERENCES "fee_position"("stud_cd") ON DELETE CASCADE,
  "due_dt" date NOT NULL,
  "due_amt" numeric(14, 2) NOT NULL,
  PRIMARY KEY ("stud_cd", "due_dt")
)`,
];

/** Past this many students a refresh runs as a batch (fee_position_refresh_batch). */
const BATCH_FROM = 64;

/**
 * The statements of a refresh over the students `ids`, `member` being how a row's student is matched
 * against them: '= ANY (ids)' probes an index per student (a bill's one child), 'IN (SELECT unnest(ids))' is
 * a hashed set (an import's thousands: '= ANY' over a 5,000-element array is a linear scan per row, and the
 * refresh of a 12,000-student file took 80 s on PGlite).
 */
const refreshStatements = (member: string): string => `  -- Every student row has a position row: create the missing ones, so that there is a row to lock.
  INSERT INTO fee_position (stud_cd, inst_cd, acdm_cd)
  SELECT s.stud_cd, s.inst_cd, s.acdm_cd FROM student s WHERE s.stud_cd ${member} ORDER BY s.stud_cd
  ON CONFLICT (stud_cd) DO NOTHING;
  -- Lock them (in key order, so two refreshes of overlapping students cannot deadlock) BEFORE computing: a
  -- writer of the same student that committed meanwhile is then seen by the next statement's snapshot
  -- (read committed), and one still running waits for this one. Without the lock first, two bills of one
  -- child could each store a sum that misses the other.
  PERFORM 1 FROM fee_position p WHERE p.stud_cd ${member} ORDER BY p.stud_cd FOR UPDATE;
  -- One pass over the students' fee lines (d) makes both tables; rows that did not change are not written.
  WITH d AS MATERIALIZED (
    SELECT * FROM fee_position_due_calc_v WHERE stud_cd ${member}
  ), c AS (${positionSelect(`(SELECT stud_cd, inst_cd, acdm_cd FROM student WHERE stud_cd ${member})`, 'd')}
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
     WHERE t.stud_cd ${member}
       AND NOT EXISTS (SELECT 1 FROM d WHERE d.stud_cd = t.stud_cd AND d.due_dt = t.due_dt AND ${termWhere})
    RETURNING 1
  )
  INSERT INTO fee_position_term AS t (stud_cd, due_dt, due_amt)
  SELECT d.stud_cd, d.due_dt, d.owed FROM d WHERE ${termWhere}
  ON CONFLICT (stud_cd, due_dt) DO UPDATE SET due_amt = excluded.due_amt WHERE t.due_amt <> excluded.due_amt;
`;

/** Body of fee_position_refresh(ids integer[]): recompute the rows of these students (a bill's, a discount's). */
export const refreshBody = `
BEGIN
  IF ids IS NULL OR cardinality(ids) = 0 THEN
    RETURN;
  END IF;
  -- A batch is planned for its size, not with the one-child plan kept for bills.
  IF cardinality(ids) > ${BATCH_FROM} THEN
    PERFORM fee_position_refresh_batch(ids);
    RETURN;
  END IF;
${refreshStatements('= ANY (ids)')}END`;

/**
 * Body of fee_position_analyze_grown(): a bulk write into a fresh database (the demo, a first import; PGlite has
 * no autovacuum) leaves the planner thinking the tables are empty, and the plans of the refresh and of the
 * student trigger then probe the wrong index once per row: a first import of 4,000 students into an empty
 * table took 38 s on PGlite (10 s of it one anti-join filtering 2,000 rows per probe), 1.5 s once analyzed.
 * Tables that grew to twice what their statistics say are analyzed; a table at its statistics costs a catalog read.
 */
export const analyzeGrownBody = `
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
END`;

/** Statements of at least this many rows check the statistics first (fee_position_analyze_grown). */
const ANALYZE_FROM = 200;

/** Body of fee_position_refresh_batch(ids integer[]): the same for many students at once (imports, promotions, fee changes). */
export const refreshBatchBody = `
BEGIN
  IF cardinality(ids) >= ${ANALYZE_FROM} THEN
    PERFORM fee_position_analyze_grown();
  END IF;
${refreshStatements('IN (SELECT unnest(ids))')}END`;

/**
 * Trigger body for tables whose rows name the student (fee_collection_line, fee_collection_bill,
 * student_discount): the students of the rows before and after the statement.
 */
export const onStudentRowsBody = `
DECLARE
  ids integer[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT n.stud_cd) INTO ids FROM new_rows n WHERE n.stud_cd IS NOT NULL;
  ELSIF TG_OP = 'UPDATE' THEN
    SELECT array_agg(DISTINCT x.stud_cd) INTO ids
      FROM (SELECT o.stud_cd FROM old_rows o UNION SELECT n.stud_cd FROM new_rows n) x WHERE x.stud_cd IS NOT NULL;
  ELSE
    SELECT array_agg(DISTINCT o.stud_cd) INTO ids FROM old_rows o WHERE o.stud_cd IS NOT NULL;
  END IF;
  PERFORM fee_position_refresh(ids);
  RETURN NULL;
END`;

/**
 * The position rows of new students `fresh_ids` written straight from their class's fee mapping (an import's
 * thousands: the general refresh cost ~1.1 s per 5,000 students, this a few ms). It holds only for a student
 * row that is new (no bill, bill line or discount can name it yet: those tables' foreign keys to student are
 * not deferrable, and fee_position's own row cascades from student) and whose admission number no other row
 * of the institute has (so it is not promoted and no other row's 'promoted' changes): then each fee line is
 * the fee amount with no discount and nothing paid, the same rows student_fee_line_v would give.
 */
const freshStatement = `
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
      SELECT x.inst_cd, x.acdm_cd, x.cls_cd, ${dueSums} FROM x GROUP BY x.inst_cd, x.acdm_cd, x.cls_cd, x.fee_grp_fee_exp_dt
    ), d AS MATERIALIZED (
      SELECT n.stud_cd, kd.due_dt, kd.amount, kd.discount, kd.paid, kd.owed
      FROM fresh n JOIN kd ON kd.inst_cd = n.inst_cd AND kd.acdm_cd = n.acdm_cd AND kd.cls_cd = n.cls_cd
    ), c AS (${positionSelect('fresh', 'd')}
    ), pos AS (
      INSERT INTO fee_position (stud_cd, inst_cd, acdm_cd, needtopay, discount, fee_coll_amt, bal_amt, first_due_dt, last_bill_no, last_bill_dt)
      SELECT c.stud_cd, c.inst_cd, c.acdm_cd, c.needtopay, c.discount, c.fee_coll_amt, c.bal_amt, c.first_due_dt, c.last_bill_no, c.last_bill_dt
      FROM c
      RETURNING 1
    )
    INSERT INTO fee_position_term (stud_cd, due_dt, due_amt)
    SELECT d.stud_cd, d.due_dt, d.owed FROM d WHERE ${termWhere};
`;

/**
 * Trigger body for student: a new, moved (class, year, institute) or renumbered student, and every row of
 * the same admission number in the institute's other years, whose 'promoted' (old-student amount) depends
 * on whether an earlier row exists. Edits of other columns (name, phone) refresh nothing. New students whose
 * admission number is the institute's only one take the set-wise path above; the others the general refresh.
 */
export const onStudentBody = `
DECLARE
  ids integer[];
  fresh_ids integer[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    -- Before the first plan of this call: the lookups below by admission number are planned with the statistics.
    IF (SELECT count(*) FROM new_rows) >= ${ANALYZE_FROM} THEN
      PERFORM fee_position_analyze_grown();
    END IF;
    SELECT array_agg(n.stud_cd) INTO fresh_ids FROM new_rows n
     WHERE NOT EXISTS (
       SELECT 1 FROM academic oa
       JOIN student s ON s.inst_cd = oa.inst_cd AND s.acdm_cd = oa.acdm_cd AND lower(s.stud_adm_cd) = lower(n.stud_adm_cd)
       WHERE oa.inst_cd = n.inst_cd AND s.stud_cd <> n.stud_cd);
    IF fresh_ids IS NOT NULL THEN${freshStatement}    END IF;
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
END`;

/** Trigger body for fee (the class's fee mapping): every student of the class and year, before and after. */
export const onFeeBody = `
DECLARE
  ids integer[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT s.stud_cd) INTO ids FROM new_rows f
      JOIN student s ON s.cls_cd = f.cls_cd AND s.inst_cd = f.inst_cd AND s.acdm_cd = f.acdm_cd;
  ELSIF TG_OP = 'UPDATE' THEN
    SELECT array_agg(DISTINCT s.stud_cd) INTO ids FROM (
      SELECT o.cls_cd, o.inst_cd, o.acdm_cd FROM old_rows o JOIN new_rows n ON n.fee_cd = o.fee_cd
      WHERE (o.cls_cd, o.inst_cd, o.acdm_cd, o.fee_grp_cd, o.fee_amt, o.fee_amt_aftr_prmtn)
            IS DISTINCT FROM (n.cls_cd, n.inst_cd, n.acdm_cd, n.fee_grp_cd, n.fee_amt, n.fee_amt_aftr_prmtn)
      UNION
      SELECT n.cls_cd, n.inst_cd, n.acdm_cd FROM old_rows o JOIN new_rows n ON n.fee_cd = o.fee_cd
      WHERE (o.cls_cd, o.inst_cd, o.acdm_cd, o.fee_grp_cd, o.fee_amt, o.fee_amt_aftr_prmtn)
            IS DISTINCT FROM (n.cls_cd, n.inst_cd, n.acdm_cd, n.fee_grp_cd, n.fee_amt, n.fee_amt_aftr_prmtn)
    ) f
    JOIN student s ON s.cls_cd = f.cls_cd AND s.inst_cd = f.inst_cd AND s.acdm_cd = f.acdm_cd;
  ELSE
    SELECT array_agg(DISTINCT s.stud_cd) INTO ids FROM old_rows f
      JOIN student s ON s.cls_cd = f.cls_cd AND s.inst_cd = f.inst_cd AND s.acdm_cd = f.acdm_cd;
  END IF;
  PERFORM fee_position_refresh(ids);
  RETURN NULL;
END`;

/** Trigger body for fee_group (update): a moved due date changes what is overdue for the group's classes. */
export const onFeeGroupBody = `
DECLARE
  ids integer[];
BEGIN
  SELECT array_agg(DISTINCT s.stud_cd) INTO ids
    FROM old_rows o JOIN new_rows n ON n.fee_grp_cd = o.fee_grp_cd
    JOIN fee f ON f.fee_grp_cd = n.fee_grp_cd
    JOIN student s ON s.cls_cd = f.cls_cd AND s.inst_cd = f.inst_cd AND s.acdm_cd = f.acdm_cd
   WHERE o.fee_grp_fee_exp_dt IS DISTINCT FROM n.fee_grp_fee_exp_dt;
  PERFORM fee_position_refresh(ids);
  RETURN NULL;
END`;

/** Trigger body for academic (update): a year's start moved changes who counts as promoted in the institute. */
export const onAcademicBody = `
DECLARE
  ids integer[];
BEGIN
  SELECT array_agg(DISTINCT s.stud_cd) INTO ids
    FROM old_rows o JOIN new_rows n ON n.acdm_cd = o.acdm_cd
    JOIN student s ON s.inst_cd IN (o.inst_cd, n.inst_cd)
   WHERE (o.acdm_strt_yr, o.inst_cd) IS DISTINCT FROM (n.acdm_strt_yr, n.inst_cd);
  PERFORM fee_position_refresh(ids);
  RETURN NULL;
END`;

const fn = (name: string, args: string, returns: string, body: string, settings = ''): string =>
  `CREATE OR REPLACE FUNCTION ${name}(${args}) RETURNS ${returns} LANGUAGE plpgsql${settings} AS $fee_position$${body}$fee_position$`;

/**
 * The refresh's statements are planned once per connection, not at every bill: planning the nested fee
 * views takes 10-30 ms and running them for one child under 1 ms, and with custom plans (the default for
 * the first calls, and whenever PostgreSQL judges the generic plan dearer) every bill paid the planning. The
 * generic plan probes per student, so it also suits a refresh of thousands.
 */
export const refreshSettings = ' SET plan_cache_mode = force_generic_plan';

/** The refresh function (migration 0018 re-created it with refreshSettings). */
export const refreshFunction = (): string => fn('fee_position_refresh', 'ids integer[]', 'void', refreshBody, refreshSettings);

/**
 * The batch refresh plans for the batch it is given. Its own setting matters: a function's SET lasts through the
 * functions it calls, so without it the batch inherited fee_position_refresh's generic plans (a fee mapping for a
 * class of 600 refreshed in 2.6 s from the trigger against 0.1 s called directly).
 */
export const batchSettings = ' SET plan_cache_mode = auto';

export const analyzeGrownFunction = (): string => fn('fee_position_analyze_grown', '', 'void', analyzeGrownBody);

export const refreshBatchFunction = (): string => fn('fee_position_refresh_batch', 'ids integer[]', 'void', refreshBatchBody, batchSettings);

/** Every function, by name, with its body (the drift test compares the database's with these). */
export const feePositionFunctionBodies: Record<string, string> = {
  fee_position_analyze_grown: analyzeGrownBody,
  fee_position_refresh: refreshBody,
  fee_position_refresh_batch: refreshBatchBody,
  fee_position_on_student_rows: onStudentRowsBody,
  fee_position_on_student: onStudentBody,
  fee_position_on_fee: onFeeBody,
  fee_position_on_fee_group: onFeeGroupBody,
  fee_position_on_academic: onAcademicBody,
};

type Event = 'INSERT' | 'UPDATE' | 'DELETE';
const triggers: { table: string; fn: string; events: Event[] }[] = [
  { table: 'fee_collection_line', fn: 'fee_position_on_student_rows', events: ['INSERT', 'UPDATE', 'DELETE'] },
  { table: 'fee_collection_bill', fn: 'fee_position_on_student_rows', events: ['INSERT', 'UPDATE', 'DELETE'] },
  { table: 'student_discount', fn: 'fee_position_on_student_rows', events: ['INSERT', 'UPDATE', 'DELETE'] },
  { table: 'student', fn: 'fee_position_on_student', events: ['INSERT', 'UPDATE', 'DELETE'] },
  { table: 'fee', fn: 'fee_position_on_fee', events: ['INSERT', 'UPDATE', 'DELETE'] },
  { table: 'fee_group', fn: 'fee_position_on_fee_group', events: ['UPDATE'] },
  { table: 'academic', fn: 'fee_position_on_academic', events: ['UPDATE'] },
];

const transition: Record<Event, string> = {
  INSERT: 'REFERENCING NEW TABLE AS new_rows',
  UPDATE: 'REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows',
  DELETE: 'REFERENCING OLD TABLE AS old_rows',
};

/** The trigger names, by table (the drift test checks they all exist). */
export const feePositionTriggers = triggers.flatMap((t) => t.events.map((e) => ({ table: t.table, name: `fee_position_${e.toLowerCase()}` })));

/** The functions and triggers (a transition table belongs to one event, hence one trigger per event). */
export const feePositionFunctions = [
  analyzeGrownFunction(),
  refreshBatchFunction(),
  refreshFunction(),
  ...Object.entries(feePositionFunctionBodies)
    .filter(([name]) => triggers.some((t) => t.fn === name))
    .map(([name, body]) => fn(name, '', 'trigger', body)),
  ...triggers.flatMap((t) =>
    t.events.map(
      (e) =>
        `CREATE TRIGGER "fee_position_${e.toLowerCase()}" AFTER ${e} ON "${t.table}" ${transition[e]} FOR EACH STATEMENT EXECUTE FUNCTION ${t.fn}()`,
    ),
  ),
];

/**
 * Fill the tables from scratch (the migration's backfill and the rebuild): one statement each, with the
 * writers of positions held off meanwhile (they take row locks: EXCLUSIVE waits for them and blocks them).
 */
export const feePositionRebuild = [
  `LOCK TABLE "fee_position", "fee_position_term" IN EXCLUSIVE MODE`,
  `DELETE FROM "fee_position_term"`,
  `DELETE FROM "fee_position"`,
  `INSERT INTO "fee_position" (stud_cd, inst_cd, acdm_cd, needtopay, discount, fee_coll_amt, bal_amt, first_due_dt, last_bill_no, last_bill_dt)
SELECT stud_cd, inst_cd, acdm_cd, needtopay, discount, fee_coll_amt, bal_amt, first_due_dt, last_bill_no, last_bill_dt FROM "fee_position_calc_v"`,
  `INSERT INTO "fee_position_term" (stud_cd, due_dt, due_amt) SELECT stud_cd, due_dt, due_amt FROM "fee_position_term_calc_v"`,
];
