/**
 * The scale database: the demo school and college (the app's own migrate, seed and demo, so every screen has
 * coherent data), then K-2 more institutes cloned from the demo school's set-up (years, masters, classes,
 * terms, fee mappings, tenders) and N students spread over all K institutes written in bulk SQL
 * (INSERT ... SELECT generate_series), each with about 15 fee lines, most with last year's row (promoted),
 * about 60% with a paid first-term bill, and staff. Kept between runs: a table bench_scale_meta records what
 * was generated, and a run with other figures (or --regenerate) builds it again.
 */
import pg from 'pg';
import { generateDemo } from '../../apps/server/src/db/demo/demo-data';
import { namePools } from '../../apps/server/src/db/demo/names';
import { openDatabase, sql } from '../../apps/server/src/db/client';
import { migrate } from '../../apps/server/src/db/migrate';
import { ensureAdminGrants, seedIfEmpty } from '../../apps/server/src/db/seed';
import { refreshFeeNames } from '../../apps/server/src/hooks/fee.hooks';
import { databaseExists, recreateDatabase, urlOf, withClient } from '../lib/bench-db';
import { BENCH_ADMIN_PASSWORD, BENCH_DEMO_PASSWORD } from '../lib/server-process';

export interface ScaleOptions {
  database: string;
  students: number;
  institutes: number;
  regenerate: boolean;
  log?: (line: string) => void;
}

export interface ScaleInfo {
  students: number;
  institutes: number;
  generatedSeconds: number;
  reused: boolean;
  counts: Record<string, number>;
}

/** The master tables copied from the demo school to each new institute, parents before children. */
const CLONED = ['academic', 'setting', 'role', 'designation', 'religion', 'community', 'class_group', 'class', 'section', 'tender_type', 'fee_type', 'fee_group', 'fee'] as const;

/** The last institute gets a double share: the second size (20,400 students in one school). */
export function sharesOf(students: number, institutes: number): number[] {
  const one = Math.floor(students / (institutes + 1));
  const shares = Array.from({ length: institutes }, () => one);
  shares[institutes - 1] = students - one * (institutes - 1);
  return shares;
}

export async function ensureScaleDatabase(o: ScaleOptions): Promise<ScaleInfo> {
  const log = o.log ?? ((l: string) => console.log(l));
  const url = urlOf(o.database);
  if (!o.regenerate && (await databaseExists(o.database))) {
    const meta = await withClient(url, async (c) => {
      const t = await c.query(`SELECT to_regclass('bench_scale_meta') AS t`);
      if (!t.rows[0].t) return null;
      return (await c.query('SELECT students, institutes, seconds, counts FROM bench_scale_meta')).rows[0] as
        | { students: number; institutes: number; seconds: number; counts: Record<string, number> }
        | undefined;
    });
    if (meta && meta.students === o.students && meta.institutes === o.institutes) {
      log(`reusing ${o.database}: ${o.students} students over ${o.institutes} institutes (generated in ${meta.seconds} s; --regenerate to build it again)`);
      return { students: o.students, institutes: o.institutes, generatedSeconds: Number(meta.seconds), reused: true, counts: meta.counts };
    }
  }
  if (o.institutes < 3) throw new Error('at least 3 institutes (the demo school, the demo college and one more)');
  const t0 = performance.now();
  await recreateDatabase(o.database);
  const database = await openDatabase({ databaseUrl: url });
  try {
    await migrate(database.db);
    await seedIfEmpty(database.db, BENCH_ADMIN_PASSWORD);
    await generateDemo(database.db, { password: BENCH_DEMO_PASSWORD });
    log(`  demo school and college: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const counts = await withClient(url, (c) => bulk(c, o, log));
    // Fee mapping names ('Term 1 - Tuition Fee - VI') as the fee hooks keep them.
    await refreshFeeNames(database.db, sql`f.fee_nm IS NULL OR f.inst_cd > 2 OR f.fee_nm = ''`);
    await ensureAdminGrants(database.db);
    await withClient(url, async (c) => {
      await c.query('VACUUM ANALYZE');
      const seconds = Math.round((performance.now() - t0) / 1000);
      await c.query('CREATE TABLE bench_scale_meta (students int, institutes int, seconds int, counts jsonb, at timestamptz DEFAULT now())');
      await c.query('INSERT INTO bench_scale_meta (students, institutes, seconds, counts) VALUES ($1, $2, $3, $4)', [o.students, o.institutes, seconds, JSON.stringify(counts)]);
    });
    const seconds = (performance.now() - t0) / 1000;
    log(`  generated in ${seconds.toFixed(0)} s: ${JSON.stringify(counts)}`);
    return { students: o.students, institutes: o.institutes, generatedSeconds: Math.round(seconds), reused: false, counts };
  } finally {
    await database.close();
  }
}

interface Col {
  name: string;
  ref: string | null;
}

async function columnsOf(c: pg.Client, table: string): Promise<Col[]> {
  const r = await c.query<{ name: string; ref: string | null }>(
    `SELECT a.attname AS name,
            (SELECT con.confrelid::regclass::text FROM pg_constraint con
             WHERE con.conrelid = a.attrelid AND con.contype = 'f' AND con.conkey = ARRAY[a.attnum]::int2[] LIMIT 1) AS ref
     FROM pg_attribute a WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
     ORDER BY a.attnum`,
    [table],
  );
  return r.rows;
}

async function keyOf(c: pg.Client, table: string): Promise<string> {
  const r = await c.query<{ k: string }>(
    `SELECT a.attname AS k FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
     WHERE i.indrelid = $1::regclass AND i.indisprimary`,
    [table],
  );
  return r.rows[0].k;
}

async function hasInstCd(c: pg.Client, table: string): Promise<boolean> {
  const r = await c.query(`SELECT 1 FROM pg_attribute WHERE attrelid = $1::regclass AND attname = 'inst_cd' AND NOT attisdropped`, [table]);
  return (r.rowCount ?? 0) > 0;
}

const q = (id: string): string => `"${id.replace(/"/g, '""')}"`;

async function bulk(c: pg.Client, o: ScaleOptions, log: (l: string) => void): Promise<Record<string, number>> {
  const step = async (label: string, fn: () => Promise<unknown>) => {
    const t = performance.now();
    await fn();
    log(`  ${label}: ${((performance.now() - t) / 1000).toFixed(1)} s`);
  };
  const [{ usr_cd: admin }] = (await c.query<{ usr_cd: number }>(`SELECT usr_cd FROM employee WHERE usr_nm = 'ADMIN'`)).rows;
  const [{ inst_cd: school }] = (await c.query<{ inst_cd: number }>('SELECT min(inst_cd) AS inst_cd FROM institute')).rows;

  await step(`clone the demo school's set-up into ${o.institutes - 2} institutes`, async () => {
    const meta = new Map<string, { key: string; cols: Col[] }>();
    for (const t of CLONED) meta.set(t, { key: await keyOf(c, t), cols: await columnsOf(c, t) });
    const scoped = new Map<string, boolean>();
    for (const m of meta.values()) for (const col of m.cols) if (col.ref && !scoped.has(col.ref)) scoped.set(col.ref, await hasInstCd(c, col.ref));
    for (const t of CLONED) await c.query(`CREATE TEMP TABLE map_${t} (old int PRIMARY KEY, new int NOT NULL)`);
    const instCols = await columnsOf(c, 'institute');
    for (let i = 3; i <= o.institutes; i++) {
      const n = String(i).padStart(2, '0');
      const over: Record<string, string> = {
        inst_nm: `'Bench Public School ${n}'`,
        inst_eml: `'office@bench-school-${n}.example'`,
        inst_typ: `'school'`,
      };
      const cols = instCols.filter((x) => x.name !== 'inst_cd');
      const [{ inst_cd: inst }] = (
        await c.query<{ inst_cd: number }>(
          `INSERT INTO institute (${cols.map((x) => q(x.name)).join(', ')})
           SELECT ${cols.map((x) => over[x.name] ?? q(x.name)).join(', ')} FROM institute WHERE inst_cd = $1 RETURNING inst_cd`,
          [school],
        )
      ).rows;
      for (const t of CLONED) {
        const { key, cols: tcols } = meta.get(t)!;
        await c.query(`TRUNCATE map_${t}`);
        await c.query(`INSERT INTO map_${t} SELECT ${q(key)}, nextval(pg_get_serial_sequence('${t}', '${key}')) FROM ${q(t)} WHERE inst_cd = $1`, [school]);
        const expr = (col: Col): string => {
          if (col.name === key) return 'm.new';
          if (col.name === 'inst_cd') return String(inst);
          if (col.ref && (CLONED as readonly string[]).includes(col.ref)) return `(SELECT x.new FROM map_${col.ref} x WHERE x.old = s.${q(col.name)})`;
          // A link to another institute-scoped table that is not copied would cross institutes.
          if (col.ref && scoped.get(col.ref)) return 'NULL';
          return `s.${q(col.name)}`;
        };
        await c.query(
          `INSERT INTO ${q(t)} (${tcols.map((x) => q(x.name)).join(', ')})
           SELECT ${tcols.map(expr).join(', ')} FROM ${q(t)} s JOIN map_${t} m ON m.old = s.${q(key)}`,
        );
      }
    }
    for (const t of CLONED) await c.query(`DROP TABLE map_${t}`);
  });

  const shares = sharesOf(o.students, o.institutes);
  await c.query(`CREATE TEMP TABLE bench_inst AS
    SELECT i.inst_cd, a.acdm_cd, a.acdm_strt_yr, p.acdm_cd AS prev_acdm_cd, row_number() OVER (ORDER BY i.inst_cd)::int AS ord
    FROM institute i JOIN academic a ON a.inst_cd = i.inst_cd AND a.acdm_sts
    LEFT JOIN LATERAL (SELECT acdm_cd FROM academic x WHERE x.inst_cd = i.inst_cd AND x.acdm_strt_yr < a.acdm_strt_yr ORDER BY acdm_strt_yr DESC LIMIT 1) p ON true`);
  await c.query(`ALTER TABLE bench_inst ADD COLUMN n int`);
  await c.query(`UPDATE bench_inst SET n = ($1::int[])[ord]`, [shares]);

  await step('sections for about 40 students each', async () => {
    // The demo's 2 sections per class would put 500 children in a section; a school of 10,000 has ~250.
    await c.query(`
      INSERT INTO section (sec_nm, cls_cd, sec_desc, inst_cd, crt_by)
      SELECT 'S' || lpad(k::text, 2, '0'), cl.cls_cd, 'Bench section', b.inst_cd, ${admin}
      FROM bench_inst b
      JOIN class cl ON cl.inst_cd = b.inst_cd
      CROSS JOIN LATERAL generate_series(1, greatest(1, ceil(b.n / 40.0 / (SELECT count(*) FROM class x WHERE x.inst_cd = b.inst_cd))::int)) k`);
  });

  await step('fee mappings up to 15 lines per class', async () => {
    await c.query(`
      INSERT INTO fee_type (feetyp_nm, feetyp_desc, inst_cd, crt_by)
      SELECT 'Bench Fee ' || t, 'Extra fee of the scale bench', b.inst_cd, ${admin} FROM bench_inst b, generate_series(1, 6) t`);
    await c.query(`
      WITH have AS (
        SELECT cl.cls_cd, b.inst_cd, b.acdm_cd, (SELECT count(*) FROM fee f WHERE f.cls_cd = cl.cls_cd AND f.acdm_cd = b.acdm_cd) AS n
        FROM bench_inst b JOIN class cl ON cl.inst_cd = b.inst_cd),
      cand AS (
        SELECT h.*, g.fee_grp_cd, t.feetyp_cd,
               row_number() OVER (PARTITION BY h.cls_cd ORDER BY g.fee_grp_fee_str_dt, g.fee_grp_cd, t.feetyp_cd) AS rn
        FROM have h JOIN fee_group g ON g.inst_cd = h.inst_cd AND g.acdm_cd = h.acdm_cd
        JOIN fee_type t ON t.inst_cd = h.inst_cd AND t.feetyp_nm LIKE 'Bench Fee %')
      INSERT INTO fee (fee_grp_cd, feetyp_cd, cls_cd, fee_amt, fee_amt_aftr_prmtn, inst_cd, acdm_cd, crt_by)
      SELECT fee_grp_cd, feetyp_cd, cls_cd, 300 + 100 * (rn % 7), 250 + 100 * (rn % 7), inst_cd, acdm_cd, ${admin}
      FROM cand WHERE rn <= 15 - n`);
  });

  const male = [...new Set(namePools.flatMap((p) => p.male))];
  const female = [...new Set(namePools.flatMap((p) => p.female))];
  const family = [...new Set(namePools.flatMap((p) => p.family))];
  await step(`${o.students} students (this year) in bulk`, async () => {
    // Deterministic picks: hashint4 of the row number and institute, so a rerun builds the same school.
    await c.query(
      `WITH secs AS (
         SELECT b.*, array_agg(s.sec_cd ORDER BY cl.cls_odr, s.sec_cd) AS sec, array_agg(s.cls_cd ORDER BY cl.cls_odr, s.sec_cd) AS cls,
                (SELECT array_agg(rgn_cd ORDER BY rgn_cd) FROM religion r WHERE r.inst_cd = b.inst_cd) AS rgn,
                (SELECT array_agg(cmty_cd ORDER BY cmty_cd) FROM community m WHERE m.inst_cd = b.inst_cd) AS cmty
         FROM bench_inst b JOIN section s ON s.inst_cd = b.inst_cd JOIN class cl ON cl.cls_cd = s.cls_cd
         GROUP BY b.inst_cd, b.acdm_cd, b.acdm_strt_yr, b.prev_acdm_cd, b.ord, b.n),
       gen AS (
         SELECT x.*, g, 1 + (g - 1) % cardinality(x.sec) AS si, abs(hashint4(g * 7919 + x.inst_cd)) AS h, abs(hashint4(g * 104729 + x.inst_cd * 31)) AS h2
         FROM secs x, generate_series(1, x.n) g)
       INSERT INTO student (stud_fs_nm, stud_adm_cd, stud_roll_nmb, cls_cd, sec_cd, medium, stud_doj, stud_dob, stud_gnd, stud_fthr_nm,
                            stud_mthr_nm, stud_ph, stud_eml, stud_per_adr, rgn_cd, cmty_cd, inst_cd, acdm_cd, crt_by)
       SELECT CASE WHEN h % 2 = 0 THEN ($1::text[])[1 + h % cardinality($1::text[])] ELSE ($2::text[])[1 + h % cardinality($2::text[])] END
                || ' ' || ($3::text[])[1 + h2 % cardinality($3::text[])],
              'BN' || lpad(ord::text, 2, '0') || '/' || lpad(g::text, 6, '0'),
              1 + (g - 1) / cardinality(sec), cls[si], sec[si], CASE WHEN h % 5 = 0 THEN 'Tamil' ELSE 'English' END,
              make_date(acdm_strt_yr, 6, 1) - (h % 2000), make_date(acdm_strt_yr - 6 - h % 12, 1 + h % 12, 1 + h % 28),
              CASE WHEN h % 2 = 0 THEN 'Male' ELSE 'Female' END,
              ($1::text[])[1 + h2 % cardinality($1::text[])] || ' ' || ($3::text[])[1 + h2 % cardinality($3::text[])],
              ($2::text[])[1 + h % cardinality($2::text[])] || ' ' || ($3::text[])[1 + h2 % cardinality($3::text[])],
              '+91 9' || lpad((h % 1000000000)::text, 9, '0'), 'parent' || g || '.' || inst_cd || '@mail.example',
              (1 + h % 200) || ', Bench Street, Chennai', rgn[1 + h % cardinality(rgn)], cmty[1 + h2 % cardinality(cmty)], inst_cd, acdm_cd, ${admin}
       FROM gen`,
      [male, female, family],
    );
  });
  await step("last year's row for 80% of them (promoted: old-student amounts)", async () => {
    await c.query(`
      INSERT INTO student (stud_fs_nm, stud_adm_cd, stud_roll_nmb, cls_cd, sec_cd, medium, stud_doj, stud_dob, stud_gnd, stud_fthr_nm,
                           stud_mthr_nm, stud_ph, stud_eml, stud_per_adr, rgn_cd, cmty_cd, inst_cd, acdm_cd, crt_by)
      SELECT s.stud_fs_nm, s.stud_adm_cd, s.stud_roll_nmb, s.cls_cd, s.sec_cd, s.medium, s.stud_doj, s.stud_dob, s.stud_gnd, s.stud_fthr_nm,
             s.stud_mthr_nm, s.stud_ph, s.stud_eml, s.stud_per_adr, s.rgn_cd, s.cmty_cd, s.inst_cd, b.prev_acdm_cd, ${admin}
      FROM student s JOIN bench_inst b ON b.inst_cd = s.inst_cd AND b.acdm_cd = s.acdm_cd
      WHERE b.prev_acdm_cd IS NOT NULL AND s.stud_adm_cd LIKE 'BN%' AND s.stud_doj < make_date(b.acdm_strt_yr, 4, 1)
        AND abs(hashint4(s.stud_cd)) % 10 < 8`);
  });
  await step('paid first-term bills for about 60% of them, numbered on from the demo bills', async () => {
    await c.query(`
      CREATE TEMP TABLE bench_bill AS
      SELECT s.stud_cd, s.inst_cd, s.acdm_cd, s.stud_adm_cd, s.cls_cd, s.sec_cd, g.fee_grp_cd, g.fee_grp_fee_str_dt,
             nextval(pg_get_serial_sequence('fee_collection_bill', 'fee_coll_cd'))::int AS fee_coll_cd,
             (SELECT coalesce(max(fee_coll_bill_no), 0) FROM fee_collection_bill x WHERE x.inst_cd = s.inst_cd AND x.acdm_cd = s.acdm_cd)
               + row_number() OVER (PARTITION BY s.inst_cd, s.acdm_cd ORDER BY s.stud_cd) AS bill_no,
             EXISTS (SELECT 1 FROM student o WHERE o.inst_cd = s.inst_cd AND o.acdm_cd = b.prev_acdm_cd AND lower(o.stud_adm_cd) = lower(s.stud_adm_cd)) AS promoted,
             (SELECT tnd_typ_cd FROM tender_type t WHERE t.inst_cd = s.inst_cd AND t.tnd_typ_nm = 'Cash' LIMIT 1) AS cash
      FROM student s JOIN bench_inst b ON b.inst_cd = s.inst_cd AND b.acdm_cd = s.acdm_cd
      CROSS JOIN LATERAL (SELECT fee_grp_cd, fee_grp_fee_str_dt FROM fee_group g WHERE g.inst_cd = s.inst_cd AND g.acdm_cd = s.acdm_cd
                          ORDER BY fee_grp_fee_str_dt, fee_grp_cd LIMIT 1) g
      WHERE s.stud_adm_cd LIKE 'BN%' AND abs(hashint4(s.stud_cd * 3)) % 10 < 6`);
    await c.query(`
      INSERT INTO fee_collection_bill (fee_coll_cd, fee_coll_bill_no, fee_coll_crt_dt, fee_coll_crt_tm, stud_cd, stud_adm_cd, cls_cd, sec_cd,
                                       fee_coll_amt, fee_coll_disc_amt, tnd_typ_cd, fee_coll_ref, fee_coll_by, fee_coll_sts, fee_coll_idem_key,
                                       inst_cd, acdm_cd, crt_by)
      SELECT b.fee_coll_cd, b.bill_no, b.fee_grp_fee_str_dt + (b.stud_cd % 20), '10:30:00', b.stud_cd, b.stud_adm_cd, b.cls_cd, b.sec_cd,
             (SELECT sum(CASE WHEN b.promoted THEN f.fee_amt_aftr_prmtn ELSE f.fee_amt END) FROM fee f WHERE f.cls_cd = b.cls_cd AND f.fee_grp_cd = b.fee_grp_cd),
             0, b.cash, NULL, 'Administrator', 'Active', 'bench-' || b.fee_coll_cd, b.inst_cd, b.acdm_cd, ${admin}
      FROM bench_bill b`);
    await c.query(`
      INSERT INTO fee_collection_line (fee_coll_cd, stud_cd, fee_cd, fee_grp_cd, fee_coll_dtl_kind, fee_coll_dtl_amt, fee_coll_dtl_disc,
                                       fee_coll_dtl_sts, inst_cd, acdm_cd, crt_by)
      SELECT b.fee_coll_cd, b.stud_cd, f.fee_cd, f.fee_grp_cd, 'Fee', CASE WHEN b.promoted THEN f.fee_amt_aftr_prmtn ELSE f.fee_amt END, 0,
             'Active', b.inst_cd, b.acdm_cd, ${admin}
      FROM bench_bill b JOIN fee f ON f.cls_cd = b.cls_cd AND f.fee_grp_cd = b.fee_grp_cd`);
    // Where bill numbers come from a per-year counter row (migration 0015), it goes on from these bills.
    if ((await c.query(`SELECT to_regclass('bill_counter') AS t`)).rows[0].t) {
      await c.query(`
        INSERT INTO bill_counter AS k (bill_cntr_kind, bill_cntr_last, inst_cd, acdm_cd, crt_by)
        SELECT 'Fee Bill', max(fee_coll_bill_no), inst_cd, acdm_cd, ${admin} FROM fee_collection_bill WHERE fee_coll_bill_no IS NOT NULL GROUP BY inst_cd, acdm_cd
        ON CONFLICT (inst_cd, acdm_cd, bill_cntr_kind) DO UPDATE SET bill_cntr_last = greatest(k.bill_cntr_last, excluded.bill_cntr_last)`);
    }
  });
  await step('staff: 120 employees per institute', async () => {
    await c.query(
      `INSERT INTO employee (inst_cd, usr_nm, usr_full_nm, usr_id, usr_typ, usr_desg, usr_gnd, usr_ph, usr_eml, usr_is_lgn, crt_by)
       SELECT b.inst_cd, 'BENCH' || b.ord || '_' || g, ($1::text[])[1 + g % cardinality($1::text[])] || ' ' || ($2::text[])[1 + (g * 7) % cardinality($2::text[])],
              'BE' || lpad(g::text, 5, '0'),
              (SELECT rl_cd FROM role r WHERE r.inst_cd = b.inst_cd AND r.rl_nm = 'TEACHER'),
              (SELECT min(desg_cd) FROM designation d WHERE d.inst_cd = b.inst_cd), CASE WHEN g % 2 = 0 THEN 'Male' ELSE 'Female' END,
              '+91 8' || lpad((g * 7919 + b.inst_cd)::text, 9, '0'), 'staff' || g || '@bench-' || b.ord || '.example', false, ${admin}
       FROM bench_inst b, generate_series(1, 120) g`,
      [male, family],
    );
    // The administrator works in every institute (as in the demo, where he holds the school and the college).
    await c.query(`
      INSERT INTO user_institute (inst_cd, usr_cd, usr_inst_sts, usr_inst_dscr, crt_by)
      SELECT b.inst_cd, ${admin}, true, 'Administrator (scale bench)', ${admin} FROM bench_inst b
      WHERE b.inst_cd <> (SELECT inst_cd FROM employee WHERE usr_cd = ${admin})
        AND NOT EXISTS (SELECT 1 FROM user_institute u WHERE u.inst_cd = b.inst_cd AND u.usr_cd = ${admin})`);
  });
  const counts: Record<string, number> = {};
  for (const [k, qy] of Object.entries({
    institutes: 'SELECT count(*) FROM institute',
    students_this_year: 'SELECT count(*) FROM student s JOIN academic a ON a.acdm_cd = s.acdm_cd AND a.acdm_sts',
    students_all_years: 'SELECT count(*) FROM student',
    fee_lines_this_year: 'SELECT count(*) FROM student s JOIN academic a ON a.acdm_cd = s.acdm_cd AND a.acdm_sts JOIN fee f ON f.cls_cd = s.cls_cd AND f.acdm_cd = s.acdm_cd',
    bills: 'SELECT count(*) FROM fee_collection_bill',
    bill_lines: 'SELECT count(*) FROM fee_collection_line',
    sections: 'SELECT count(*) FROM section',
    employees: 'SELECT count(*) FROM employee',
    school_1_students: `SELECT count(*) FROM student s JOIN academic a ON a.acdm_cd = s.acdm_cd AND a.acdm_sts WHERE s.inst_cd = ${school}`,
  })) {
    counts[k] = Number((await c.query<{ count: string }>(qy)).rows[0].count);
  }
  return counts;
}
