import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows, sql } from '../src/db/client';
import { makeFixture, type Fixture, type Row } from './student-workflow-fixture';
import { backends, call, type Session, type TestServer, startTestServer } from './test-server';

describe.each(backends)('wallet ledger (%s)', (backend) => {
  let srv: TestServer;
  let f: Fixture;
  let office: Session;
  let statement: Session;

  beforeAll(async () => {
    srv = await startTestServer(backend);
    f = await makeFixture(srv);
    office = f.as(f.admin, 'student', 'wallet');
    statement = f.as(f.admin, 'student', 'wallet_transaction');
  }, 120_000);
  afterAll(async () => srv?.close());

  const post = (s: Session, url: string, body: unknown) => call(srv.app, s, 'POST', url, body);
  const move = (wlt: number, kind: string, amount: string, reason = 'Canteen', key: string = randomUUID(), s: Session = office) =>
    post(s, `/api/wallet/${wlt}/${kind}`, { amount, reason, idempotency_key: key });
  const walletRow = async (wlt: number) => (await call(srv.app, office, 'GET', `/api/wallet/${wlt}`)).json<Row>();
  const movements = async (wlt: number) =>
    (await call(srv.app, statement, 'GET', `/api/wallet_transaction/?f_wlt_cd=${wlt}&size=500&sort=wlt_txn_cd&dir=asc`)).json<{ rows: Row[] }>().rows;
  const ledger = async (wlt: number) => {
    const [r] = await rows<{ n: number; s: string; bal: string }>(
      srv.database.db,
      sql`SELECT count(t.wlt_txn_cd)::int AS n, coalesce(sum(t.wlt_txn_amt), 0)::text AS s, w.wlt_amt::text AS bal
          FROM wallet w LEFT JOIN wallet_transaction t ON t.wlt_cd = w.wlt_cd WHERE w.wlt_cd = ${wlt} GROUP BY w.wlt_amt`,
    );
    return { n: Number(r.n), sum: Number(r.s).toFixed(2), balance: Number(r.bal).toFixed(2) };
  };
  const newWallet = async (stud: number) => f.created(office, '/api/wallet/', { stud_cd: stud }, 'wlt_cd');
  const newStudent = async (name: string) =>
    f.created(f.as(f.admin, 'student', 'profile'), '/api/student/', { stud_fs_nm: name, stud_adm_cd: `WL${randomUUID().slice(0, 8)}`, cls_cd: f.cls1, sec_cd: f.secA }, 'stud_cd');

  it('opens a wallet at 0.00, one per student, and a PUT cannot type a balance', async () => {
    const wlt = await newWallet(f.studA[0]);
    expect((await walletRow(wlt)).wlt_amt).toBe('0.00');
    const again = await post(office, '/api/wallet/', { stud_cd: f.studA[0] });
    expect(again.statusCode).toBe(409);
    expect(again.json<{ message: string }>().message).toBe('This student already has a wallet.');
    const typed = await post(office, '/api/wallet/', { stud_cd: f.studA[1], wlt_amt: '500.00' });
    expect(typed.statusCode).toBe(400);
    const row = await walletRow(wlt);
    const put = await call(srv.app, office, 'PUT', `/api/wallet/${wlt}`, { wlt_amt: '900.00', row_ver: row.row_ver });
    expect(put.statusCode).toBe(400);
    expect(await ledger(wlt)).toEqual({ n: 0, sum: '0.00', balance: '0.00' });
  });

  it('tops up, spends and refunds: one movement each, the balance is their sum, the answer is the wallet and the movement', async () => {
    const wlt = await newWallet(f.studA[1]);
    const up = await move(wlt, 'topup', '100.50', '  Pocket money ');
    expect(up.statusCode, up.body).toBe(201);
    const body = up.json<Row & { transaction: Row; repeated: boolean }>();
    expect(body).toMatchObject({ wlt_cd: wlt, stud_cd: f.studA[1], wlt_amt: '100.50', repeated: false });
    expect(body.usr_full_nm).toBeTruthy();
    expect(body.transaction).toMatchObject({ wlt_cd: wlt, wlt_txn_typ: 'Top-up', wlt_txn_amt: '100.50', wlt_txn_bal: '100.50', wlt_txn_rsn: 'Pocket money' });
    expect((await move(wlt, 'spend', '30')).json<Row>().wlt_amt).toBe('70.50');
    expect((await move(wlt, 'refund', '20.50', 'Left the canteen plan')).json<Row>().wlt_amt).toBe('50.00');
    expect((await walletRow(wlt)).wlt_amt).toBe('50.00');
    // The statement reads down: each movement signed, with the balance after it.
    expect((await movements(wlt)).map((m) => [m.wlt_txn_typ, m.wlt_txn_amt, m.wlt_txn_bal])).toEqual([
      ['Top-up', '100.50', '100.50'],
      ['Spend', '-30.00', '70.50'],
      ['Refund', '-20.50', '50.00'],
    ]);
    expect(await ledger(wlt)).toEqual({ n: 3, sum: '50.00', balance: '50.00' });
  });

  it('answers a retry with the same key with the first movement, and refuses the key for another body', async () => {
    const wlt = await newWallet(f.studA[2]);
    const key = randomUUID();
    const first = await move(wlt, 'topup', '40', 'Canteen', key);
    expect(first.statusCode).toBe(201);
    const again = await move(wlt, 'topup', '40.00', 'Canteen', key);
    expect(again.statusCode).toBe(200);
    expect(again.json<Row & { transaction: Row }>()).toMatchObject({ wlt_amt: '40.00', repeated: true });
    expect(again.json<{ transaction: Row }>().transaction.wlt_txn_cd).toBe(first.json<{ transaction: Row }>().transaction.wlt_txn_cd);
    const message = 'This request key was already used for another wallet movement (another wallet, amount or reason). Reload the page and try again.';
    for (const other of [move(wlt, 'topup', '41', 'Canteen', key), move(wlt, 'topup', '40', 'Books', key), move(wlt, 'spend', '40', 'Canteen', key)]) {
      const res = await other;
      expect(res.statusCode).toBe(409);
      expect(res.json<{ message: string }>().message).toBe(message);
    }
    expect(await ledger(wlt)).toEqual({ n: 1, sum: '40.00', balance: '40.00' });
  });

  it('never goes below zero: a spend or refund over the balance is a 409 with the ledger message, nothing written', async () => {
    const wlt = await newWallet(f.studB[0]);
    await move(wlt, 'topup', '50');
    for (const kind of ['spend', 'refund']) {
      const res = await move(wlt, kind, '50.01');
      expect(res.statusCode).toBe(409);
      expect(res.json<{ message: string }>().message).toBe(`Wallet no. ${wlt} has only 50.00; 50.01 cannot be taken from it.`);
    }
    expect(await ledger(wlt)).toEqual({ n: 1, sum: '50.00', balance: '50.00' });
    expect((await move(wlt, 'spend', '50')).json<Row>().wlt_amt).toBe('0.00');
  });

  it("refuses a bad body with the dialog's messages, and writes nothing", async () => {
    const wlt = await newWallet(f.studC[0]);
    const cases: [unknown, string][] = [
      [{ amount: '', reason: 'x', idempotency_key: randomUUID() }, "Please fill the 'Amount'."],
      [{ amount: '0.00', reason: 'x', idempotency_key: randomUUID() }, "'Amount' must be more than 0."],
      [{ amount: '-5', reason: 'x', idempotency_key: randomUUID() }, "'Amount' must be an amount with at most 2 decimals."],
      [{ amount: '1.234', reason: 'x', idempotency_key: randomUUID() }, "'Amount' must be an amount with at most 2 decimals."],
      [{ amount: '1000000.01', reason: 'x', idempotency_key: randomUUID() }, "'Amount' is too large."],
      [{ amount: '5', reason: '   ', idempotency_key: randomUUID() }, "Please enter the 'Reason'."],
      [{ amount: '5', reason: 'x'.repeat(201), idempotency_key: randomUUID() }, "'Reason' must be at most 200 characters."],
      [{ amount: '5', reason: 'x' }, 'The request key is missing. Reload the page and try again.'],
      [{ amount: '5', reason: 'x', idempotency_key: randomUUID(), wlt_amt: '9' }, 'Unrecognized key: "wlt_amt"'],
    ];
    for (const [body, message] of cases) {
      const res = await post(office, `/api/wallet/${wlt}/topup`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json<{ message: string }>().message).toBe(message);
    }
    expect((await post(office, '/api/wallet/abc/topup', { amount: '5', reason: 'x', idempotency_key: randomUUID() })).statusCode).toBe(400);
    expect((await move(999_999, 'topup', '5')).statusCode).toBe(404);
    expect(await ledger(wlt)).toEqual({ n: 0, sum: '0.00', balance: '0.00' });
  });

  it('deletes a wallet only while nothing has moved through it', async () => {
    const used = await newWallet(await newStudent('Used Wallet'));
    await move(used, 'topup', '10');
    await move(used, 'spend', '10');
    const refused = await call(srv.app, office, 'DELETE', '/api/wallet/', { primids: [used] });
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ message: string }>().message).toBe(`Wallet no. ${used} has movements; a wallet is deleted only while nothing has moved through it.`);
    expect(await ledger(used)).toEqual({ n: 2, sum: '0.00', balance: '0.00' });
    const unused = await newWallet(await newStudent('Unused Wallet'));
    expect((await call(srv.app, office, 'DELETE', '/api/wallet/', { primids: [unused] })).statusCode).toBe(200);
    expect((await call(srv.app, office, 'GET', `/api/wallet/${unused}`)).statusCode).toBe(404);
  });

  it("needs the page's own button, and moves only his students' wallets under data_chk", async () => {
    const wlt = await newWallet(await newStudent('Button Check'));
    await move(wlt, 'topup', '20');
    const viewer = f.as(await f.employee([{ module: 'student', page: 'wallet', buttons: 'view,topup' }], false), 'student', 'wallet');
    expect((await move(wlt, 'spend', '5', 'x', randomUUID(), viewer)).statusCode).toBe(403);
    expect((await move(wlt, 'refund', '5', 'x', randomUUID(), viewer)).statusCode).toBe(403);
    expect((await move(wlt, 'topup', '5', 'x', randomUUID(), viewer)).statusCode).toBe(201);

    const teacher = f.as(await f.employee([{ module: 'student', page: 'wallet', buttons: 'view,topup,spend' }], true, [f.secB]), 'student', 'wallet');
    // The wallet's child is in section A: not his, so not found, as a get of it is.
    expect((await call(srv.app, teacher, 'GET', `/api/wallet/${wlt}`)).statusCode).toBe(404);
    expect((await move(wlt, 'spend', '5', 'x', randomUUID(), teacher)).statusCode).toBe(404);
    expect(await ledger(wlt)).toEqual({ n: 2, sum: '25.00', balance: '25.00' });
  });

  it("does not find another academic year's wallet", async () => {
    const years = (await call(srv.app, f.as(f.admin, 'institute', 'academic'), 'GET', '/api/academic/?size=50')).json<{ rows: Row[] }>().rows;
    const cur = years.find((y) => Number(y.acdm_cd) === f.year);
    const other = await f.created(f.as(f.admin, 'institute', 'academic'), '/api/academic/', {
      acdm_strt_yr: Number(cur?.acdm_strt_yr) + 5,
      acdm_strt_mn: 'Jun',
      acdm_end_yr: Number(cur?.acdm_strt_yr) + 6,
      acdm_end_mn: 'Apr',
    }, 'acdm_cd');
    const stud = await newStudent('Other Year');
    const [{ id }] = await rows<{ id: number }>(
      srv.database.db,
      sql`INSERT INTO wallet (stud_cd, wlt_amt, inst_cd, acdm_cd, crt_by) VALUES (${stud}, 0, ${f.admin.instCd}, ${other}, ${f.admin.usr_cd}) RETURNING wlt_cd AS id`,
    );
    const res = await move(Number(id), 'topup', '5');
    expect(res.statusCode).toBe(404);
    expect(await ledger(Number(id))).toEqual({ n: 0, sum: '0.00', balance: '0.00' });
  });

  it.runIf(backend === 'postgres')('lets only the spends that fit through when ten run at once, and one movement per key', async () => {
    const wlt = await newWallet(await newStudent('Parallel Spends'));
    await move(wlt, 'topup', '100');
    const results = await Promise.all(Array.from({ length: 10 }, () => move(wlt, 'spend', '30')));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([201, 201, 201, 409, 409, 409, 409, 409, 409, 409]);
    for (const r of results.filter((x) => x.statusCode === 409)) expect(r.json<{ message: string }>().message).toMatch(/^Wallet no\. \d+ has only (10|40|70)\.00; 30\.00 cannot be taken from it\.$/);
    expect(await ledger(wlt)).toEqual({ n: 4, sum: '10.00', balance: '10.00' });

    // A double click sent five times at once: one top-up, every answer names it.
    const key = randomUUID();
    const same = await Promise.all(Array.from({ length: 5 }, () => move(wlt, 'topup', '15', 'Canteen', key)));
    expect(same.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(new Set(same.map((r) => r.json<{ transaction: Row }>().transaction.wlt_txn_cd)).size).toBe(1);
    expect(await ledger(wlt)).toEqual({ n: 5, sum: '25.00', balance: '25.00' });
  }, 60_000);
});
