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
      expect(nobody.json<{ message: string }>().message).toBe("No student has the admission number 'NO-SUCH-1' in the current academic year.");
      expect(await count(unknown)).toEqual([]);
      const bad = await hook(body(`pay_${w.next()}`, { amount: '-5' }));
      expect(bad.statusCode).toBe(400);
      const notJson = await hook('{"institute": 1,');
      expect(notJson.statusCode).toBe(400);
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
