/**
 * Where a large student import's write goes on PGlite (issue 10): on an in-process demo database holding
 * `--before` imported students, EXPLAIN ANALYZE of one 5,000-row student INSERT (the import's own statement
 * shape: json_populate_recordset) split into the insert itself, each trigger (foreign keys, fee position) and
 * the student table's indexes, then the same INSERT with the table's plain indexes dropped and the cost of
 * building them again. Every trial is rolled back.
 *
 *   npx tsx bench/import/import-profile.bench.ts --before 10000 --batch 5000
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { rows, sql, type Db } from '../../apps/server/src/db/client';
import { insertJsonRows } from '../../apps/server/src/db/json-insert';
import { startTestServer } from '../../apps/server/test/test-server';
import { repoRoot } from '../lib/server-process';
import { loadAverage } from '../lib/stats';

const { values: args } = parseArgs({ options: { before: { type: 'string', default: '10000' }, batch: { type: 'string', default: '5000' }, backend: { type: 'string', default: 'pglite' }, batches: { type: 'string', default: '10' }, reps: { type: 'string', default: '1' }, modes: { type: 'string' }, pending: { type: 'string' }, workmem: { type: 'string' } } });
const before = Number(args.before);
const batch = Number(args.batch);
const batches = Number(args.batches);

/** The student insert trigger's statements (migration 0026, read from it), the transition table a temp table. */
const mig = readFileSync(join(repoRoot, 'apps/server/migrations/0026_fee_position_new_students.sql'), 'utf8');
const between = (from: string, to: string): string => mig.slice(mig.indexOf(from), mig.indexOf(to, mig.indexOf(from)));
const fresh = (text: string): string => text.replaceAll('SELECT unnest(fresh_ids)', 'SELECT stud_cd FROM fresh_t').replace(' INTO fresh_ids', '').replace(' INTO ids', '');
const feeStatements: Record<string, string> = {
  'same number check': fresh(between('SELECT array_agg(n.stud_cd) INTO fresh_ids', ';')),
  'positions insert': fresh(between('WITH fresh AS MATERIALIZED', ';')),
  'the rest': fresh(between('SELECT array_agg(DISTINCT x.stud_cd) INTO ids', ';')),
};

const srv = await startTestServer(args.backend as 'pglite' | 'postgres', {}, { demo: true });
const db: Db = srv.database.db;
try {
  const [school] = await rows<{ inst_cd: number; acdm_cd: number }>(db, sql`SELECT s.inst_cd, s.acdm_cd FROM student s GROUP BY 1, 2 ORDER BY count(*) DESC LIMIT 1`);
  const secs = await rows<{ cls_cd: number; sec_cd: number }>(db, sql`SELECT s.cls_cd, s.sec_cd FROM section s JOIN class c ON c.cls_cd = s.cls_cd WHERE c.inst_cd = ${school.inst_cd} ORDER BY s.sec_cd`);
  const [{ usr_cd }] = await rows<{ usr_cd: number }>(db, sql`SELECT min(crt_by) AS usr_cd FROM student`);
  const cols = ['inst_cd', 'acdm_cd', 'cls_cd', 'sec_cd', 'stud_fs_nm', 'stud_adm_cd', 'stud_gnd', 'stud_fthr_nm', 'stud_ph', 'crt_by'];
  const first = ['Arun', 'Priya', 'Karthik', 'Divya', 'Suresh', 'Lakshmi', 'Vijay', 'Meena', 'Ravi', 'Anitha', 'Farhan', 'Mary'];
  const family = ['Kumar', 'Raman', 'Pillai', 'Iyer', 'Natarajan', 'Krishnan', 'Joseph', 'Basha', 'Thomas', 'Subramanian'];
  const make = (prefix: string, from: number, n: number): Record<string, unknown>[] =>
    Array.from({ length: n }, (_, k) => {
      const i = from + k;
      const s = secs[i % secs.length];
      const fam = family[(i * 7) % family.length];
      return {
        inst_cd: school.inst_cd,
        acdm_cd: school.acdm_cd,
        cls_cd: s.cls_cd,
        sec_cd: s.sec_cd,
        stud_fs_nm: `${first[i % first.length]} ${fam}`,
        stud_adm_cd: `${prefix}/${String(i).padStart(6, '0')}`,
        stud_gnd: i % 2 ? 'Male' : 'Female',
        stud_fthr_nm: `${first[(i * 3) % first.length]} ${fam}`,
        stud_ph: `+91 98${String(i).padStart(3, '0').slice(-3)} ${String(10000 + i).slice(-5)}`,
        crt_by: usr_cd,
      };
    });
  for (let i = 0; i < before; i += 5000) await insertJsonRows(db, 'student', cols, make('PRE', i, Math.min(5000, before - i)), ['stud_cd']);
  await db.execute(sql`ANALYZE`);
  const [{ n }] = await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM student`);
  console.log(`students in the table: ${n}; batch ${batch}; load ${await loadAverage()}`);

  const explain = async (tx: Db, prefix: string, from: number): Promise<string[]> => {
    const list = make(prefix, from, batch);
    const colList = sql.join(cols.map((c) => sql.identifier(c)), sql`, `);
    const plan = await rows<{ 'QUERY PLAN': string }>(
      tx,
      sql`EXPLAIN (ANALYZE, COSTS OFF) INSERT INTO student (${colList})
          SELECT ${sql.join(cols.map((c) => sql`x.${sql.identifier(c)}`), sql`, `)}
          FROM json_populate_recordset(NULL::student, ${JSON.stringify(list)}::json) WITH ORDINALITY AS x ORDER BY x.ordinality RETURNING stud_cd`,
    );
    return plan.map((p) => p['QUERY PLAN']).filter((l) => /Trigger|Execution Time|Planning Time/.test(l));
  };
  const timed = async <T>(what: string, f: () => Promise<T>): Promise<T> => {
    const t0 = performance.now();
    const out = await f();
    console.log(`  ${what}: ${(performance.now() - t0).toFixed(0)} ms`);
    return out;
  };
  class Undo extends Error {}
  const trial = async (name: string, f: (tx: Db) => Promise<void>): Promise<void> => {
    console.log(`${name} (load ${await loadAverage()})`);
    try {
      await db.transaction(async (tx) => {
        await f(tx as unknown as Db);
        throw new Undo();
      });
    } catch (e) {
      if (!(e instanceof Undo)) throw e;
    }
  };
  const plain = async (tx: Db): Promise<{ name: string; def: string }[]> =>
    rows<{ name: string; def: string }>(
      tx,
      sql`SELECT ic.relname AS name, pg_get_indexdef(i.indexrelid) AS def FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid
          WHERE i.indrelid = 'student'::regclass AND NOT i.indisunique AND NOT i.indisprimary ORDER BY 1`,
    );

  const gin = async (tx: Db): Promise<{ name: string; def: string }[]> => (await plain(tx)).filter((i) => /USING gin/.test(i.def));
  const rebuilt = (which: (tx: Db) => Promise<{ name: string; def: string }[]>) => async (tx: Db) => {
    const ix = await which(tx);
    await timed(`drop ${ix.length}`, async () => {
      for (const i of ix) await tx.execute(sql`DROP INDEX ${sql.identifier(i.name)}`);
    });
    let sum = 0;
    for (let b = 0; b < batches; b++) {
      const t0 = performance.now();
      const lines = await explain(tx, `C${b}`, b * batch);
      sum += performance.now() - t0;
      if (b === 0) for (const l of lines) console.log(`    ${l}`);
    }
    console.log(`  ${batches} inserts: ${sum.toFixed(0)} ms`);
    const t1 = performance.now();
    for (const i of ix) await timed(`build ${i.name}`, () => tx.execute(sql.raw(i.def)));
    console.log(`  builds: ${(performance.now() - t1).toFixed(0)} ms; inserts + builds ${(sum + performance.now() - t1).toFixed(0)} ms`);
  };
  const modes = (args.modes ?? 'asis,notrig,plain,gin').split(',');
  for (let rep = 0; rep < Number(args.reps); rep++) {
    if (modes.includes('asis')) await trial('as is', rebuilt(async () => []));
    if (modes.includes('notrig'))
      await trial('without triggers (session_replication_role replica: no FK, no fee position)', async (tx) => {
        await tx.execute(sql`SET LOCAL session_replication_role = replica`);
        for (const l of await timed('insert', () => explain(tx, `B${rep}`, 0))) console.log(`    ${l}`);
      });
    if (modes.includes('fee'))
      await trial('the fee position trigger, statement by statement (rows inserted without triggers)', async (tx) => {
        await tx.execute(sql`SET LOCAL session_replication_role = replica`);
        await explain(tx, `F${rep}`, 0);
        await tx.execute(sql`SET LOCAL session_replication_role = origin`);
        await tx.execute(sql.raw(`CREATE TEMP TABLE new_rows ON COMMIT DROP AS SELECT * FROM student WHERE stud_adm_cd LIKE 'F${rep}/%'`));
        await tx.execute(sql.raw(`CREATE TEMP TABLE fresh_t ON COMMIT DROP AS SELECT stud_cd FROM new_rows`));
        for (const [name, text] of Object.entries(feeStatements)) {
          const t0 = performance.now();
          const plan = await rows<{ 'QUERY PLAN': string }>(tx, sql.raw(`EXPLAIN (ANALYZE, COSTS OFF) ${text}`));
          console.log(`  ${name}: ${(performance.now() - t0).toFixed(0)} ms`);
          for (const p of plan) console.log(`    ${p['QUERY PLAN']}`);
        }
      });
    if (modes.includes('pending'))
      await trial('trigram indexes kept, their pending lists merged once at the end', async (tx) => {
        await tx.execute(sql.raw(`SET LOCAL gin_pending_list_limit = '${args.pending ?? '1GB'}'`));
        if (args.workmem) await tx.execute(sql.raw(`SET LOCAL work_mem = '${args.workmem}'`));
        let sum = 0;
        for (let b = 0; b < batches; b++) {
          const t0 = performance.now();
          await explain(tx, `P${b}`, b * batch);
          sum += performance.now() - t0;
        }
        console.log(`  ${batches} inserts: ${sum.toFixed(0)} ms`);
        const t1 = performance.now();
        for (const i of await gin(tx)) await timed(`clean ${i.name}`, () => tx.execute(sql`SELECT gin_clean_pending_list(${i.name}::regclass)`));
        console.log(`  merges: ${(performance.now() - t1).toFixed(0)} ms; inserts + merges ${(sum + performance.now() - t1).toFixed(0)} ms`);
      });
    if (modes.includes('plain')) await trial('plain indexes dropped, then built again', rebuilt(plain));
    if (modes.includes('gin')) await trial('trigram indexes dropped, then built again', rebuilt(gin));
  }
} finally {
  await srv.close();
}
