import { entities } from '@campus/entities/registry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows, sql } from '../src/db/client';
import { entityTable, searchExpression, textSearchFields } from '../src/db/tables';
import { studentFinderSearchIndex } from '../src/db/views/student-detail.view';
import { feeWorld, type FeeWorld } from './fee-fixture';
import { backends, call, startTestServer, type TestServer } from './test-server';

/**
 * The fee counter's student finder (/api/student/detail/): what a clerk can type to find a child, and that the
 * database keeps the index its search expression needs (issue 10: an admission number in <= 10 ms).
 */

const studentDetail = entities.find((e) => e.name === 'student_detail')!;

describe.each(backends)("the counter's student finder on %s", (backend) => {
  let srv: TestServer;
  let w: FeeWorld;
  beforeAll(async () => {
    srv = await startTestServer(backend);
    w = await feeWorld(srv);
  });
  afterAll(async () => srv?.close());

  const found = async (q: string): Promise<number[]> => {
    const res = await call(srv.app, w.as(w.admin, 'fee', 'quick_fee_collection'), 'GET', `/api/student/detail/?q=${encodeURIComponent(q)}&size=20`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ rows: { stud_cd: number }[] }>().rows.map((r) => r.stud_cd);
  };

  it("finds a child by admission number from its start, by the child's or the father's name and by the phone", async () => {
    const adm = `SMS/${w.tag}/00431`;
    const child = await w.student(w.secA, `Asma ${w.tag}`, w.thisYear, adm, { stud_fthr_nm: `Ashraf Qadir${w.tag}`, stud_ph: '94431 27650' });
    const cousin = await w.student(w.secA, `Imran ${w.tag}`, w.thisYear, `${adm}9`);
    // The whole number, and every number it starts (the cousin's is one digit longer).
    expect((await found(adm)).sort()).toEqual([child, cousin].sort());
    expect(await found(adm.toLowerCase())).toContain(child);
    expect(await found(`${adm}9`)).toEqual([cousin]);
    // An admission number is matched from its start: its middle is not a way to find a child.
    expect(await found(`${w.tag}/00431`)).toEqual([]);
    expect(await found(`Qadir${w.tag}`)).toEqual([child]);
    expect(await found(`asma ${w.tag}`.toLowerCase())).toEqual([child]);
    expect(await found('9443127650')).toContain(child);
  });

  it('is narrowed by class and section through the filters, not by typing their names', async () => {
    const a = await w.student(w.secA, `Bala ${w.tag}`);
    const b = await w.student(w.secB, `Bala ${w.tag}`);
    const counter = w.as(w.admin, 'fee', 'quick_fee_collection');
    const inB = await call(srv.app, counter, 'GET', `/api/student/detail/?q=${encodeURIComponent(`Bala ${w.tag}`)}&f_sec_cd=${w.secB}`);
    expect(inB.json<{ rows: { stud_cd: number }[] }>().rows.map((r) => r.stud_cd)).toEqual([b]);
    expect(await found(`Bala ${w.tag}`)).toEqual(expect.arrayContaining([a, b]));
  });

  it("has the index of the engine's own search expression for the finder on the student table", async () => {
    const db = srv.database.db;
    const student = entityTable('student').cols;
    const expr = searchExpression(textSearchFields(studentDetail).map((n) => student[n]));
    expect(textSearchFields(studentDetail)).toEqual(['stud_fs_nm', 'stud_fthr_nm', 'stud_ph']);
    // The same expression as the engine writes into the finder's query, indexed under another name: PostgreSQL
    // prints both definitions alike only if they are the same index.
    await db.execute(sql`CREATE INDEX finder_probe_trgm ON student USING gin ((${expr}) gin_trgm_ops)`);
    try {
      const defs = await rows<{ name: string; def: string }>(
        db,
        sql`SELECT indexname AS name, indexdef AS def FROM pg_indexes WHERE indexname IN (${studentFinderSearchIndex.name}, 'finder_probe_trgm')`,
      );
      const def = (name: string) => defs.find((d) => d.name === name)?.def.replace(name, 'IDX');
      expect(def(studentFinderSearchIndex.name)).toBeDefined();
      expect(def(studentFinderSearchIndex.name)).toBe(def('finder_probe_trgm'));
    } finally {
      await db.execute(sql`DROP INDEX finder_probe_trgm`);
    }
  });
});
