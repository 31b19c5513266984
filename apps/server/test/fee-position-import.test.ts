import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows, sql } from '../src/db/client';
import { feePositionDrift } from '../src/db/rebuild-fee-positions';
import { feeWorld, type FeeWorld } from './fee-fixture';
import { backends, call, multipartFile, startTestServer, type TestServer } from './test-server';

type Row = Record<string, unknown>;

/**
 * New students take a set-wise path to their fee position (migration 0026, fee-position.ddl.ts onStudentBody):
 * straight from their class's fee mapping, unless another row of the institute has their admission number
 * (promoted, or making another row promoted), which goes through the general refresh. Both must leave exactly
 * what the full recomputation (db:rebuild-fee-positions -- --check, feePositionDrift) gives.
 */
describe.each(backends)('fee positions of imported students on %s', (backend) => {
  let srv: TestServer;
  let w: FeeWorld;
  let bareCls: number;
  let bareSec: number;
  let bareNm: string;

  beforeAll(async () => {
    srv = await startTestServer(backend);
    w = await feeWorld(srv);
    // A class with no fee mapping at all: its new students owe nothing and have no per-term rows.
    bareNm = `Bare ${w.tag}`;
    bareCls = await w.created(w.as(w.admin, 'class_section', 'class'), '/api/class/', { cls_nm: bareNm }, 'cls_cd');
    bareSec = await w.created(w.as(w.admin, 'class_section', 'section'), '/api/section/', { sec_nm: 'A', cls_cd: bareCls }, 'sec_cd');
    await w.lastYearFee();
  });
  afterAll(async () => srv?.close());

  const position = async (adm: string, acdmCd: number): Promise<Row> => {
    const [p] = await rows<Row>(
      srv.database.db,
      sql`SELECT p.needtopay::text, p.discount::text, p.fee_coll_amt::text, p.bal_amt::text, p.first_due_dt::text, p.last_bill_no,
                 (SELECT coalesce(json_agg(json_build_object('due', t.due_dt::text, 'amt', t.due_amt::text) ORDER BY t.due_dt), '[]'::json)
                    FROM fee_position_term t WHERE t.stud_cd = p.stud_cd) AS terms
            FROM student s JOIN fee_position p ON p.stud_cd = s.stud_cd
           WHERE s.acdm_cd = ${acdmCd} AND s.stud_adm_cd = ${adm}`,
    );
    return p;
  };

  const importCsv = async (lines: string[], acdmCd: number) => {
    const m = multipartFile('students.csv', ['Student Name,Admission No,Class,Section', ...lines].join('\n'));
    return call(srv.app, w.as(w.admin, 'student', 'profile', acdmCd), 'POST', '/api/student/import', m.payload, { headers: m.headers });
  };

  it('a write of hundreds of students into a table its statistics call empty analyzes it first, so the admission-number checks probe their index', async () => {
    // A first import into a new school: 4,000 students took 38 s on PGlite, planned as if the table were empty.
    const db = srv.database.db;
    const [inst] = await rows<{ inst_cd: number }>(db, sql`SELECT inst_cd FROM academic WHERE acdm_cd = ${w.thisYear}`);
    await db.execute(sql`ANALYZE student`);
    const [before] = await rows<{ n: number }>(db, sql`SELECT reltuples::int AS n FROM pg_class WHERE oid = 'student'::regclass`);
    expect(before.n).toBeLessThan(50);
    await db.transaction(async (tx) => {
      await tx.execute(sql`INSERT INTO student (stud_fs_nm, stud_adm_cd, cls_cd, sec_cd, inst_cd, acdm_cd)
        SELECT 'Stats ' || g, ${`ST${w.tag}/`} || g, ${bareCls}, ${bareSec}, ${inst.inst_cd}, ${w.thisYear} FROM generate_series(1, 1000) g`);
      const [after] = await rows<{ n: number }>(tx, sql`SELECT reltuples::int AS n FROM pg_class WHERE oid = 'student'::regclass`);
      expect(after.n).toBeGreaterThanOrEqual(1000);
      const [pos] = await rows<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM fee_position p JOIN student s ON s.stud_cd = p.stud_cd WHERE s.stud_adm_cd LIKE ${`ST${w.tag}/%`}`);
      expect(pos.n).toBe(1000);
      tx.rollback();
    }).catch((err: unknown) => {
      if (!(err instanceof Error && /rollback/i.test(err.message))) throw err;
    });
  });

  it('imports students into a class with a fee mapping and one without, each with its dues per term, promoted ones at the old-student amount', async () => {
    // Last year's row of P: this year's P is promoted (7,000 tuition instead of 8,000), so not the new path.
    const promotedAdm = `P${w.tag}`;
    await w.student(w.secA, 'Last year P', w.lastYear, promotedAdm);
    // This year's Q already exists: importing Q into last year makes this year's Q promoted (another row changes).
    const laterAdm = `Q${w.tag}`;
    const laterQ = await w.student(w.secA, 'This year Q', w.thisYear, laterAdm);
    expect(await position(laterAdm, w.thisYear)).toMatchObject({ needtopay: '17234.50' });

    const res = await importCsv(
      [
        ...Array.from({ length: 150 }, (_, i) => `New ${i},N${w.tag}-${i},${w.clsNm},${i % 2 ? 'A' : 'B'}`),
        ...Array.from({ length: 80 }, (_, i) => `Bare ${i},B${w.tag}-${i},${bareNm},A`),
        // Upper/lower case differ: admission numbers match case-insensitively.
        `Promoted,${promotedAdm.toLowerCase()},${w.clsNm},A`,
      ],
      w.thisYear,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Row>()).toMatchObject({ ok: true, imported: 231 });

    // Term 1 (due 2020-06-30): tuition 8,000 + books 1,234.50; term 2 (due 2099-12-31): tuition 8,000.
    expect(await position(`N${w.tag}-7`, w.thisYear)).toEqual({
      needtopay: '17234.50', discount: '0.00', fee_coll_amt: '0.00', bal_amt: '17234.50', first_due_dt: '2020-06-30', last_bill_no: null,
      terms: [{ due: '2020-06-30', amt: '9234.50' }, { due: '2099-12-31', amt: '8000.00' }],
    });
    expect(await position(`B${w.tag}-3`, w.thisYear)).toEqual({
      needtopay: '0.00', discount: '0.00', fee_coll_amt: '0.00', bal_amt: '0.00', first_due_dt: null, last_bill_no: null, terms: [],
    });
    expect(await position(promotedAdm.toLowerCase(), w.thisYear)).toMatchObject({
      needtopay: '15234.50', bal_amt: '15234.50', terms: [{ due: '2020-06-30', amt: '8234.50' }, { due: '2099-12-31', amt: '7000.00' }],
    });

    const past = await importCsv([`Q last year,${laterAdm},${w.clsNm},A`], w.lastYear);
    expect(past.statusCode, past.body).toBe(200);
    // Last year's fee mapping is one 5,000 term; this year's Q is now promoted.
    expect(await position(laterAdm, w.lastYear)).toMatchObject({ needtopay: '5000.00', bal_amt: '5000.00', first_due_dt: '2019-06-30' });
    expect(await position(laterAdm, w.thisYear)).toMatchObject({ needtopay: '15234.50' });
    const page = (await call(srv.app, w.as(w.admin, 'fee', 'fee_management'), 'GET', `/api/fee_collection/${laterQ}`)).json<Row>();
    expect(page).toMatchObject({ needtopay: '15234.50', balAmt: '15234.50', fee_dflt_since: '2020-06-30' });

    expect(await feePositionDrift(srv.database.db)).toEqual([]);
  });

  it('any set of student rows written in one statement (new, promoted, making others promoted, with or without fees) equals the full recomputation', async () => {
    const db = srv.database.db;
    const classes = [
      { cls: w.cls, sec: w.secA },
      { cls: bareCls, sec: bareSec },
    ];
    const pool = Array.from({ length: 6 }, (_, i) => `R${w.tag}x${i}`);
    let fresh = 0;
    let known = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ adm: fc.nat({ max: pool.length - 1 }), upper: fc.boolean(), last: fc.boolean(), cls: fc.nat({ max: 1 }) }), { minLength: 1, maxLength: 10 }),
        async (picks) => {
          const have = await rows<{ k: string }>(db, sql`SELECT acdm_cd || '/' || lower(stud_adm_cd) AS k FROM student WHERE stud_adm_cd ILIKE ${`R${w.tag}x%`}`);
          const taken = new Set(have.map((r) => r.k));
          const inst = new Set(have.map((r) => r.k.split('/')[1]));
          const batch: { adm: string; acdm: number; cls: number; sec: number }[] = [];
          for (const p of picks) {
            const acdm = p.last ? w.lastYear : w.thisYear;
            const adm = p.upper ? pool[p.adm].toUpperCase() : pool[p.adm].toLowerCase();
            if (taken.has(`${acdm}/${adm.toLowerCase()}`)) continue;
            taken.add(`${acdm}/${adm.toLowerCase()}`);
            batch.push({ adm, acdm, ...classes[p.cls] });
          }
          if (!batch.length) return;
          for (const b of batch) {
            if (inst.has(b.adm.toLowerCase()) || batch.some((o) => o !== b && o.adm.toLowerCase() === b.adm.toLowerCase())) known++;
            else fresh++;
          }
          const values = sql.join(
            batch.map((b) => sql`(${`Prop ${b.adm}`}, ${b.adm}, ${b.cls}::int, ${b.sec}::int, ${w.admin.instCd}::int, ${b.acdm}::int)`),
            sql`, `,
          );
          await db.execute(sql`INSERT INTO student (stud_fs_nm, stud_adm_cd, cls_cd, sec_cd, inst_cd, acdm_cd) VALUES ${values}`);
          expect(await feePositionDrift(db), JSON.stringify(batch)).toEqual([]);
        },
      ),
      { numRuns: 15 },
    );
    // Both paths were taken.
    expect(fresh).toBeGreaterThan(0);
    expect(known).toBeGreaterThan(0);
  });
});
