import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemo } from '../src/db/demo/demo-data';
import { migrate } from '../src/db/migrate';
import { pgliteExtensions, type Db } from '../src/db/client';
import { seedIfEmpty } from '../src/db/seed';

/**
 * The demo's bulk load (demo-data.ts, bulkLoad) writes with foreign-key checks and fee-position triggers off
 * and computes the positions once afterwards. It must leave exactly what writing row by row leaves.
 */
const TODAY = new Date('2026-11-20T10:00:00Z');

async function demoDatabase(rowByRow: boolean): Promise<PGlite> {
  const pg = await PGlite.create('memory://', { extensions: pgliteExtensions });
  const db = drizzle(pg) as unknown as Db;
  await migrate(db);
  await seedIfEmpty(db, 'Test-Admin-Pass-1');
  const demo = await generateDemo(db, { password: 'Demo-Pass-1', today: TODAY, rowByRow });
  expect(demo.created).toBe(true);
  return pg;
}

/**
 * Every table's rows as text, sorted. Left out: when a row was written (now() differs between the two
 * databases) and password hashes (argon2 salts them at random).
 */
async function contents(pg: PGlite): Promise<Map<string, string[]>> {
  const tables = (
    await pg.query<{ t: string; skip: string[] | null }>(`
      SELECT c.relname AS t,
             array_agg(a.attname::text ORDER BY a.attnum) FILTER (
               WHERE a.atttypid IN ('timestamp'::regtype, 'timestamptz'::regtype) OR a.attname LIKE '%pwd%') AS skip
      FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
      WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r'
      GROUP BY c.relname ORDER BY c.relname`)
  ).rows;
  const out = new Map<string, string[]>();
  for (const { t, skip } of tables) {
    const drop = (skip ?? []).map((s) => `'${s}'`).join(', ');
    const r = await pg.query<{ x: string }>(`SELECT (to_jsonb(t) - ARRAY[${drop}]::text[])::text AS x FROM "${t}" t ORDER BY 1`);
    out.set(t, r.rows.map((x) => x.x));
  }
  return out;
}

/** Rows whose foreign key names no row: one anti-join per constraint of the schema. */
async function orphans(pg: PGlite): Promise<string[]> {
  const fks = (
    await pg.query<{ name: string; child: string; parent: string; cols: string[]; refs: string[] }>(`
      SELECT con.conname AS name, quote_ident(ch.relname) AS child, quote_ident(pa.relname) AS parent,
             ARRAY(SELECT quote_ident(attname) FROM unnest(con.conkey) WITH ORDINALITY k(n, i)
                   JOIN pg_attribute ON attrelid = con.conrelid AND attnum = k.n ORDER BY k.i) AS cols,
             ARRAY(SELECT quote_ident(attname) FROM unnest(con.confkey) WITH ORDINALITY k(n, i)
                   JOIN pg_attribute ON attrelid = con.confrelid AND attnum = k.n ORDER BY k.i) AS refs
      FROM pg_constraint con JOIN pg_class ch ON ch.oid = con.conrelid JOIN pg_class pa ON pa.oid = con.confrelid
      WHERE con.contype = 'f' AND con.connamespace = 'public'::regnamespace ORDER BY 1`)
  ).rows;
  expect(fks.length).toBeGreaterThan(100);
  const bad: string[] = [];
  for (const fk of fks) {
    const notNull = fk.cols.map((c) => `c.${c} IS NOT NULL`).join(' AND ');
    const match = fk.cols.map((c, i) => `p.${fk.refs[i]} = c.${c}`).join(' AND ');
    const r = await pg.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${fk.child} c WHERE ${notNull} AND NOT EXISTS (SELECT 1 FROM ${fk.parent} p WHERE ${match})`,
    );
    if (r.rows[0].n > 0) bad.push(`${fk.name}: ${r.rows[0].n}`);
  }
  return bad;
}

describe('the demo written in bulk', () => {
  let bulk: PGlite;
  let rowByRow: PGlite;
  beforeAll(async () => {
    bulk = await demoDatabase(false);
    rowByRow = await demoDatabase(true);
  });
  afterAll(async () => {
    await bulk?.close();
    await rowByRow?.close();
  });

  it('leaves every table as writing row by row with every check and trigger does, fee positions included', async () => {
    const want = await contents(rowByRow);
    const got = await contents(bulk);
    expect([...got.keys()]).toEqual([...want.keys()]);
    const differ = [...want.keys()].filter((t) => JSON.stringify(got.get(t)) !== JSON.stringify(want.get(t)));
    expect(differ).toEqual([]);
    expect(want.get('fee_position')!.length).toBeGreaterThan(800);
    expect(want.get('fee_position_term')!.length).toBeGreaterThan(100);
    expect(want.get('student_attendance')!.length).toBeGreaterThan(10_000);
  });

  it('leaves every index as the migrations made it (the plain indexes of the large tables are built after their rows)', async () => {
    const indexes = async (pg: PGlite) =>
      (await pg.query<{ x: string }>(`SELECT indexdef AS x FROM pg_indexes WHERE schemaname = 'public' ORDER BY indexname, indexdef`)).rows.map((r) => r.x);
    const want = await indexes(rowByRow);
    expect(want.some((d) => d.startsWith('CREATE INDEX student_attendance_search_trgm'))).toBe(true);
    expect(await indexes(bulk)).toEqual(want);
  });

  it('breaks no foreign key, though it did not check them row by row', async () => {
    expect(await orphans(bulk)).toEqual([]);
  });

  it('leaves the ordinary checks on for what the server writes next', async () => {
    const r = await bulk.query<{ role: string }>(`SELECT current_setting('session_replication_role') AS role`);
    expect(r.rows[0].role).toBe('origin');
    const noSuchStudent = `INSERT INTO student_attendance (inst_cd, acdm_cd, stud_cd, stud_attn_dt, cls_cd, sec_cd, stud_attn_sts)
      SELECT inst_cd, acdm_cd, 987654, stud_attn_dt, cls_cd, sec_cd, stud_attn_sts FROM student_attendance LIMIT 1`;
    await expect(bulk.query(noSuchStudent)).rejects.toThrow(/foreign key/);
  });
});
