import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows, sql } from '../src/db/client';
import { signatureOf } from '../src/workflows/online-payment/payment-webhook';
import { feeWorld, type FeeWorld } from './fee-fixture';
import { backends, call, startTestServer, type Session, type TestServer } from './test-server';

type Row = Record<string, unknown>;

describe.each(backends)('online payment requests on %s', (backend) => {
  let srv: TestServer;
  let w: FeeWorld;
  let office: Session;

  beforeAll(async () => {
    srv = await startTestServer(backend);
    w = await feeWorld(srv);
    office = w.as(w.admin, 'fee', 'request');
  });
  afterAll(async () => srv?.close());

  const request = async (stud: number, amount: string, txn = `pay_${w.next()}`): Promise<number> =>
    w.created(office, '/api/online_payment_request/', { stud_cd: stud, oln_pay_txn_id: txn, oln_pay_txn_dt: '2026-07-01', oln_pay_tot_amt: amount }, 'oln_pay_cd');
  const act = (s: Session, id: number, body: Row) => call(srv.app, s, 'POST', `/api/online_payment_request/${id}/take_action`, { idempotency_key: randomUUID(), ...body });
  const get = async (id: number): Promise<Row> => (await call(srv.app, office, 'GET', `/api/online_payment_request/${id}`)).json<Row>();
  const bills = (stud: number) =>
    rows<{ fee_coll_cd: number; amt: string; ref: string | null; tnd: string; no: number }>(
      srv.database.db,
      sql`SELECT b.fee_coll_cd, b.fee_coll_amt::text AS amt, b.fee_coll_ref AS ref, t.tnd_typ_nm AS tnd, b.fee_coll_bill_no AS no
          FROM fee_collection_bill b JOIN tender_type t ON t.tnd_typ_cd = b.tnd_typ_cd WHERE b.stud_cd = ${stud} ORDER BY b.fee_coll_cd`,
    );
  const linesOf = (feeCollCd: number) =>
    rows<{ kind: string; fee_cd: number | null; fee_grp_cd: number; amt: string }>(
      srv.database.db,
      sql`SELECT fee_coll_dtl_kind AS kind, fee_cd, fee_grp_cd, fee_coll_dtl_amt::text AS amt FROM fee_collection_line WHERE fee_coll_cd = ${feeCollCd} ORDER BY fee_coll_dtl_cd`,
    );

  it('accepting bills the payment oldest dues first under tender Online with the transaction id, and keeps the bill number', async () => {
    const stud = await w.student(w.secA);
    const txn = `pay_${w.next()}`;
    const id = await request(stud, '9300.00', txn);
    expect((await get(id)).oln_pay_acpt_sts).toBe('Pending');
    const res = await act(office, id, { oln_pay_acpt_sts: 'Accepted' });
    expect(res.statusCode, res.body).toBe(200);
    const [bill] = await bills(stud);
    expect(bill).toMatchObject({ amt: '9300.00', ref: txn, tnd: 'Online' });
    // Term 1's books and tuition, then its late fee in part; term 2 untouched.
    expect((await linesOf(bill.fee_coll_cd)).map((l) => [l.kind, l.fee_cd === null ? null : Number(l.fee_cd), l.amt])).toEqual([
      ['Fee', w.books1, '1234.50'],
      ['Fee', w.tuition1, '8000.00'],
      ['Late Fee', null, '65.50'],
    ]);
    expect(await get(id)).toMatchObject({ oln_pay_acpt_sts: 'Accepted', oln_pay_bill_no: String(bill.no), fee_coll_cd: Number(bill.fee_coll_cd), oln_pay_actn_by: 'Administrator' });
    expect(res.json<{ receipt: { bill: Row; tender: Row } }>().receipt).toMatchObject({ bill: { fee_coll_bill_no: bill.no }, tender: { tnd_typ_nm: 'Online', reference: txn } });
    const receipt = await call(srv.app, w.as(w.admin, 'fee', 'fee_collected'), 'GET', `/api/fee_collection/bill/${bill.fee_coll_cd}`);
    expect(receipt.statusCode).toBe(200);
  });

  it('accepting twice gives one bill: another key is refused, the same key answers with that bill', async () => {
    const stud = await w.student(w.secA);
    const id = await request(stud, '100.00');
    const key = randomUUID();
    const first = await act(office, id, { oln_pay_acpt_sts: 'Accepted', idempotency_key: key });
    expect(first.statusCode, first.body).toBe(200);
    const again = await act(office, id, { oln_pay_acpt_sts: 'Accepted' });
    expect(again.statusCode).toBe(409);
    expect(again.json<{ message: string }>().message).toBe('This payment is already accepted.');
    const retry = await act(office, id, { oln_pay_acpt_sts: 'Accepted', idempotency_key: key });
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json<{ repeated: boolean; receipt: { bill: Row } }>()).toMatchObject({ repeated: true, receipt: { bill: { fee_coll_cd: first.json<{ receipt: { bill: Row } }>().receipt.bill.fee_coll_cd } } });
    const reject = await act(office, id, { oln_pay_acpt_sts: 'Rejected', reason: 'Too late' });
    expect(reject.statusCode).toBe(409);
    expect((await bills(stud)).length).toBe(1);
    expect((await get(id)).oln_pay_rjct_rsn).toBeNull();
  });

  it('refuses a payment above all the dues, naming the difference, and writes nothing', async () => {
    const stud = await w.student(w.secA);
    // 1234.50 + 8000 + 100 late + 8000 = 17334.50 owed.
    const id = await request(stud, '17400.00');
    const res = await act(office, id, { oln_pay_acpt_sts: 'Accepted' });
    expect(res.statusCode).toBe(409);
    expect(res.json<{ message: string }>().message).toBe('The payment of 17400.00 is 65.50 more than all the dues (17334.50).');
    expect(await bills(stud)).toEqual([]);
    expect(await get(id)).toMatchObject({ oln_pay_acpt_sts: 'Pending', oln_pay_bill_no: null, fee_coll_cd: null });
  });

  it('pays the lines the clerk chose when they add up to the payment', async () => {
    const stud = await w.student(w.secA);
    const id = await request(stud, '500.00');
    const wrong = await act(office, id, { oln_pay_acpt_sts: 'Accepted', lines: [{ fee_cd: w.tuition2, amount: '400.00' }] });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json<{ message: string }>().message).toBe('The chosen lines add up to 400.00; the payment is 500.00.');
    const over = await act(office, id, { oln_pay_acpt_sts: 'Accepted', lines: [{ fee_cd: w.books1, amount: '500.00' }, { fee_cd: w.tuition2, amount: '0' }] });
    expect(over.statusCode, over.body).toBe(200);
    const [bill] = await bills(stud);
    expect((await linesOf(bill.fee_coll_cd)).map((l) => [Number(l.fee_cd), l.amt])).toEqual([[w.books1, '500.00']]);
    const stud2 = await w.student(w.secA);
    const id2 = await request(stud2, '500.00');
    const chosen = await act(office, id2, { oln_pay_acpt_sts: 'Accepted', lines: [{ fee_cd: w.tuition2, amount: '400.00' }], late_fees: [{ fee_grp_cd: w.term1, amount: '100.00' }] });
    expect(chosen.statusCode, chosen.body).toBe(200);
    const [bill2] = await bills(stud2);
    expect((await linesOf(bill2.fee_coll_cd)).map((l) => [l.kind, l.amt])).toEqual([['Fee', '400.00'], ['Late Fee', '100.00']]);
  });

  it('rejecting asks for the reason and writes nothing else; only pending requests are acted on', async () => {
    const stud = await w.student(w.secA);
    const id = await request(stud, '250.00');
    const noReason = await act(office, id, { oln_pay_acpt_sts: 'Rejected', reason: '  ' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json<{ message: string }>().message).toBe('Please give the reason for rejecting.');
    expect((await get(id)).oln_pay_acpt_sts).toBe('Pending');
    const bad = await act(office, id, { oln_pay_acpt_sts: 'Pending' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toBe("'Status' must be one of Accepted, Rejected.");
    const res = await act(office, id, { oln_pay_acpt_sts: 'Rejected', reason: 'Amount does not match the bank statement' });
    expect(res.statusCode, res.body).toBe(200);
    expect(await get(id)).toMatchObject({ oln_pay_acpt_sts: 'Rejected', oln_pay_rjct_rsn: 'Amount does not match the bank statement', oln_pay_actn_by: 'Administrator', fee_coll_cd: null });
    expect(await bills(stud)).toEqual([]);
    const accept = await act(office, id, { oln_pay_acpt_sts: 'Accepted' });
    expect(accept.statusCode).toBe(409);
    expect(accept.json<{ message: string }>().message).toBe('This payment is already rejected.');
    expect(await bills(stud)).toEqual([]);
  });

  it('lets a PUT change a pending request only, and never delete an acted-on one', async () => {
    const stud = await w.student(w.secA);
    const id = await request(stud, '300.00');
    const put = async (changes: Row) => call(srv.app, office, 'PUT', `/api/online_payment_request/${id}`, { row_ver: (await get(id)).row_ver, ...changes });
    const edit = await put({ oln_pay_tot_amt: '350.00' });
    expect(edit.statusCode, edit.body).toBe(200);
    const status = await put({ oln_pay_acpt_sts: 'Accepted' });
    expect(status.statusCode).toBe(400);
    await act(office, id, { oln_pay_acpt_sts: 'Accepted' });
    const txn = String((await get(id)).oln_pay_txn_id);
    const late = await put({ oln_pay_tot_amt: '1.00' });
    expect(late.statusCode).toBe(409);
    expect(late.json<{ message: string }>().message).toBe(`Payment ${txn} is accepted; only a pending payment can be changed.`);
    const del = await call(srv.app, office, 'DELETE', '/api/online_payment_request/', { primids: [id] });
    expect(del.statusCode).toBe(409);
    expect(await get(id)).toMatchObject({ oln_pay_acpt_sts: 'Accepted', oln_pay_tot_amt: '350.00' });
  });

  it('needs the take_action button of Online Pay Request', async () => {
    const stud = await w.student(w.secA);
    const id = await request(stud, '10.00');
    const viewer = w.as(await w.employee({ 'fee/request': 'view' }, false), 'fee', 'request');
    const res = await act(viewer, id, { oln_pay_acpt_sts: 'Accepted' });
    expect(res.statusCode).toBe(403);
    const clerk = w.as(await w.employee({ 'fee/request': 'view,take_action' }, false), 'fee', 'request');
    expect((await act(clerk, id, { oln_pay_acpt_sts: 'Accepted' })).statusCode).toBe(200);
  });

  const onlineTenderRow = async () =>
    (await rows<{ tnd_typ_cd: number; fld: string | null; sts: boolean; ver: number }>(
      srv.database.db,
      sql`SELECT tnd_typ_cd, tnd_typ_fld_val AS fld, tnd_typ_sts AS sts, row_ver AS ver FROM tender_type WHERE inst_cd = ${w.admin.instCd} AND lower(tnd_typ_nm) = 'online'`,
    ))[0];

  it("never edits the office's 'Online' tender: turned off or without a reference field it refuses, naming the fix", async () => {
    const stud = await w.student(w.secA);
    const id = await request(stud, '100.00');
    // Made on first use (it was missing), asking for the transaction id.
    expect((await act(office, id, { oln_pay_acpt_sts: 'Accepted' })).statusCode).toBe(200);
    const made = await onlineTenderRow();
    expect(made).toMatchObject({ fld: 'Transaction Id', sts: true });
    const tenders = w.as(w.admin, 'fee', 'tender_type');
    const setTender = async (changes: Row) => {
      const cur = (await call(srv.app, tenders, 'GET', `/api/tender_type/${made.tnd_typ_cd}`)).json<Row>();
      const res = await call(srv.app, tenders, 'PUT', `/api/tender_type/${made.tnd_typ_cd}`, { row_ver: cur.row_ver, ...changes });
      expect(res.statusCode, res.body).toBe(200);
    };
    try {
      await setTender({ tnd_typ_sts: false });
      const off = await onlineTenderRow();
      const id2 = await request(stud, '100.00');
      const refused = await act(office, id2, { oln_pay_acpt_sts: 'Accepted' });
      expect(refused.statusCode).toBe(409);
      expect(refused.json<{ message: string }>().message).toBe("The tender type 'Online' is turned off. Turn it on in Tender Type to accept online payments.");
      expect(await onlineTenderRow()).toEqual(off);
      expect(await get(id2)).toMatchObject({ oln_pay_acpt_sts: 'Pending', fee_coll_cd: null });

      await setTender({ tnd_typ_sts: true, tnd_typ_fld_val: '' });
      const bare = await onlineTenderRow();
      const noRef = await act(office, id2, { oln_pay_acpt_sts: 'Accepted' });
      expect(noRef.statusCode).toBe(409);
      expect(noRef.json<{ message: string }>().message).toContain("Fill its 'Reference Field'");
      expect(await onlineTenderRow()).toEqual(bare);
      expect((await bills(stud)).length).toBe(1);
    } finally {
      await setTender({ tnd_typ_sts: true, tnd_typ_fld_val: 'Transaction Id' });
    }
  });

  it('one transaction id is one payment in the institute: another year refuses it on create, edit and accept', async () => {
    const txn = `pay_${w.next()}`;
    const stud = await w.student(w.secA);
    await request(stud, '100.00', txn);
    const oldStud = await w.student(w.secA, undefined, w.lastYear);
    const lastYear = w.as(w.admin, 'fee', 'request', w.lastYear);
    const body = (t: string) => ({ stud_cd: oldStud, oln_pay_txn_id: t, oln_pay_txn_dt: '2026-07-01', oln_pay_tot_amt: '100.00' });
    const again = await call(srv.app, lastYear, 'POST', '/api/online_payment_request/', body(txn.toUpperCase()));
    expect(again.statusCode).toBe(409);
    expect(again.json<{ message: string }>().message).toBe(`Transaction Id '${txn.toUpperCase()}' already exists in another academic year.`);
    const other = await w.created(lastYear, '/api/online_payment_request/', body(`pay_${w.next()}`), 'oln_pay_cd');
    const cur = (await call(srv.app, lastYear, 'GET', `/api/online_payment_request/${other}`)).json<Row>();
    const edit = await call(srv.app, lastYear, 'PUT', `/api/online_payment_request/${other}`, { row_ver: cur.row_ver, oln_pay_txn_id: txn });
    expect(edit.statusCode).toBe(409);
    expect(edit.json<{ message: string }>().message).toBe(`Transaction Id '${txn}' already exists in another academic year.`);

    // A pair typed before this rule (straight into the table): the second acceptance is refused.
    const txn2 = `pay_${w.next()}`;
    const first = await request(stud, '100.00', txn2);
    const [{ oln_pay_cd: legacy }] = await rows<{ oln_pay_cd: number }>(
      srv.database.db,
      sql`INSERT INTO online_payment_request (stud_cd, oln_pay_txn_id, oln_pay_txn_dt, oln_pay_tot_amt, oln_pay_acpt_sts, oln_pay_src, inst_cd, acdm_cd)
          VALUES (${oldStud}, ${txn2}, '2026-07-01', 100, 'Pending', 'Office', ${w.admin.instCd}, ${w.lastYear}) RETURNING oln_pay_cd`,
    );
    expect((await act(office, first, { oln_pay_acpt_sts: 'Accepted' })).statusCode).toBe(200);
    const billNo = String((await get(first)).oln_pay_bill_no);
    const twice = await act(lastYear, Number(legacy), { oln_pay_acpt_sts: 'Accepted' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json<{ message: string }>().message).toBe(`The transaction ${txn2} is already billed (bill ${billNo}); this payment cannot be accepted again.`);
    expect(await bills(oldStud)).toEqual([]);
  });

  it.runIf(backend === 'postgres')('one transaction id typed in two years at once is recorded once', async () => {
    const txn = `pay_${w.next()}`;
    const stud = await w.student(w.secA);
    const oldStud = await w.student(w.secA, undefined, w.lastYear);
    const post = (s: Session, st: number) =>
      call(srv.app, s, 'POST', '/api/online_payment_request/', { stud_cd: st, oln_pay_txn_id: txn, oln_pay_txn_dt: '2026-07-01', oln_pay_tot_amt: '10.00' });
    const all = await Promise.all([post(office, stud), post(w.as(w.admin, 'fee', 'request', w.lastYear), oldStud), post(office, stud), post(w.as(w.admin, 'fee', 'request', w.lastYear), oldStud)]);
    expect(all.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409]);
    expect((await rows(srv.database.db, sql`SELECT 1 FROM online_payment_request WHERE lower(oln_pay_txn_id) = lower(${txn})`)).length).toBe(1);
  });

  it('cancelling the bill of an accepted payment puts it back to Pending; undo re-links it only while it is still Pending', async () => {
    const collected = w.as(w.admin, 'fee', 'fee_collected');
    const cancel = (feeCollCd: number) => call(srv.app, collected, 'POST', '/api/fee/CollectedFee/cancel', { fee_coll_cd: feeCollCd, reason: 'Wrong fees chosen' });
    const undo = (feeCollCd: number) => call(srv.app, collected, 'POST', '/api/fee/CollectedFee/undo-cancel', { fee_coll_cd: feeCollCd });
    const stud = await w.student(w.secA);
    const txn = `pay_${w.next()}`;
    const id = await request(stud, '300.00', txn);
    expect((await act(office, id, { oln_pay_acpt_sts: 'Accepted' })).statusCode).toBe(200);
    const [b1] = await bills(stud);

    expect((await cancel(b1.fee_coll_cd)).statusCode).toBe(200);
    expect(await get(id)).toMatchObject({ oln_pay_acpt_sts: 'Pending', oln_pay_bill_no: null });
    const back = await undo(b1.fee_coll_cd);
    expect(back.statusCode, back.body).toBe(200);
    expect(await get(id)).toMatchObject({ oln_pay_acpt_sts: 'Accepted', oln_pay_bill_no: String(b1.no), fee_coll_cd: Number(b1.fee_coll_cd) });

    // Cancelled again and accepted on a new bill: the old bill can no longer come back (one payment, one bill).
    expect((await cancel(b1.fee_coll_cd)).statusCode).toBe(200);
    expect((await act(office, id, { oln_pay_acpt_sts: 'Accepted', lines: [{ fee_cd: w.tuition2, amount: '300.00' }] })).statusCode).toBe(200);
    const b2 = (await bills(stud))[1];
    const stale = await undo(b1.fee_coll_cd);
    expect(stale.statusCode).toBe(409);
    expect(stale.json<{ message: string }>().message).toBe(`Bill ${b1.no} cannot be restored: its online payment ${txn} has been accepted on another bill.`);
    expect(await get(id)).toMatchObject({ oln_pay_acpt_sts: 'Accepted', fee_coll_cd: Number(b2.fee_coll_cd) });

    // Cancelled and then rejected: restoring the bill would bill a refused payment.
    expect((await cancel(b2.fee_coll_cd)).statusCode).toBe(200);
    expect((await act(office, id, { oln_pay_acpt_sts: 'Rejected', reason: 'Refunded by the bank' })).statusCode).toBe(200);
    const rejected = await undo(b2.fee_coll_cd);
    expect(rejected.statusCode).toBe(409);
    expect(rejected.json<{ message: string }>().message).toBe(`Bill ${b2.no} cannot be restored: its online payment ${txn} has been rejected.`);
    const sts = await rows<{ sts: string }>(srv.database.db, sql`SELECT fee_coll_sts AS sts FROM fee_collection_bill WHERE stud_cd = ${stud} ORDER BY fee_coll_cd`);
    expect(sts.map((r) => r.sts)).toEqual(['Cancelled', 'Cancelled']);
  });

  it.runIf(backend === 'postgres')('5 clerks accepting one request at once write one bill', async () => {
    const stud = await w.student(w.secA);
    const id = await request(stud, '700.00');
    const all = await Promise.all([1, 2, 3, 4, 5].map(() => act(office, id, { oln_pay_acpt_sts: 'Accepted' })));
    expect(all.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409]);
    expect((await bills(stud)).length).toBe(1);
    // One double-clicked dialog (one key) five times: one bill, every answer that bill.
    const stud2 = await w.student(w.secA);
    const id2 = await request(stud2, '700.00');
    const key = randomUUID();
    const same = await Promise.all([1, 2, 3, 4, 5].map(() => act(office, id2, { oln_pay_acpt_sts: 'Accepted', idempotency_key: key })));
    expect(same.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(same.map((r) => r.json<{ receipt: { bill: Row } }>().receipt.bill.fee_coll_cd)).size).toBe(1);
    expect((await bills(stud2)).length).toBe(1);
  });

  describe('the payment gateway webhook', () => {
    const secret = 'whsec_test_3f9a8c1d';
    const hook = (body: Row | string, signature?: string) => {
      const raw = typeof body === 'string' ? body : JSON.stringify(body);
      return srv.app.inject({
        method: 'POST',
        url: '/api/online_payment/webhook',
        payload: raw,
        headers: { 'content-type': 'application/json', ...(signature === undefined ? { 'x-campus-signature': signatureOf(raw, secret) } : { 'x-campus-signature': signature }) },
      });
    };
    const count = async (txn: string): Promise<Row[]> =>
      rows<Row>(srv.database.db, sql`SELECT oln_pay_cd, stud_cd, oln_pay_acpt_sts, oln_pay_src, oln_pay_tot_amt::text AS amt, acdm_cd FROM online_payment_request WHERE oln_pay_txn_id = ${txn}`);
    let adm: string;
    let stud: number;
    const body = (txn: string, more: Row = {}): Row => ({ institute: w.admin.instCd, transaction_id: txn, amount: '1500.00', admission_no: adm, status: 'success', date: '2026-07-02', ...more });

    beforeAll(async () => {
      adm = `WEB${w.next()}`;
      stud = await w.student(w.secA, undefined, w.thisYear, adm);
    });

    it('is refused (401) while the institute has no secret, and then checks the signature over the exact bytes', async () => {
      const txn = `pay_${w.next()}`;
      const none = await hook(body(txn));
      expect(none.statusCode).toBe(401);
      expect(none.json<{ message: string }>().message).toBe('Online payment notifications are not set up for this institute.');
      await srv.database.db.execute(
        sql`INSERT INTO setting (setg_unq_cd, setg_nm, setg_val, inst_cd) VALUES ('PAY_WEBHOOK_SECRET', 'Payment gateway webhook secret', ${secret}, ${w.admin.instCd})`,
      );
      const raw = JSON.stringify(body(txn));
      const forged = await hook(raw.replace('1500.00', '15000.00'), signatureOf(raw, secret));
      expect(forged.statusCode).toBe(401);
      expect(forged.json<{ message: string }>().message).toBe("The notification's signature is not valid.");
      expect((await hook(raw, signatureOf(raw, 'another-secret'))).statusCode).toBe(401);
      expect((await hook(raw, 'sha256=zz')).statusCode).toBe(401);
      expect((await hook(raw, '')).statusCode).toBe(401);
      expect(await count(txn)).toEqual([]);
    });

    it('creates one Pending request from the gateway in the active year; the same transaction again is 200 with no second row', async () => {
      const txn = `pay_${w.next()}`;
      const res = await hook(body(txn));
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json<Row>()).toMatchObject({ result: 'created' });
      expect(await count(txn)).toEqual([{ oln_pay_cd: res.json<Row>().oln_pay_cd, stud_cd: stud, oln_pay_acpt_sts: 'Pending', oln_pay_src: 'Gateway', amt: '1500.00', acdm_cd: w.thisYear }]);
      const again = await hook(body(txn));
      expect(again.statusCode).toBe(200);
      expect(again.json<Row>()).toMatchObject({ result: 'duplicate', oln_pay_cd: res.json<Row>().oln_pay_cd });
      expect((await count(txn)).length).toBe(1);
      // The office accepts it like any other request.
      const accept = await act(office, Number(res.json<Row>().oln_pay_cd), { oln_pay_acpt_sts: 'Accepted' });
      expect(accept.statusCode, accept.body).toBe(200);
    });

    it('ignores a payment that did not succeed, and names an unknown admission number or a bad body', async () => {
      const failed = `pay_${w.next()}`;
      const res = await hook(body(failed, { status: 'failed' }));
      expect(res.statusCode).toBe(200);
      expect(res.json<Row>().result).toBe('ignored');
      expect(await count(failed)).toEqual([]);
      const unknown = `pay_${w.next()}`;
      const nobody = await hook(body(unknown, { admission_no: 'NO-SUCH-1' }));
      expect(nobody.statusCode).toBe(422);
      expect(nobody.json<{ message: string }>().message).toBe("No student has the admission number 'NO-SUCH-1' in an active academic year.");
      expect(await count(unknown)).toEqual([]);
      const bad = await hook(body(`pay_${w.next()}`, { amount: '-5' }));
      expect(bad.statusCode).toBe(400);
      const notJson = await hook('{"institute": 1,');
      expect(notJson.statusCode).toBe(400);
    });

    it("keeps what the gateway signed: student, transaction id, date and amount of a 'Gateway' request are not editable", async () => {
      const txn = `pay_${w.next()}`;
      const res = await hook(body(txn));
      expect(res.statusCode, res.body).toBe(201);
      const id = Number(res.json<Row>().oln_pay_cd);
      const other = await w.student(w.secA);
      for (const change of [{ oln_pay_tot_amt: '15000.00' }, { stud_cd: other }, { oln_pay_txn_id: `pay_${w.next()}` }, { oln_pay_txn_dt: '2026-07-03' }]) {
        const put = await call(srv.app, office, 'PUT', `/api/online_payment_request/${id}`, { row_ver: (await get(id)).row_ver, ...change });
        expect(put.statusCode).toBe(409);
        expect(put.json<{ message: string }>().message).toBe(`Payment ${txn} came from the payment gateway; its student, transaction id, date and amount cannot be changed. Accept or reject it.`);
      }
      expect(await get(id)).toMatchObject({ stud_cd: stud, oln_pay_tot_amt: '1500.00', oln_pay_txn_id: txn, oln_pay_txn_dt: '2026-07-02', oln_pay_acpt_sts: 'Pending' });
    });

    it('finds the child in every active year: one not promoted yet, and a promoted child paying last year\'s arrears', async () => {
      await w.lastYearFee();
      await srv.database.db.execute(sql`UPDATE academic SET acdm_sts = true WHERE acdm_cd = ${w.lastYear}`);
      try {
        const notYet = `WEB${w.next()}`;
        const old = await w.student(w.secA, undefined, w.lastYear, notYet);
        const t1 = `pay_${w.next()}`;
        const r1 = await hook(body(t1, { admission_no: notYet, amount: '2000.00' }));
        expect(r1.statusCode, r1.body).toBe(201);
        expect(await count(t1)).toEqual([expect.objectContaining({ stud_cd: old, acdm_cd: w.lastYear })]);

        const promoted = `WEB${w.next()}`;
        const before = await w.student(w.secA, undefined, w.lastYear, promoted);
        const now = await w.student(w.secA, undefined, w.thisYear, promoted);
        // 5000.00 of last year's arrears: paid there first.
        const t2 = `pay_${w.next()}`;
        expect((await hook(body(t2, { admission_no: promoted, amount: '5000.00' }))).statusCode).toBe(201);
        expect(await count(t2)).toEqual([expect.objectContaining({ stud_cd: before, acdm_cd: w.lastYear })]);
        // More than the arrears: only this year's dues can take it.
        const t3 = `pay_${w.next()}`;
        expect((await hook(body(t3, { admission_no: promoted, amount: '9000.00' }))).statusCode).toBe(201);
        expect(await count(t3)).toEqual([expect.objectContaining({ stud_cd: now, acdm_cd: w.thisYear })]);
      } finally {
        await srv.database.db.execute(sql`UPDATE academic SET acdm_sts = false WHERE acdm_cd = ${w.lastYear}`);
      }
    });

    it('never shows the secret through the settings API', async () => {
      const list = await call(srv.app, w.admin, 'GET', '/api/setting/');
      expect(list.statusCode).toBe(200);
      expect(list.body).not.toContain(secret);
      expect(list.json<Row[]>().map((s) => s.setg_unq_cd)).not.toContain('PAY_WEBHOOK_SECRET');
      const one = await call(srv.app, w.admin, 'GET', '/api/setting/?setg_unq_cd=PAY_WEBHOOK_SECRET');
      expect(one.body).not.toContain(secret);
      const obj = await call(srv.app, w.admin, 'GET', '/api/setting/object');
      expect(obj.body).not.toContain(secret);
      expect(Object.keys(obj.json<Row>())).not.toContain('PAY_WEBHOOK_SECRET');
    });
  });
});
