import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows, sql } from '../src/db/client';
import { feePositionDrift, rebuildFeePositions } from '../src/db/rebuild-fee-positions';
import { feeWorld, type FeeWorld } from './fee-fixture';
import { backends, call, startTestServer, type Session, type TestServer } from './test-server';

type Row = Record<string, unknown>;

/** One write through the API; numbers pick among what exists when the step runs. */
type Step =
  | { op: 'bill'; who: number; fees: number[]; part: number }
  | { op: 'cancel'; which: number }
  | { op: 'undo'; which: number }
  | { op: 'discount'; who: number; fee: number; amount: number }
  | { op: 'fee'; fee: number; amount: number }
  | { op: 'due'; past: boolean }
  | { op: 'admit' }
  | { op: 'promote'; who: number }
  | { op: 'unpromote'; which: number }
  | { op: 'move'; who: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ op: fc.constant('bill' as const), who: fc.nat(), fees: fc.uniqueArray(fc.nat({ max: 2 }), { minLength: 1, maxLength: 3 }), part: fc.integer({ min: 1, max: 4 }) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('cancel' as const), which: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('undo' as const), which: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('discount' as const), who: fc.nat(), fee: fc.nat({ max: 2 }), amount: fc.integer({ min: 0, max: 9000 }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('fee' as const), fee: fc.nat({ max: 2 }), amount: fc.integer({ min: 100, max: 9000 }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('due' as const), past: fc.boolean() }) },
  { weight: 1, arbitrary: fc.constant({ op: 'admit' as const }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('promote' as const), who: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('unpromote' as const), which: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('move' as const), who: fc.nat() }) },
);

describe.each(backends)('stored fee positions on %s', (backend) => {
  let srv: TestServer;
  let w: FeeWorld;
  let counter: Session;
  let office: Session;
  let fees: number[];
  let otherCls: number;
  let otherSec: number;
  const pick = <T>(list: T[], n: number): T | undefined => (list.length ? list[n % list.length] : undefined);

  beforeAll(async () => {
    srv = await startTestServer(backend);
    w = await feeWorld(srv);
    counter = w.as(w.admin, 'fee', 'quick_fee_collection');
    office = w.as(w.admin, 'fee', 'fee_collected');
    fees = [w.tuition1, w.books1, w.tuition2];
    // A second class with a fee of its own, to move children between classes.
    otherCls = await w.created(w.as(w.admin, 'class_section', 'class'), '/api/class/', { cls_nm: `Other ${w.next()}` }, 'cls_cd');
    otherSec = await w.created(w.as(w.admin, 'class_section', 'section'), '/api/section/', { sec_nm: 'A', cls_cd: otherCls }, 'sec_cd');
    const typ = await w.created(w.as(w.admin, 'fee', 'fee_type'), '/api/fee_type/', { feetyp_nm: `Lab ${w.tag}` }, 'feetyp_cd');
    await w.created(w.as(w.admin, 'fee', 'fee'), '/api/fee/', { fee_grp_cd: w.term1, feetyp_cd: typ, cls_cd: otherCls, fee_amt: '777.00', fee_amt_aftr_prmtn: '555.00' }, 'fee_cd');
    await w.lastYearFee();
  });
  afterAll(async () => srv?.close());

  const students = async (acdmCd: number): Promise<number[]> =>
    (await rows<{ stud_cd: number }>(srv.database.db, sql`SELECT stud_cd FROM student WHERE acdm_cd = ${acdmCd} AND stud_adm_cd LIKE ${`%${w.tag}%`} ORDER BY stud_cd`)).map((r) => Number(r.stud_cd));
  const bills = async (sts: string): Promise<number[]> =>
    (await rows<{ fee_coll_cd: number }>(srv.database.db, sql`SELECT b.fee_coll_cd FROM fee_collection_bill b JOIN student s ON s.stud_cd = b.stud_cd WHERE b.fee_coll_sts = ${sts} AND s.stud_adm_cd LIKE ${`%${w.tag}%`} ORDER BY 1`)).map((r) => Number(r.fee_coll_cd));
  const promotions = async (): Promise<number[]> =>
    (await rows<{ prmtn_cd: number }>(srv.database.db, sql`SELECT prmtn_cd FROM promotion WHERE prmtn_sts <> 'Undone' ORDER BY 1`)).map((r) => Number(r.prmtn_cd));

  /** Runs one step; a refusal (a 4xx the rules give, e.g. undo after the fee was paid again) is a valid outcome too. */
  async function run(s: Step): Promise<number | undefined> {
    const app = srv.app;
    switch (s.op) {
      case 'bill': {
        const stud = pick(await students(w.thisYear), s.who);
        if (stud === undefined) return;
        const dues = (await call(app, counter, 'GET', `/api/fee_collection/student/${stud}/dues`)).json<{ lines: Row[] }>().lines;
        const lines = dues
          .filter((l) => s.fees.some((f) => pick(fees, f) === l.fee_cd) && Number(l.due) > 0)
          .map((l) => ({ fee_cd: l.fee_cd, amount: (Math.max(1, Math.round((Number(l.due) * 100) / s.part)) / 100).toFixed(2) }));
        if (!lines.length) return;
        const res = await call(app, counter, 'POST', '/api/fee_collection/collect', { stud_cd: stud, tnd_typ_cd: w.cash, idempotency_key: randomUUID(), lines });
        expect(res.statusCode, res.body).toBe(201);
        return res.statusCode;
      }
      case 'cancel': {
        const bill = pick(await bills('Active'), s.which);
        if (bill === undefined) return;
        return (await call(app, office, 'POST', '/api/fee/CollectedFee/cancel', { fee_coll_cd: bill, reason: 'Property test' })).statusCode;
      }
      case 'undo': {
        const bill = pick(await bills('Cancelled'), s.which);
        if (bill === undefined) return;
        return (await call(app, office, 'POST', '/api/fee/CollectedFee/undo-cancel', { fee_coll_cd: bill })).statusCode;
      }
      case 'discount': {
        const stud = pick(await students(w.thisYear), s.who);
        if (stud === undefined) return;
        const page = w.as(w.admin, 'student', 'discount');
        const feeCd = pick(fees, s.fee)!;
        const amount = (s.amount / 2).toFixed(2);
        const [have] = await rows<{ disc_cd: number; row_ver: number }>(srv.database.db, sql`SELECT disc_cd, row_ver FROM student_discount WHERE stud_cd = ${stud} AND fee_cd = ${feeCd}`);
        const res = have
          ? await call(app, page, 'PUT', `/api/discount/${have.disc_cd}`, { disc_amt: amount, row_ver: have.row_ver })
          : await call(app, page, 'POST', '/api/discount/', { stud_cd: stud, fee_cd: feeCd, disc_amt: amount });
        return res.statusCode;
      }
      case 'fee': {
        const page = w.as(w.admin, 'fee', 'fee');
        const feeCd = pick(fees, s.fee)!;
        const row = (await call(app, page, 'GET', `/api/fee/${feeCd}`)).json<Row>();
        return (await call(app, page, 'PUT', `/api/fee/${feeCd}`, { fee_amt: (s.amount + 0.5).toFixed(2), fee_amt_aftr_prmtn: s.amount.toFixed(2), row_ver: row.row_ver })).statusCode;
      }
      case 'due': {
        // Term 2's due date moved into the past (or back): what is overdue changes without a fee line written.
        const page = w.as(w.admin, 'fee', 'fee_group');
        const row = (await call(app, page, 'GET', `/api/fee_group/${w.term2}`)).json<Row>();
        return (await call(app, page, 'PUT', `/api/fee_group/${w.term2}`, { fee_grp_fee_exp_dt: s.past ? '2020-07-15' : '2099-12-31', row_ver: row.row_ver })).statusCode;
      }
      case 'admit':
        await w.student(w.secA, undefined, w.lastYear);
        await w.student(w.secB);
        return 201;
      case 'promote': {
        const have = new Set(await students(w.thisYear));
        const stud = pick(await students(w.lastYear), s.who);
        if (stud === undefined) return;
        const [{ adm }] = await rows<{ adm: string }>(srv.database.db, sql`SELECT stud_adm_cd AS adm FROM student WHERE stud_cd = ${stud}`);
        const [dup] = await rows(srv.database.db, sql`SELECT 1 FROM student WHERE acdm_cd = ${w.thisYear} AND lower(stud_adm_cd) = lower(${adm})`);
        if (dup || have.size > 40) return;
        const res = await call(app, w.as(w.admin, 'student', 'promotion'), 'POST', '/api/promotion/', {
          frm_acdm_cd: w.lastYear,
          to_acdm_cd: w.thisYear,
          moves: [{ frm_sec_cd: w.secA, to_sec_cd: w.secB, stud_cds: [stud] }],
        });
        expect(res.statusCode, res.body).toBeLessThan(300);
        return res.statusCode;
      }
      case 'unpromote': {
        const p = pick(await promotions(), s.which);
        if (p === undefined) return;
        return (await call(app, w.as(w.admin, 'student', 'promotion'), 'POST', `/api/promotion/${p}/undo`, {})).statusCode;
      }
      case 'move': {
        // Into the other class and back: a different fee mapping for the same child.
        const stud = pick(await students(w.thisYear), s.who);
        if (stud === undefined) return;
        const page = w.as(w.admin, 'student', 'profile');
        const row = (await call(app, page, 'GET', `/api/student/${stud}`)).json<Row>();
        const there = row.cls_cd === otherCls;
        return (await call(app, page, 'PUT', `/api/student/${stud}`, { cls_cd: there ? w.cls : otherCls, sec_cd: there ? w.secA : otherSec, row_ver: row.row_ver })).statusCode;
      }
    }
  }

  it('after any sequence of bills, cancels, undos, discounts, fee and due date changes, admissions, promotions and class moves, every stored position equals a full recomputation', async () => {
    const db = srv.database.db;
    await w.student(w.secA);
    await w.student(w.secA, undefined, w.lastYear);
    const done = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => {
        for (const s of steps) {
          const status = await run(s);
          if (status !== undefined && status < 300) done.set(s.op, (done.get(s.op) ?? 0) + 1);
          expect(status === undefined || status < 500, `${JSON.stringify(s)} answered ${status}`).toBe(true);
          expect(await feePositionDrift(db), `after ${JSON.stringify(s)}`).toEqual([]);
        }
      }),
      { numRuns: 12 },
    );
    // The runs did reach the interesting cases, not only no-ops.
    expect(done.get('bill') ?? 0).toBeGreaterThan(0);
    expect((done.get('cancel') ?? 0) + (done.get('discount') ?? 0) + (done.get('fee') ?? 0) + (done.get('promote') ?? 0)).toBeGreaterThan(0);
  });

  it('finds a hand-edited position and the rebuild puts every row back', async () => {
    const db = srv.database.db;
    const stud = await w.student(w.secA);
    await db.execute(sql`UPDATE fee_position SET bal_amt = bal_amt + 1, first_due_dt = NULL WHERE stud_cd = ${stud}`);
    await db.execute(sql`DELETE FROM fee_position_term WHERE stud_cd = ${stud}`);
    expect(await feePositionDrift(db)).toEqual([stud]);
    const n = await rebuildFeePositions(db);
    expect(await feePositionDrift(db)).toEqual([]);
    const [{ total }] = await rows<{ total: number }>(db, sql`SELECT count(*)::int AS total FROM student`);
    expect(n.students).toBe(total);
    const page = (await call(srv.app, w.as(w.admin, 'fee', 'fee_management'), 'GET', `/api/fee_collection/${stud}`)).json<Row>();
    const [calc] = await rows<Row>(db, sql`SELECT needtopay::text, bal_amt::text FROM fee_position_calc_v WHERE stud_cd = ${stud}`);
    expect(page).toMatchObject({ needtopay: calc.needtopay, balAmt: calc.bal_amt, fee_dflt_since: '2020-06-30' });
  });
});
