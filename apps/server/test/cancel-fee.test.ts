import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { feeWorld, type FeeWorld } from './fee-fixture';
import { backends, call, startTestServer, type Session, type TestServer } from './test-server';

type Row = Record<string, unknown>;

describe.each(backends)('cancelling a fee bill on %s', (backend) => {
  let srv: TestServer;
  let w: FeeWorld;
  let counter: Session;
  let office: Session;

  beforeAll(async () => {
    srv = await startTestServer(backend);
    w = await feeWorld(srv);
    counter = w.as(w.admin, 'fee', 'quick_fee_collection');
    office = w.as(w.admin, 'fee', 'fee_collected');
  });
  afterAll(async () => srv?.close());

  const collect = async (stud: number, amount: string): Promise<Row> => {
    const res = await call(srv.app, counter, 'POST', '/api/fee_collection/collect', {
      stud_cd: stud,
      tnd_typ_cd: w.cash,
      idempotency_key: randomUUID(),
      lines: [{ fee_cd: w.tuition2, amount }],
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ bill: Row }>().bill;
  };
  const due = async (stud: number): Promise<string> => {
    const res = await call(srv.app, counter, 'GET', `/api/fee_collection/student/${stud}/dues`);
    return res.json<{ lines: Row[] }>().lines.find((l) => l.fee_cd === w.tuition2)!.due as string;
  };

  it('makes the amount due again, records who and why, and refuses a second cancel', async () => {
    const stud = await w.student(w.secA);
    const bill = await collect(stud, '3000.00');
    expect(await due(stud)).toBe('5000.00');
    const noReason = await call(srv.app, office, 'POST', '/api/fee/CollectedFee/cancel', { fee_coll_cd: bill.fee_coll_cd, reason: ' ' });
    expect(noReason.statusCode).toBe(400);
    const res = await call(srv.app, office, 'POST', '/api/fee/CollectedFee/cancel', { fee_coll_cd: bill.fee_coll_cd, reason: 'Cheque bounced' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ bill: Row }>().bill.fee_coll_sts).toBe('Cancelled');
    // The receipt answered (and reprinted) says who cancelled it and why.
    expect(res.json<{ cancellation: Row }>().cancellation).toMatchObject({ by: 'Administrator', reason: 'Cheque bounced', date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
    expect(await due(stud)).toBe('8000.00');
    const log = await call(srv.app, w.as(w.admin, 'fee', 'fee_cancel'), 'GET', `/api/cancel_fee/?f_fee_cncl_fee_cd=${String(bill.fee_coll_cd)}`);
    expect(log.json<{ rows: Row[] }>().rows).toEqual([
      expect.objectContaining({ fee_cncl_rsn: 'Cheque bounced', fee_cncl_tot_amt: '3000.00', cncl_by: 'Administrator', bill_by: 'Administrator', fee_coll_bill_no: bill.fee_coll_bill_no, fee_cncl_undo_dt: null }),
    ]);
    const again = await call(srv.app, office, 'POST', '/api/fee/CollectedFee/cancel', { fee_coll_cd: bill.fee_coll_cd, reason: 'Twice' });
    expect(again.statusCode).toBe(409);
    expect(again.json<{ message: string }>().message).toBe(`Bill ${String(bill.fee_coll_bill_no)} is already cancelled.`);
  });

  it('undo restores the bill while its fees are still payable, and refuses once they were collected again', async () => {
    const stud = await w.student(w.secA);
    const bill = await collect(stud, '3000.00');
    const active = await call(srv.app, office, 'POST', '/api/fee/CollectedFee/undo-cancel', { fee_coll_cd: bill.fee_coll_cd });
    expect(active.statusCode).toBe(409);
    await call(srv.app, office, 'POST', '/api/fee/CollectedFee/cancel', { fee_coll_cd: bill.fee_coll_cd, reason: 'Wrong student' });
    const undo = await call(srv.app, office, 'POST', '/api/fee/CollectedFee/undo-cancel', { fee_coll_cd: bill.fee_coll_cd });
    expect(undo.statusCode, undo.body).toBe(200);
    expect(undo.json<{ bill: Row }>().bill.fee_coll_sts).toBe('Active');
    expect(undo.json<{ cancellation: Row | null }>().cancellation).toBeNull();
    expect(await due(stud)).toBe('5000.00');
    const log = await call(srv.app, w.as(w.admin, 'fee', 'fee_cancel'), 'GET', `/api/cancel_fee/?f_fee_cncl_fee_cd=${String(bill.fee_coll_cd)}`);
    expect(log.json<{ rows: Row[] }>().rows[0]).toMatchObject({ fee_cncl_undo_by: 'Administrator' });

    await call(srv.app, office, 'POST', '/api/fee/CollectedFee/cancel', { fee_coll_cd: bill.fee_coll_cd, reason: 'Really wrong' });
    await collect(stud, '6000.00');
    const late = await call(srv.app, office, 'POST', '/api/fee/CollectedFee/undo-cancel', { fee_coll_cd: bill.fee_coll_cd });
    expect(late.statusCode).toBe(409);
    expect(late.json<{ message: string }>().message).toContain('has been collected again');
    expect(await due(stud)).toBe('2000.00');
  });

  it('needs the cancel_bill and undo_cancel buttons of the Fee Collected page', async () => {
    const stud = await w.student(w.secA);
    const bill = await collect(stud, '10.00');
    const viewer = w.as(await w.employee({ 'fee/fee_collected': 'view,export' }, false), 'fee', 'fee_collected');
    const res = await call(srv.app, viewer, 'POST', '/api/fee/CollectedFee/cancel', { fee_coll_cd: bill.fee_coll_cd, reason: 'x' });
    expect(res.statusCode).toBe(403);
    expect((await call(srv.app, viewer, 'GET', '/api/fee/CollectedFee')).statusCode).toBe(200);
  });
});
