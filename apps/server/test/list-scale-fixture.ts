import type pg from 'pg';

const FIRST = ['Arun', 'Priya', 'Karthik', 'Divya', 'Suresh', 'Meena', 'Vijay', 'Lakshmi', 'Ravi', 'Anitha', 'Ganesh', 'Kavya'];
/** Three of these make a last name: 1,000 names, each one student in 1,000 (10 per institute of 10,000). */
export const SYLLABLES = ['ka', 'ra', 'pu', 've', 'lo', 'mi', 'sa', 'dhu', 'ni', 'tha'];

/** The last name of number n (0-999), as the loader writes it: 371 -> 'Velora'. */
export const lastName = (n: number): string => {
  const s = [Math.floor(n / 100), Math.floor(n / 10) % 10, n % 10].map((i) => SYLLABLES[i]).join('');
  return s[0].toUpperCase() + s.slice(1);
};

/**
 * Institutes named 'Scale School n', each with one year, 12 classes of 3 sections and `perInstitute`
 * students, in bulk SQL, then VACUUM ANALYZE (as autovacuum would: it also merges the trigram index's
 * pending list, which a bulk load leaves long). Admission numbers are 'ADM/<n>/<six digits>'; last names
 * see lastName. Leaves the temp table scale_inst (inst_cd, n) on this connection.
 */
export async function loadScaleStudents(client: pg.Client, institutes: number, perInstitute: number): Promise<void> {
  // Built once after the load rather than row by row, from their own definitions: the same indexes.
  const { rows: defs } = await client.query<{ name: string; def: string }>(
    `select indexname as name, indexdef as def from pg_indexes where tablename = 'student' and indexname <> 'student_pkey' and indexdef not like 'CREATE UNIQUE%'`,
  );
  for (const d of defs) await client.query(`drop index "${d.name}"`);
  await client.query(`
      insert into institute (inst_nm, inst_typ) select 'Scale School ' || g, 'school' from generate_series(1, ${institutes}) g;
      create temp table scale_inst as select inst_cd, row_number() over (order by inst_cd) as n from institute where inst_nm like 'Scale School %';
      insert into academic (inst_cd, acdm_strt_yr, acdm_strt_mn, acdm_end_yr, acdm_end_mn) select inst_cd, 2026, 'Jun', 2027, 'Apr' from scale_inst;
      insert into class (inst_cd, cls_nm, cls_odr) select i.inst_cd, 'Class ' || c, c from scale_inst i, generate_series(1, 12) c;
      insert into section (inst_cd, sec_nm, cls_cd) select c.inst_cd, s, c.cls_cd from class c join scale_inst i using (inst_cd), unnest(array['A', 'B', 'C']) s;
      create temp table scale_last as
        select a * 100 + b * 10 + c as n, s[a + 1] || s[b + 1] || s[c + 1] as nm
        from (select array['${SYLLABLES.join("','")}'] as s) x, generate_series(0, 9) a, generate_series(0, 9) b, generate_series(0, 9) c;
      create temp table scale_sec as
        select s.inst_cd, a.acdm_cd, s.cls_cd, s.sec_cd, row_number() over (partition by s.inst_cd order by s.sec_cd) - 1 as k
        from section s join scale_inst i using (inst_cd) join academic a using (inst_cd);
      -- Every class, section, institute and year above exists: their foreign-key checks are skipped (superuser, as in CI).
      set session_replication_role = replica;
      insert into student (inst_cd, acdm_cd, stud_fs_nm, stud_adm_cd, stud_ph, cls_cd, sec_cd)
        select x.inst_cd, x.acdm_cd,
               (array['${FIRST.join("','")}'])[1 + g % ${FIRST.length}] || ' ' || initcap(l.nm),
               'ADM/' || i.n || '/' || lpad(g::text, 6, '0'),
               '+91 9' || lpad((g % 10000)::text, 4, '0') || ' ' || lpad((g * 31 % 100000)::text, 5, '0'),
               x.cls_cd, x.sec_cd
        from scale_inst i, generate_series(1, ${perInstitute}) g
        join lateral (select * from scale_sec s where s.inst_cd = i.inst_cd and s.k = g % 36) x on true
        join lateral (select nm from scale_last where n = (g + i.n * 37) * 7919 % 1000) l on true;
      reset session_replication_role;
  `);
  for (const d of defs) await client.query(d.def);
  for (const t of ['institute', 'academic', 'class', 'section', 'student']) await client.query(`vacuum analyze ${t}`);
}
