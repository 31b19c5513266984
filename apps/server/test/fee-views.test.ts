import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { feeWorld, type FeeWorld } from './fee-fixture';
import { backends, call, startTestServer, type TestServer } from './test-server';

type Row = Record<string, unknown>;

/**
 * The fee office's summaries (fee management, the counter's student finder, the defaulters report, earlier
 * years' dues) are views over the mapping, discounts and bills: they must agree with the counter to the
 * paisa, follow a payment or a cancellation at once, and keep a teacher to his own sections.
 */
describe.each(backends)('fee summaries on %s', (backend) => {
  let srv: TestServer;
  let w: FeeWorld;

  beforeAll(async () => {
    srv = await startTestServer(backend);
    w = await feeWorld(srv);
  });
  afterAll(async () => srv?.close());

  const rowOf = async (module: string, page: string, api: string, key: string, id: number, acdmCd?: number): Promise<Row | undefined> => {
    const res = await call(srv.app, w.as(w.admin, module, page, acdmCd), 'GET', `${api}?q=${w.tag}&size=500`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ rows: Row[] }>().rows.find((r) => r[key] === id);
  };
  const collect = async (stud: number, lines: { fee_cd: number; amount: string }[], acdmCd = w.thisYear) => {
    const res = await call(srv.app, w.as(w.admin, 'fee', 'quick_fee_collection', acdmCd), 'POST', '/api/fee_collection/collect', {
      stud_cd: stud,
      tnd_typ_cd: w.cash,
      idempotency_key: randomUUID(),
      lines,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ bill: Row }>().bill;
  };

  it('fee management: need to pay, discount, paid, overdue and balance agree with the counter, exactly', async () => {
    const stud = await w.student(w.secA, `Kavya ${w.next()}`);
    const disc = await call(srv.app, w.as(w.admin, 'student', 'discount'), 'POST', '/api/discount/', { stud_cd: stud, fee_cd: w.tuition1, disc_pct: 10 });
    expect(disc.statusCode, disc.body).toBe(201);
    const bill = await collect(stud, [{ fee_cd: w.tuition1, amount: '2500.25' }, { fee_cd: w.books1, amount: '1234.50' }]);
    const row = await rowOf('fee', 'fee_management', '/api/fee_collection/', 'stud_cd', stud);
    // 8000 + 1234.50 + 8000; 10 % of term 1 tuition; term 1 (past due) has 8000 - 800 - 2500.25 left.
    expect(row).toMatchObject({
      needtopay: '17234.50',
      discount: '800.00',
      fee_coll_amt: '3734.75',
      pendingAmt: '4699.75',
      balAmt: '12699.75',
      fee_coll_cd: bill.fee_coll_bill_no,
      fee_dflt_since: '2020-06-30',
    });
    const dues = await call(srv.app, w.as(w.admin, 'fee', 'quick_fee_collection'), 'GET', `/api/fee_collection/student/${stud}/dues`);
    const counterDue = dues
      .json<{ lines: { kind: string; due: string }[] }>()
      .lines.filter((l) => l.kind === 'Fee')
      .reduce((a, l) => a + Math.round(Number(l.due) * 100), 0);
    expect(Math.round(Number(row?.balAmt) * 100)).toBe(counterDue);
  });

  it("the counter's student finder and the defaulters report follow a payment and a cancellation at once", async () => {
    const name = `Rahul ${w.next()}`;
    const stud = await w.student(w.secA, name);
    const finder = await rowOf('fee', 'quick_fee_collection', '/api/student/detail/', 'stud_cd', stud);
    expect(finder).toMatchObject({ stud_fs_nm: name, pendingAmt: '9234.50', balAmt: '17234.50', fee_coll_cd: null });
    expect(await rowOf('reports', 'fee_report', '/api/feedefaultreport/', 'stud_cd', stud)).toMatchObject({ pendingAmt: '9234.50', fee_dflt_since: '2020-06-30' });
    const bill = await collect(stud, [{ fee_cd: w.tuition1, amount: '8000.00' }, { fee_cd: w.books1, amount: '1234.50' }]);
    // Term 1 cleared: no longer a defaulter, though term 2 is still to pay.
    expect(await rowOf('reports', 'fee_report', '/api/feedefaultreport/', 'stud_cd', stud)).toBeUndefined();
    expect(await rowOf('fee', 'quick_fee_collection', '/api/student/detail/', 'stud_cd', stud)).toMatchObject({ pendingAmt: '0.00', balAmt: '8000.00' });
    const cancel = await call(srv.app, w.as(w.admin, 'fee', 'fee_collected'), 'POST', '/api/fee/CollectedFee/cancel', { fee_coll_cd: bill.fee_coll_cd, reason: 'Cheque bounced' });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(await rowOf('reports', 'fee_report', '/api/feedefaultreport/', 'stud_cd', stud)).toMatchObject({ pendingAmt: '9234.50' });
  });

  it("previous years' dues: last year's balance shows on this year's list, and a payment booked in last year clears it", async () => {
    const grp = await w.created(w.as(w.admin, 'fee', 'fee_group', w.lastYear), '/api/fee_group/', {
      fee_grp_nm: `Old Term ${w.tag}`,
      fee_grp_fee_str_dt: '2019-06-01',
      fee_grp_fee_exp_dt: '2019-06-30',
    }, 'fee_grp_cd');
    const typ = await w.created(w.as(w.admin, 'fee', 'fee_type'), '/api/fee_type/', { feetyp_nm: `Old Tuition ${w.tag}` }, 'feetyp_cd');
    const oldFee = await w.created(w.as(w.admin, 'fee', 'fee', w.lastYear), '/api/fee/', { fee_grp_cd: grp, feetyp_cd: typ, cls_cd: w.cls, fee_amt: '5000.00', fee_amt_aftr_prmtn: '4500.00' }, 'fee_cd');
    const adm = `OLD${w.next()}`;
    const last = await w.student(w.secA, `Meena ${w.next()}`, w.lastYear, adm);
    await w.student(w.secB, `Meena ${w.next()}`, w.thisYear, adm);
    const api = '/api/academic_fee_collect/';
    expect(await rowOf('fee', 'academic_fee_collect', api, 'acdm_fee_stud_cd', last)).toMatchObject({ needtopay: '5000.00', fee_coll_amt: '0.00', balAmt: '5000.00', acdm_fee_acdm_cd: w.lastYear });
    await collect(last, [{ fee_cd: oldFee, amount: '1000.00' }], w.lastYear);
    expect(await rowOf('fee', 'academic_fee_collect', api, 'acdm_fee_stud_cd', last)).toMatchObject({ fee_coll_amt: '1000.00', balAmt: '4000.00' });
    await collect(last, [{ fee_cd: oldFee, amount: '4000.00' }], w.lastYear);
    expect(await rowOf('fee', 'academic_fee_collect', api, 'acdm_fee_stud_cd', last)).toBeUndefined();
  });

  it("the dashboard's fee card sums today's active bills, and only the fee office sees it", async () => {
    const stud = await w.student(w.secA, `Dash ${w.next()}`);
    await collect(stud, [{ fee_cd: w.books1, amount: '1234.50' }]);
    const bills = (await call(srv.app, w.as(w.admin, 'fee', 'fee_collected'), 'GET', '/api/fee/CollectedFee?size=500')).json<{ rows: Row[] }>().rows;
    const today = bills.find((b) => b.stud_cd === stud)!.fee_coll_crt_dt;
    const paise = bills.filter((b) => b.fee_coll_sts === 'Active' && b.fee_coll_crt_dt === today).reduce((a, b) => a + Math.round(Number(b.fee_coll_amt) * 100), 0);
    const dash = (await call(srv.app, w.admin, 'GET', '/api/dashboard/')).json<Row>();
    expect(Math.round(Number(dash.feesCollected) * 100)).toBe(paise);
    const teacher = await w.employee({ 'student/profile': 'view' }, true, [w.secA]);
    const theirs = (await call(srv.app, teacher, 'GET', '/api/dashboard/')).json<Row>();
    expect(theirs).not.toHaveProperty('feesCollected');
    // The Students card counts what the viewer's Student page shows: a teacher limited to his section, his section's.
    const own = (await call(srv.app, w.as(w.admin, 'student', 'profile'), 'GET', `/api/student/?f_sec_cd=${w.secA}&size=1`)).json<{ total: number }>().total;
    expect(own).toBeGreaterThan(0);
    expect(Number(dash.students)).toBeGreaterThan(own);
    expect(theirs.students).toBe(own);
  });

  it('a teacher limited to his students sees only his sections in every summary', async () => {
    const mine = await w.student(w.secA, `Mine ${w.next()}`);
    const other = await w.student(w.secB, `Other ${w.next()}`);
    const teacher = await w.employee({ 'fee/fee_management': 'view,export', 'reports/fee_report': 'view,export', 'fee/quick_fee_collection': 'view' }, true, [w.secA]);
    for (const [module, page, api] of [
      ['fee', 'fee_management', '/api/fee_collection/'],
      ['reports', 'fee_report', '/api/feedefaultreport/'],
      ['fee', 'quick_fee_collection', '/api/student/detail/'],
    ] as const) {
      const res = await call(srv.app, w.as(teacher, module, page), 'GET', `${api}?q=${w.tag}&size=500`);
      expect(res.statusCode, res.body).toBe(200);
      const ids = res.json<{ rows: Row[] }>().rows.map((r) => r.stud_cd);
      expect(ids, api).toContain(mine);
      expect(ids, api).not.toContain(other);
      expect((await call(srv.app, w.as(teacher, module, page), 'GET', `${api}${other}`)).statusCode, api).toBe(404);
    }
  });
});
