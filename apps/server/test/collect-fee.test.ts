import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../src/db/client';
import { feeWorld, type FeeWorld } from './fee-fixture';
import { pdfOf } from './pdf-check';
import { backends, call, login, startTestServer, type Session, type TestServer } from './test-server';

type Row = Record<string, unknown>;
interface Due {
  kind: string;
  fee_cd: number | null;
  fee_grp_cd: number;
  amount: string;
  discount: string;
  paid: string;
  due: string;
}

describe.each(backends)('fee collection on %s', (backend) => {
  let srv: TestServer;
  let w: FeeWorld;
  let clerk: Session;

  beforeAll(async () => {
    srv = await startTestServer(backend);
    w = await feeWorld(srv);
    clerk = w.as(w.admin, 'fee', 'quick_fee_collection');
  });
  afterAll(async () => srv?.close());

  const dues = async (s: Session, stud: number): Promise<Due[]> => {
    const res = await call(srv.app, s, 'GET', `/api/fee_collection/student/${stud}/dues`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ lines: Due[] }>().lines;
  };
  const dueOf = (lines: Due[], feeCd: number) => lines.find((l) => l.fee_cd === feeCd)!;
  const collect = (s: Session, body: Row) =>
    call(srv.app, s, 'POST', '/api/fee_collection/collect', { tnd_typ_cd: w.cash, idempotency_key: randomUUID(), ...body });
  const billCount = async (stud: number, acdmCd = w.thisYear): Promise<number> => {
    const res = await call(srv.app, w.as(w.admin, 'fee', 'fee_collected', acdmCd), 'GET', `/api/fee/CollectedFee?f_stud_cd=${stud}&size=500`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ total: number }>().total;
  };

  it('lists every fee of the class by term with amount, discount, paid and due, and the overdue late fee', async () => {
    const stud = await w.student(w.secA);
    const lines = await dues(clerk, stud);
    expect(lines.map((l) => [l.kind, l.fee_cd, l.due])).toEqual([
      ['Fee', w.books1, '1234.50'],
      ['Fee', w.tuition1, '8000.00'],
      ['Late Fee', null, '100.00'],
      ['Fee', w.tuition2, '8000.00'],
    ]);
  });

  it('collects a partial payment: the due drops by exactly that and the receipt carries the bill', async () => {
    const stud = await w.student(w.secA);
    const res = await collect(clerk, { stud_cd: stud, lines: [{ fee_cd: w.tuition1, amount: '2500.25' }, { fee_cd: w.books1, amount: '1234.50' }] });
    expect(res.statusCode, res.body).toBe(201);
    const r = res.json<{ bill: Row; lines: Row[]; institute: Row }>();
    expect(r.bill).toMatchObject({ fee_coll_amt: '3734.75', fee_coll_sts: 'Active', stud_cd: stud, sec_cd: w.secA, fee_coll_by: 'Administrator' });
    expect(r.lines.map((l) => l.amount).sort()).toEqual(['1234.50', '2500.25']);
    expect(r.institute.inst_nm).toBeTruthy();
    const after = await dues(clerk, stud);
    expect(dueOf(after, w.tuition1)).toMatchObject({ paid: '2500.25', due: '5499.75' });
    expect(dueOf(after, w.books1)).toMatchObject({ paid: '1234.50', due: '0.00' });
    // What the receipt adds: the words, the cashier, and the balance the dues now show in total.
    const extra = res.json<{ amount_in_words: string; cashier: string; balance_due: string; student: Row }>();
    expect(extra.amount_in_words).toBe('Rupees Three Thousand Seven Hundred Thirty Four and Seventy Five Paise Only');
    expect(extra.cashier).toBe('Administrator');
    const owed = after.reduce((a, l) => a + Math.round(Number(l.due) * 100), 0);
    expect(extra.balance_due).toBe(`${Math.floor(owed / 100)}.${String(owed % 100).padStart(2, '0')}`);
    expect(extra.student).toMatchObject({ cls_nm: w.clsNm, sec_nm: 'A' });
  });

  it('refuses more than the due, naming the fee, and writes nothing', async () => {
    const stud = await w.student(w.secA);
    const res = await collect(clerk, { stud_cd: stud, lines: [{ fee_cd: w.books1, amount: '100.00' }, { fee_cd: w.tuition1, amount: '8000.01' }] });
    expect(res.statusCode).toBe(409);
    expect(res.json<{ message: string }>().message).toBe(`'Tuition ${w.tag} (Term 1 ${w.tag})' has only 8000.00 due; 8000.01 cannot be collected.`);
    expect(await billCount(stud)).toBe(0);
    expect(dueOf(await dues(clerk, stud), w.books1).paid).toBe('0.00');
    const zero = await collect(clerk, { stud_cd: stud, lines: [{ fee_cd: w.books1, amount: '0' }] });
    expect(zero.statusCode).toBe(400);
    const negative = await collect(clerk, { stud_cd: stud, lines: [{ fee_cd: w.books1, amount: '-5' }] });
    expect(negative.statusCode).toBe(400);
  });

  it('asks for the tender reference and refuses a tender turned off', async () => {
    const stud = await w.student(w.secA);
    const line = [{ fee_cd: w.books1, amount: '10.00' }];
    const noRef = await collect(clerk, { stud_cd: stud, tnd_typ_cd: w.cheque, lines: line });
    expect(noRef.statusCode).toBe(400);
    expect(noRef.json<{ message: string }>().message).toBe("Please enter the 'Cheque No.'.");
    const off = await collect(clerk, { stud_cd: stud, tnd_typ_cd: w.off, lines: line });
    expect(off.statusCode).toBe(400);
    const ok = await collect(clerk, { stud_cd: stud, tnd_typ_cd: w.cheque, reference: '004512', lines: line });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json<{ bill: Row }>().bill).toMatchObject({ fee_coll_ref: '004512', tnd_typ_cd: w.cheque });
  });

  it('lets exactly one of two concurrent collections of the whole due through', async () => {
    const stud = await w.student(w.secA);
    const body = { stud_cd: stud, lines: [{ fee_cd: w.tuition2, amount: '8000.00' }] };
    const [a, b] = await Promise.all([collect(clerk, body), collect(clerk, body)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 409]);
    expect(await billCount(stud)).toBe(1);
    expect(dueOf(await dues(clerk, stud), w.tuition2).due).toBe('0.00');
  });

  it('gives one bill for one payment key, sent twice and sent at once', async () => {
    const stud = await w.student(w.secA);
    const key = randomUUID();
    const body = { stud_cd: stud, idempotency_key: key, lines: [{ fee_cd: w.books1, amount: '200.00' }] };
    const first = await collect(clerk, body);
    expect(first.statusCode, first.body).toBe(201);
    const again = await collect(clerk, body);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json<{ bill: Row }>().bill.fee_coll_cd).toBe(first.json<{ bill: Row }>().bill.fee_coll_cd);
    const key2 = randomUUID();
    const both = await Promise.all([1, 2].map(() => collect(clerk, { ...body, idempotency_key: key2 })));
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 201]);
    expect(new Set(both.map((r) => r.json<{ bill: Row }>().bill.fee_coll_cd)).size).toBe(1);
    expect(await billCount(stud)).toBe(2);
    expect(dueOf(await dues(clerk, stud), w.books1).paid).toBe('400.00');
  });

  it('refuses a payment key replayed with another body (409, nothing written) and answers the same body with the first bill', async () => {
    const stud = await w.student(w.secA);
    const other = await w.student(w.secA);
    const key = randomUUID();
    const body = { stud_cd: stud, idempotency_key: key, lines: [{ fee_cd: w.books1, amount: '200.00' }] };
    const first = await collect(clerk, body);
    expect(first.statusCode, first.body).toBe(201);
    const firstNo = first.json<{ bill: Row }>().bill.fee_coll_bill_no;
    const variants: Row[] = [
      { ...body, lines: [{ fee_cd: w.books1, amount: '200.01' }] },
      { ...body, lines: [{ fee_cd: w.tuition1, amount: '200.00' }] },
      { ...body, lines: [{ fee_cd: w.books1, amount: '200.00' }, { fee_cd: w.tuition1, amount: '1.00' }] },
      { ...body, stud_cd: other },
      { ...body, tnd_typ_cd: w.cheque, reference: '77' },
      { ...body, late_fees: [{ fee_grp_cd: w.term1, amount: '100.00' }] },
    ];
    for (const v of variants) {
      const res = await collect(clerk, v);
      expect(res.statusCode, JSON.stringify(v)).toBe(409);
      expect(res.json<{ message: string }>().message).toBe('This payment key was already used for a different payment (another student, amount, fee or tender). Reload the page and try again.');
    }
    expect(await billCount(stud)).toBe(1);
    expect(await billCount(other)).toBe(0);
    expect(dueOf(await dues(clerk, stud), w.books1).paid).toBe('200.00');
    // The same payment spelt differently ('200' for '200.00', a zero line added) is still the same payment.
    const same = await collect(clerk, { ...body, lines: [{ fee_cd: w.books1, amount: '200' }, { fee_cd: w.tuition1, amount: '0' }] });
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json<{ bill: Row; repeated: boolean }>()).toMatchObject({ repeated: true, bill: { fee_coll_bill_no: firstNo } });
    // Two different bodies with one key at once: one bill, the other refused.
    const key2 = randomUUID();
    const both = await Promise.all([
      collect(clerk, { ...body, idempotency_key: key2 }),
      collect(clerk, { ...body, idempotency_key: key2, lines: [{ fee_cd: w.books1, amount: '5.00' }] }),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(await billCount(stud)).toBe(2);
  });

  it('checks a bill written before requests were hashed against its stored lines', async () => {
    const stud = await w.student(w.secA);
    const key = randomUUID();
    const body = { stud_cd: stud, tnd_typ_cd: w.cheque, reference: 'CHQ-1', idempotency_key: key, lines: [{ fee_cd: w.books1, amount: '50.00' }] };
    const first = await collect(clerk, body);
    expect(first.statusCode, first.body).toBe(201);
    const billCd = Number(first.json<{ bill: Row }>().bill.fee_coll_cd);
    await srv.database.db.execute(sql`UPDATE fee_collection_bill SET fee_coll_idem_hash = NULL WHERE fee_coll_cd = ${billCd}`);
    const same = await collect(clerk, body);
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json<{ bill: Row }>().bill.fee_coll_cd).toBe(billCd);
    for (const v of [{ ...body, reference: 'CHQ-2' }, { ...body, lines: [{ fee_cd: w.books1, amount: '49.00' }] }, { ...body, tnd_typ_cd: w.cash }]) {
      expect((await collect(clerk, v)).statusCode, JSON.stringify(v)).toBe(409);
    }
    expect(await billCount(stud)).toBe(1);
  });

  it("lets a holder of Academic Fee Collect into an earlier year's counter only, not a holder of the quick counter alone", async () => {
    const oldFee = await w.lastYearFee();
    const last = await w.student(w.secA, undefined, w.lastYear);
    const arrears = w.as(await w.employee({ 'fee/academic_fee_collect': 'view,create' }, false), 'fee', 'academic_fee_collect', w.lastYear);
    const res = await call(srv.app, arrears, 'GET', `/api/fee_collection/student/${last}/dues`);
    expect(res.statusCode, res.body).toBe(200);
    const paid = await collect(arrears, { stud_cd: last, lines: [{ fee_cd: oldFee, amount: '10.00' }] });
    expect(paid.statusCode, paid.body).toBe(201);
    // The rest of that year stays closed to them, as to the quick counter's clerk.
    const list = await call(srv.app, w.as(arrears, 'fee', 'fee_collected', w.lastYear), 'GET', '/api/fee/CollectedFee');
    expect(list.statusCode).toBe(403);
    expect(list.json<{ message: string }>().message).toBe('This academic year does not belong to the institute.');
    const quick = w.as(await w.employee({ 'fee/quick_fee_collection': 'view,create' }, false), 'fee', 'quick_fee_collection', w.lastYear);
    expect((await call(srv.app, quick, 'GET', `/api/fee_collection/student/${last}/dues`)).statusCode).toBe(403);
    expect((await collect(quick, { stud_cd: last, lines: [{ fee_cd: oldFee, amount: '10.00' }] })).statusCode).toBe(403);
    // Viewing the arrears is not collecting them: the page's create button is still needed.
    const viewer = w.as(await w.employee({ 'fee/academic_fee_collect': 'view' }, false), 'fee', 'academic_fee_collect', w.lastYear);
    expect((await call(srv.app, viewer, 'GET', `/api/fee_collection/student/${last}/dues`)).statusCode).toBe(200);
    const refused = await collect(viewer, { stud_cd: last, lines: [{ fee_cd: oldFee, amount: '10.00' }] });
    expect(refused.statusCode).toBe(403);
    expect(await billCount(last, w.lastYear)).toBe(1);
  });

  it('keeps a closed year AFTER the open one (next year, rolled over but not opened) shut even to the arrears page', async () => {
    const years = (await call(srv.app, w.as(w.admin, 'institute', 'academic'), 'GET', '/api/academic/?size=50')).json<{ rows: Row[] }>().rows;
    const newest = Math.max(...years.map((y) => Number(y.acdm_strt_yr)));
    const next = await w.created(w.as(w.admin, 'institute', 'academic'), '/api/academic/', { acdm_strt_yr: newest + 1, acdm_strt_mn: 'Jun', acdm_end_yr: newest + 2, acdm_end_mn: 'Apr', acdm_sts: false }, 'acdm_cd');
    const stud = await w.student(w.secA, undefined, next);
    const arrears = w.as(await w.employee({ 'fee/academic_fee_collect': 'view,create' }, false), 'fee', 'academic_fee_collect', next);
    const res = await call(srv.app, arrears, 'GET', `/api/fee_collection/student/${stud}/dues`);
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json<{ message: string }>().message).toBe('This academic year does not belong to the institute.');
  });

  it('numbers bills consecutively', async () => {
    const stud = await w.student(w.secA);
    const nos: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await collect(clerk, { stud_cd: stud, lines: [{ fee_cd: w.books1, amount: '1.00' }] });
      expect(res.statusCode, res.body).toBe(201);
      nos.push(Number(res.json<{ bill: Row }>().bill.fee_coll_bill_no));
    }
    expect(nos).toEqual([nos[0], nos[0] + 1, nos[0] + 2]);
  });

  it('charges a promoted student the old-student amount, a new one the new amount', async () => {
    const adm = `ADM${w.next()}`;
    await w.student(w.secA, 'Promoted Child', w.lastYear, adm);
    const promoted = await w.student(w.secA, 'Promoted Child', w.thisYear, adm);
    const fresh = await w.student(w.secA);
    const res = await call(srv.app, clerk, 'GET', `/api/fee_collection/student/${promoted}/dues`);
    expect(res.json<{ promoted: boolean }>().promoted).toBe(true);
    expect(dueOf(await dues(clerk, promoted), w.tuition1).amount).toBe('7000.00');
    expect(dueOf(await dues(clerk, fresh), w.tuition1).amount).toBe('8000.00');
  });

  it('collects the late fee as its own line; a term paid in full by its due date carries none', async () => {
    const stud = await w.student(w.secA);
    const late = (await dues(clerk, stud)).find((l) => l.kind === 'Late Fee')!;
    const res = await collect(clerk, { stud_cd: stud, lines: [], late_fees: [{ fee_grp_cd: late.fee_grp_cd, amount: '100.00' }] });
    expect(res.statusCode, res.body).toBe(201);
    const after = (await dues(clerk, stud)).find((l) => l.kind === 'Late Fee')!;
    expect(after).toMatchObject({ paid: '100.00', due: '0.00' });
    const twice = await collect(clerk, { stud_cd: stud, late_fees: [{ fee_grp_cd: late.fee_grp_cd, amount: '1.00' }] });
    expect(twice.statusCode).toBe(409);
  });

  it("refuses a restricted teacher another section's student (403) and one without the page or button", async () => {
    const teacher = await w.employee({ 'fee/quick_fee_collection': 'create,view' }, true, [w.secA]);
    const t = w.as(teacher, 'fee', 'quick_fee_collection');
    const own = await w.student(w.secA);
    const other = await w.student(w.secB);
    const line = [{ fee_cd: w.books1, amount: '5.00' }];
    expect((await collect(t, { stud_cd: own, lines: line })).statusCode).toBe(201);
    const refused = await collect(t, { stud_cd: other, lines: line });
    expect(refused.statusCode).toBe(403);
    expect(refused.json<{ message: string }>().message).toBe('You can only collect fees of your own students.');
    expect((await call(srv.app, t, 'GET', `/api/fee_collection/student/${other}/dues`)).statusCode).toBe(403);
    const found = await call(srv.app, t, 'GET', `/api/student/detail/?q=${w.tag}&size=500`);
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json<{ rows: Row[] }>().rows.map((r) => r.stud_cd)).toContain(own);
    expect(found.json<{ rows: Row[] }>().rows.map((r) => r.stud_cd)).not.toContain(other);
    expect(await billCount(other)).toBe(0);

    const viewer = w.as(await w.employee({ 'fee/quick_fee_collection': 'view' }, false), 'fee', 'quick_fee_collection');
    expect((await collect(viewer, { stud_cd: own, lines: line })).statusCode).toBe(403);
    const stranger = w.as(await w.employee({ 'fee/fee_type': 'view' }, false), 'fee', 'quick_fee_collection');
    expect((await collect(stranger, { stud_cd: own, lines: line })).statusCode).toBe(403);
    expect((await call(srv.app, stranger, 'GET', `/api/fee_collection/student/${own}/dues`)).statusCode).toBe(403);
  });

  it('lists bills at /api/fee/CollectedFee beside the fee mapping routes', async () => {
    const stud = await w.student(w.secA, `Listed ${w.tag}`);
    await collect(clerk, { stud_cd: stud, lines: [{ fee_cd: w.books1, amount: '3.00' }] });
    const list = await call(srv.app, w.as(w.admin, 'fee', 'fee_collected'), 'GET', `/api/fee/CollectedFee?q=${encodeURIComponent(`Listed ${w.tag}`)}`);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json<{ rows: Row[] }>().rows[0]).toMatchObject({ stud_cd: stud, stud_fs_nm: `Listed ${w.tag}`, cls_nm: expect.any(String), sec_nm: 'A', fee_coll_amt: '3.00' });
    const mapping = await call(srv.app, w.as(w.admin, 'fee', 'fee'), 'GET', `/api/fee/${w.books1}`);
    expect(mapping.statusCode).toBe(200);
    expect(mapping.json<Row>().fee_cd).toBe(w.books1);
  });
});

describe.each(backends)("the demo accountant collects last year's arrears on %s", (backend) => {
  let srv: TestServer;
  let acc: Session;
  let admin: Session;

  beforeAll(async () => {
    srv = await startTestServer(backend, {}, { demo: true });
    const a = srv.demo!.accounts.find((x) => x.login === 'ACCOUNTANT')!;
    acc = { ...(await login(srv.app, a.login, a.password)), modulename: 'fee', pagename: 'academic_fee_collect' };
    admin = await login(srv.app);
  });
  afterAll(async () => srv?.close());

  it('reads the dues, collects, opens the receipt and its PDF in that year; every other page of that year stays refused', async () => {
    const list = await call(srv.app, acc, 'GET', '/api/academic_fee_collect/?size=100');
    expect(list.statusCode, list.body).toBe(200);
    const rowsOwing = list.json<{ rows: Row[] }>().rows;
    expect(rowsOwing.length).toBeGreaterThan(0);
    const r = rowsOwing[0];
    const lastYear = { ...acc, acdmCd: Number(r.acdm_fee_acdm_cd) };
    const duesRes = await call(srv.app, lastYear, 'GET', `/api/fee_collection/student/${String(r.acdm_fee_stud_cd)}/dues`);
    expect(duesRes.statusCode, duesRes.body).toBe(200);
    const d = duesRes.json<{ lines: Due[]; tenders: Row[] }>();
    const owed = d.lines.find((l) => Number(l.due) > 0)!;
    const cash = d.tenders.find((t) => t.tnd_typ_nm === 'Cash')!;
    const body = {
      stud_cd: r.acdm_fee_stud_cd,
      tnd_typ_cd: cash.tnd_typ_cd,
      idempotency_key: randomUUID(),
      ...(owed.kind === 'Fee' ? { lines: [{ fee_cd: owed.fee_cd, amount: owed.due }] } : { late_fees: [{ fee_grp_cd: owed.fee_grp_cd, amount: owed.due }] }),
    };
    const paid = await call(srv.app, lastYear, 'POST', '/api/fee_collection/collect', body);
    expect(paid.statusCode, paid.body).toBe(201);
    const bill = paid.json<{ bill: Row }>().bill;
    const receipt = await call(srv.app, lastYear, 'GET', `/api/fee_collection/bill/${String(bill.fee_coll_cd)}`);
    expect(receipt.statusCode, receipt.body).toBe(200);
    expect(receipt.json<{ academic_year: string }>().academic_year).toBe(r.acdm_label);
    pdfOf(await call(srv.app, lastYear, 'GET', `/api/fee_collection/bill/${String(bill.fee_coll_cd)}/pdf`));
    // The bill is in last year's receipt book: the admin sees it there.
    const adminList = await call(srv.app, { ...admin, acdmCd: lastYear.acdmCd, modulename: 'fee', pagename: 'fee_collected' }, 'GET', `/api/fee/CollectedFee?f_stud_cd=${String(r.acdm_fee_stud_cd)}&size=100`);
    expect(adminList.json<{ rows: Row[] }>().rows.map((x) => x.fee_coll_cd)).toContain(bill.fee_coll_cd);
    // Only the counter's routes open for that year.
    for (const [module, page, url] of [
      ['fee', 'fee_collected', '/api/fee/CollectedFee'],
      ['fee', 'fee_group', '/api/fee_group/'],
      ['fee', 'quick_fee_collection', '/api/student/detail/'],
      ['fee', 'academic_fee_collect', '/api/academic_fee_collect/'],
    ]) {
      const res = await call(srv.app, { ...lastYear, modulename: module, pagename: page }, 'GET', url);
      expect(res.statusCode, url).toBe(403);
      expect(res.json<{ message: string }>().message).toBe('This academic year does not belong to the institute.');
    }
  });
});
