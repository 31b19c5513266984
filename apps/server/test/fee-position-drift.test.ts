import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows, sql } from '../src/db/client';
import { migrationsDir } from '../src/db/migrate';
import { feePositionDrift } from '../src/db/rebuild-fee-positions';
import { feePositionFunctionBodies, feePositionTriggers } from '../src/db/views/fee-position.ddl';
import { feeWorld } from './fee-fixture';
import { backends, call, startTestServer, type TestServer } from './test-server';

/** The migration that created the fee positions (its functions and backfill were copied in by hand). */
function positionsMigration(): string[] {
  const file = readdirSync(migrationsDir).find((f) => f.endsWith('_fee_positions.sql'))!;
  return readFileSync(join(migrationsDir, file), 'utf8')
    .split('--> statement-breakpoint')
    .map((s) => s.trim())
    .filter(Boolean);
}

describe.each(backends)('fee position functions and backfill on %s', (backend) => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer(backend);
  });
  afterAll(async () => srv?.close());

  it("runs the database functions of fee-position.ddl.ts as written there, with a trigger for every write that changes a position", async () => {
    const fns = await rows<{ proname: string; prosrc: string }>(
      srv.database.db,
      sql`SELECT proname, prosrc FROM pg_proc WHERE proname LIKE 'fee_position%' AND pronamespace = 'public'::regnamespace`,
    );
    expect(Object.fromEntries(fns.map((f) => [f.proname, f.prosrc]))).toEqual(feePositionFunctionBodies);
    // Planned once per connection: a bill must not pay for planning the fee views again.
    const [cfg] = await rows<{ proconfig: string[] | string | null }>(srv.database.db, sql`SELECT proconfig FROM pg_proc WHERE proname = 'fee_position_refresh'`);
    expect(String(cfg.proconfig)).toContain('plan_cache_mode=force_generic_plan');
    // ...while a batch plans for its size: a function's setting would otherwise pass on to the batch it calls.
    const [batch] = await rows<{ proconfig: string[] | string | null }>(srv.database.db, sql`SELECT proconfig FROM pg_proc WHERE proname = 'fee_position_refresh_batch'`);
    expect(String(batch.proconfig)).toContain('plan_cache_mode=auto');
    const trg = await rows<{ tbl: string; tgname: string }>(
      srv.database.db,
      sql`SELECT c.relname AS tbl, t.tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE t.tgname LIKE 'fee_position%' AND NOT t.tgisinternal ORDER BY 1, 2`,
    );
    expect(trg.map((t) => `${t.tbl}.${t.tgname}`).sort()).toEqual(feePositionTriggers.map((t) => `${t.table}.${t.name}`).sort());
  });

  it("backfills a database upgraded with students, bills and discounts already in it", async () => {
    const w = await feeWorld(srv);
    const db = srv.database.db;
    const stud = await w.student(w.secA);
    await w.student(w.secB);
    const counter = w.as(w.admin, 'fee', 'quick_fee_collection');
    const paid = await call(srv.app, counter, 'POST', '/api/fee_collection/collect', {
      stud_cd: stud,
      tnd_typ_cd: w.cash,
      idempotency_key: crypto.randomUUID(),
      lines: [{ fee_cd: w.tuition1, amount: '3000.00' }],
    });
    expect(paid.statusCode, paid.body).toBe(201);
    expect((await call(srv.app, w.as(w.admin, 'student', 'discount'), 'POST', '/api/discount/', { stud_cd: stud, fee_cd: w.books1, disc_amt: '234.50' })).statusCode).toBe(201);
    const before = (await call(srv.app, w.as(w.admin, 'fee', 'fee_management'), 'GET', `/api/fee_collection/${stud}`)).json<Record<string, unknown>>();
    expect(before).toMatchObject({ needtopay: '17234.50', discount: '234.50', fee_coll_amt: '3000.00', balAmt: '14000.00', pendingAmt: '6000.00', fee_dflt_since: '2020-06-30' });

    // As before the migration: no stored positions. Then the migration's own backfill statements.
    await db.execute(sql`DELETE FROM fee_position`);
    expect((await feePositionDrift(db)).length).toBeGreaterThan(0);
    const backfill = positionsMigration().slice(-2);
    expect(backfill.every((s) => s.startsWith('INSERT INTO "fee_position'))).toBe(true);
    for (const s of backfill) await db.execute(sql.raw(s));
    expect(await feePositionDrift(db)).toEqual([]);
    const after = (await call(srv.app, w.as(w.admin, 'fee', 'fee_management'), 'GET', `/api/fee_collection/${stud}`)).json<Record<string, unknown>>();
    expect(after).toEqual(before);
  });
});
