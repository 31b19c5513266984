import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows, sql } from '../src/db/client';
import { fromPaise, toPaise } from '../src/lib/paise';
import { feeWorld, type FeeWorld } from './fee-fixture';
import { backends, call, startTestServer, type Session, type TestServer } from './test-server';

type Row = Record<string, unknown>;

describe.each(backends)('paying fees from the wallet on %s', (backend) => {
  let srv: TestServer;
  let w: FeeWorld;
  let counter: Session;
  let office: Session;
  let walletTnd: number;

  beforeAll(async () => {
    srv = await startTestServer(backend);
    w = await feeWorld(srv);
    counter = w.as(w.admin, 'fee', 'quick_fee_collection');
    office = w.as(w.admin, 'fee', 'fee_collected');
    walletTnd = await w.walletTender();
  });
  afterAll(async () => srv?.close());

  /** Top-up, spend and refund through the Wallet page's own routes; false when the ledger refused (409). */
  const move = async (wltCd: number, type: 'Top-up' | 'Spend' | 'Refund', paise: number): Promise<boolean> => {
    const path = { 'Top-up': 'topup', Spend: 'spend', Refund: 'refund' }[type];
    const res = await call(srv.app, w.as(w.admin, 'student', 'wallet'), 'POST', `/api/wallet/${wltCd}/${path}`, {
      amount: fromPaise(Math.abs(paise)),
      reason: `${type} by the property test`,
      idempotency_key: randomUUID(),
    });
    if (res.statusCode === 409) return false;
    expect(res.statusCode, res.body).toBe(201);
    return true;
  };
  const balance = async (wltCd: number): Promise<{ balance: number; sum: number }> => {
    const [r] = await rows<{ amt: string; sum: string }>(
      srv.database.db,
      sql`SELECT w.wlt_amt::text AS amt, (SELECT coalesce(sum(t.wlt_txn_amt), 0)::text FROM wallet_transaction t WHERE t.wlt_cd = w.wlt_cd) AS sum FROM wallet w WHERE w.wlt_cd = ${wltCd}`,
    );
    return { balance: toPaise(r.amt), sum: toPaise(r.sum) };
  };
  const movements = (wltCd: number) =>
    rows<{ typ: string; amt: string; bal: string; rsn: string; fee_coll_cd: number | null }>(
      srv.database.db,
      sql`SELECT wlt_txn_typ AS typ, wlt_txn_amt::text AS amt, wlt_txn_bal::text AS bal, wlt_txn_rsn AS rsn, fee_coll_cd FROM wallet_transaction WHERE wlt_cd = ${wltCd} ORDER BY wlt_txn_cd`,
    );
  const payFromWallet = (stud: number, amount: string, key = randomUUID()) =>
    call(srv.app, counter, 'POST', '/api/fee_collection/collect', { stud_cd: stud, tnd_typ_cd: walletTnd, idempotency_key: key, lines: [{ fee_cd: w.tuition2, amount }] });
  const tuition2Due = async (stud: number): Promise<string> =>
    (await call(srv.app, counter, 'GET', `/api/fee_collection/student/${stud}/dues`)).json<{ lines: Row[] }>().lines.find((l) => l.fee_cd === w.tuition2)!.due as string;
  const billCount = async (stud: number): Promise<number> =>
    (await call(srv.app, office, 'GET', `/api/fee/CollectedFee?f_stud_cd=${stud}&size=500`)).json<{ total: number }>().total;

  it("shows the wallet's balance with the dues and debits it in the bill's transaction", async () => {
    const stud = await w.student(w.secA);
    const wlt = await w.wallet(stud);
    expect(await move(wlt, 'Top-up', 100_000)).toBe(true);
    const dues = await call(srv.app, counter, 'GET', `/api/fee_collection/student/${stud}/dues`);
    expect(dues.json<{ wallet: Row; tenders: Row[] }>().wallet).toEqual({ wlt_cd: wlt, balance: '1000.00' });
    expect(dues.json<{ tenders: Row[] }>().tenders.map((t) => t.tnd_typ_nm)).toContain('Wallet');
    const res = await payFromWallet(stud, '600.00');
    expect(res.statusCode, res.body).toBe(201);
    const bill = res.json<{ bill: Row }>().bill;
    expect(bill).toMatchObject({ fee_coll_amt: '600.00', tnd_typ_nm: 'Wallet' });
    expect(await balance(wlt)).toEqual({ balance: 40_000, sum: 40_000 });
    expect((await movements(wlt)).at(-1)).toEqual({ typ: 'Fee Payment', amt: '-600.00', bal: '400.00', rsn: `Bill no. ${String(bill.fee_coll_bill_no)}`, fee_coll_cd: bill.fee_coll_cd });
    const again = await call(srv.app, counter, 'GET', `/api/fee_collection/student/${stud}/dues`);
    expect(again.json<{ wallet: Row }>().wallet).toEqual({ wlt_cd: wlt, balance: '400.00' });
  });

  it('refuses a bill above the balance with the ledger message, and one for a child without a wallet; nothing written', async () => {
    const stud = await w.student(w.secA);
    const wlt = await w.wallet(stud);
    await move(wlt, 'Top-up', 40_000);
    const res = await payFromWallet(stud, '400.01');
    expect(res.statusCode).toBe(409);
    expect(res.json<{ message: string }>().message).toBe(`Wallet no. ${wlt} has only 400.00; 400.01 cannot be taken from it.`);
    expect(await billCount(stud)).toBe(0);
    expect(await tuition2Due(stud)).toBe('8000.00');
    expect(await balance(wlt)).toEqual({ balance: 40_000, sum: 40_000 });
    expect((await movements(wlt)).length).toBe(1);

    const none = await w.student(w.secA);
    const refused = await payFromWallet(none, '1.00');
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ message: string }>().message).toBe('This student has no wallet to pay from.');
    expect(await billCount(none)).toBe(0);
  });

  it('cancelling credits the wallet back; undoing debits again, refused while the balance is short', async () => {
    const stud = await w.student(w.secA);
    const wlt = await w.wallet(stud);
    await move(wlt, 'Top-up', 100_000);
    const bill = (await payFromWallet(stud, '600.00')).json<{ bill: Row }>().bill;
    const cancel = await call(srv.app, office, 'POST', '/api/fee/CollectedFee/cancel', { fee_coll_cd: bill.fee_coll_cd, reason: 'Paid twice' });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(await balance(wlt)).toEqual({ balance: 100_000, sum: 100_000 });
    expect((await movements(wlt)).at(-1)).toMatchObject({ typ: 'Fee Cancelled', amt: '600.00', bal: '1000.00', fee_coll_cd: bill.fee_coll_cd });
    expect(await move(wlt, 'Spend', -70_000)).toBe(true);
    const short = await call(srv.app, office, 'POST', '/api/fee/CollectedFee/undo-cancel', { fee_coll_cd: bill.fee_coll_cd });
    expect(short.statusCode).toBe(409);
    expect(short.json<{ message: string }>().message).toBe(`Wallet no. ${wlt} has only 300.00; 600.00 cannot be taken from it.`);
    expect(await tuition2Due(stud)).toBe('8000.00');
    const still = await call(srv.app, office, 'GET', `/api/fee/CollectedFee/${String(bill.fee_coll_cd)}`);
    expect(still.json<Row>().fee_coll_sts).toBe('Cancelled');
    await move(wlt, 'Top-up', 30_000);
    const undo = await call(srv.app, office, 'POST', '/api/fee/CollectedFee/undo-cancel', { fee_coll_cd: bill.fee_coll_cd });
    expect(undo.statusCode, undo.body).toBe(200);
    expect(await balance(wlt)).toEqual({ balance: 0, sum: 0 });
    expect(await tuition2Due(stud)).toBe('7400.00');
  });

  it('a cash bill leaves the wallet alone when cancelled', async () => {
    const stud = await w.student(w.secA);
    const wlt = await w.wallet(stud);
    await move(wlt, 'Top-up', 5_000);
    const cash = await call(srv.app, counter, 'POST', '/api/fee_collection/collect', { stud_cd: stud, tnd_typ_cd: w.cash, idempotency_key: randomUUID(), lines: [{ fee_cd: w.tuition2, amount: '10.00' }] });
    await call(srv.app, office, 'POST', '/api/fee/CollectedFee/cancel', { fee_coll_cd: cash.json<{ bill: Row }>().bill.fee_coll_cd, reason: 'Wrong' });
    expect((await movements(wlt)).length).toBe(1);
    expect(await balance(wlt)).toEqual({ balance: 5_000, sum: 5_000 });
  });

  it.runIf(backend === 'postgres')('of 5 wallet bills at once over the balance, only those that fit go through', async () => {
    const stud = await w.student(w.secA);
    const wlt = await w.wallet(stud);
    await move(wlt, 'Top-up', 100_000);
    const all = await Promise.all([1, 2, 3, 4, 5].map(() => payFromWallet(stud, '300.00')));
    expect(all.map((r) => r.statusCode).sort()).toEqual([201, 201, 201, 409, 409]);
    expect(await billCount(stud)).toBe(3);
    expect(await balance(wlt)).toEqual({ balance: 10_000, sum: 10_000 });
  });

  it.runIf(backend === 'postgres')('takes wallet bills at the counter and top-ups and spends on the wallet page of one child at once without a deadlock', async () => {
    const stud = await w.student(w.secA);
    const wlt = await w.wallet(stud);
    await move(wlt, 'Top-up', 50_000);
    const wallet = w.as(w.admin, 'student', 'wallet');
    const page = (path: 'topup' | 'spend', amount: string) =>
      call(srv.app, wallet, 'POST', `/api/wallet/${wlt}/${path}`, { amount, reason: 'At the same time as the counter', idempotency_key: randomUUID() });
    const all = await Promise.all(
      Array.from({ length: 8 }, (_, i) => [payFromWallet(stud, '10.00'), page('topup', '10.00'), page('spend', i % 2 ? '5.00' : '7.00')]).flat(),
    );
    // A deadlock PostgreSQL broke would surface as a refusal of its own (or a 500): every movement must land.
    expect(all.map((r) => r.statusCode).filter((c) => c !== 201), all.map((r) => r.body).join('\n')).toEqual([]);
    expect(await billCount(stud)).toBe(8);
    const b = await balance(wlt);
    expect(b.balance).toBe(b.sum);
    expect(b.balance).toBe(50_000 - 8 * 1_000 + 8 * 1_000 - 4 * 500 - 4 * 700);
  });

  type Step =
    | { kind: 'Top-up' | 'Spend' | 'Refund' | 'pay'; paise: number }
    | { kind: 'cancel' | 'undo'; pick: number };

  const step: fc.Arbitrary<Step> = fc.oneof(
    fc.record({ kind: fc.constantFrom('Top-up' as const, 'Spend' as const, 'Refund' as const, 'pay' as const), paise: fc.integer({ min: 1, max: 50_000 }) }),
    fc.record({ kind: fc.constantFrom('cancel' as const, 'undo' as const), pick: fc.nat({ max: 20 }) }),
  );

  it('keeps every balance at or above zero and equal to its movements, whatever the sequence (fast-check)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        const stud = await w.student(w.secA);
        const wlt = await w.wallet(stud);
        let model = 0;
        const bills: { cd: number; paise: number; active: boolean }[] = [];
        for (const s of steps) {
          if (s.kind === 'Top-up' || s.kind === 'Spend' || s.kind === 'Refund') {
            const signed = s.kind === 'Top-up' ? s.paise : -s.paise;
            const ok = await move(wlt, s.kind, signed);
            expect(ok).toBe(model + signed >= 0);
            if (ok) model += signed;
          } else if (s.kind === 'pay') {
            const res = await payFromWallet(stud, fromPaise(s.paise));
            expect(res.statusCode, res.body).toBe(model >= s.paise ? 201 : 409);
            if (res.statusCode === 201) {
              model -= s.paise;
              bills.push({ cd: Number(res.json<{ bill: Row }>().bill.fee_coll_cd), paise: s.paise, active: true });
            }
          } else if ('pick' in s && bills.length > 0) {
            const b = bills[s.pick % bills.length];
            const path = s.kind === 'cancel' ? 'cancel' : 'undo-cancel';
            const res = await call(srv.app, office, 'POST', `/api/fee/CollectedFee/${path}`, { fee_coll_cd: b.cd, reason: 'Property test' });
            const fits = s.kind === 'cancel' ? b.active : !b.active && model >= b.paise;
            expect(res.statusCode, res.body).toBe(fits ? 200 : 409);
            if (fits) {
              model += s.kind === 'cancel' ? b.paise : -b.paise;
              b.active = s.kind !== 'cancel';
            }
          }
          const now = await balance(wlt);
          expect(now.balance).toBeGreaterThanOrEqual(0);
          expect(now.balance).toBe(now.sum);
          expect(now.balance).toBe(model);
        }
        // Each bill's wallet movements: the whole amount out while it is active, nothing net once cancelled.
        for (const b of bills) {
          const [m] = await rows<{ net: string }>(srv.database.db, sql`SELECT coalesce(sum(wlt_txn_amt), 0)::text AS net FROM wallet_transaction WHERE fee_coll_cd = ${b.cd}`);
          expect(toPaise(m.net)).toBe(b.active ? -b.paise : 0);
        }
      }),
      { numRuns: 25 },
    );
  }, 120_000);
});
