import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows, sql } from '../src/db/client';
import { libraryWorld, type LibraryWorld } from './lend-books-fixture';
import { backends, call, startTestServer, type TestServer } from './test-server';

interface Holder {
  typ: 'Student' | 'Employee';
  cd: number;
  limit: number;
}

interface Step {
  op: 'issue' | 'return';
  holder: number;
  lines: { book: number; qty: number }[];
}

const step = (holders: number, books: number): fc.Arbitrary<Step> =>
  fc.record({
    op: fc.constantFrom<'issue' | 'return'>('issue', 'issue', 'return'),
    holder: fc.integer({ min: 0, max: holders - 1 }),
    lines: fc.uniqueArray(fc.record({ book: fc.integer({ min: 0, max: books - 1 }), qty: fc.integer({ min: 1, max: 2 }) }), { minLength: 1, maxLength: books, selector: (l) => l.book }),
  });

describe.each(backends)('issue and return in any order on %s', (backend) => {
  let srv: TestServer;
  let L: LibraryWorld;
  let holders: Holder[];

  beforeAll(async () => {
    srv = await startTestServer(backend);
    L = await libraryWorld(srv);
    const emp = await L.w.employee([{ module: 'library', page: 'book', buttons: 'view' }], false);
    holders = [
      { typ: 'Student', cd: await L.student(), limit: 3 },
      { typ: 'Student', cd: await L.student(), limit: 3 },
      { typ: 'Employee', cd: emp.usr_cd, limit: 10 },
    ];
  });
  afterAll(async () => srv?.close());

  it("keeps every book's copies out between 0 and its quantity, equal to issues minus returns, and each holder's stock equal to theirs", async () => {
    const db = srv.database.db;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 2, maxLength: 3 }), fc.array(step(3, 3), { minLength: 1, maxLength: 10 }), async (quantities, steps) => {
        const books = await Promise.all(quantities.map((q) => L.book(q)));
        const [{ i0, r0 }] = await rows<{ i0: number; r0: number }>(db, sql`SELECT coalesce(max(bk_chk_cd), 0) AS i0, (SELECT coalesce(max(bk_chk_cd), 0) FROM book_checkin) AS r0 FROM book_checkout`);
        // held[h][b]: the model of what each holder has out of each book.
        const held = holders.map(() => books.map(() => 0));
        const outOf = (b: number) => held.reduce((a, h) => a + h[b], 0);
        try {
          for (const s of steps) {
            const lines = s.lines.filter((l) => l.book < books.length);
            if (lines.length === 0) continue;
            const h = holders[s.holder];
            const body = { usr_typ: h.typ, usr_cd: h.cd, books: lines.map((l) => ({ bk_cd: books[l.book].bk_cd, qty: l.qty })) };
            let ok: boolean;
            if (s.op === 'issue') {
              const asked = lines.reduce((a, l) => a + l.qty, 0);
              const mine = held[s.holder].reduce((a, n) => a + n, 0);
              ok = lines.every((l) => outOf(l.book) + l.qty <= quantities[l.book]) && mine + asked <= h.limit;
              const res = await L.issue(L.desk, body);
              expect(res.statusCode, `${JSON.stringify(s)}: ${res.body}`).toBe(ok ? 201 : 409);
            } else {
              ok = lines.every((l) => l.qty <= held[s.holder][l.book]);
              const res = await L.ret(L.back, body);
              expect(res.statusCode, `${JSON.stringify(s)}: ${res.body}`).toBe(ok ? 201 : 409);
            }
            if (ok) for (const l of lines) held[s.holder][l.book] += s.op === 'issue' ? l.qty : -l.qty;

            const ids = books.map((b) => b.bk_cd);
            const stock = await rows<{ typ: string; cd: number; bk_cd: number; qty: number }>(
              db,
              sql`SELECT usr_bk_stk_usr_typ AS typ, usr_bk_stk_usr_cd AS cd, bk_cd, usr_bk_stk_qty AS qty FROM book_checkinout_summary
                  WHERE bk_cd IN (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`,
            );
            for (const [b, book] of books.entries()) {
              const out = stock.filter((r) => Number(r.bk_cd) === book.bk_cd).reduce((a, r) => a + Number(r.qty), 0);
              expect(out).toBeGreaterThanOrEqual(0);
              expect(out).toBeLessThanOrEqual(quantities[b]);
              expect(out).toBe(outOf(b));
            }
            for (const [x, hh] of holders.entries()) {
              const mine = stock.filter((r) => r.typ === hh.typ && Number(r.cd) === hh.cd);
              // No row at zero: Stock lists what is out.
              expect(mine.every((r) => Number(r.qty) > 0)).toBe(true);
              expect(books.map((book) => Number(mine.find((r) => Number(r.bk_cd) === book.bk_cd)?.qty ?? 0))).toEqual(held[x]);
              // The slips written in this run add up to the same: issued minus returned.
              const [m] = await rows<{ i: number; r: number }>(
                db,
                sql`SELECT (SELECT coalesce(sum(bk_chk_tot_qty), 0)::int FROM book_checkout WHERE bk_chk_cd > ${i0} AND bk_chk_usr_typ = ${hh.typ} AND bk_chk_usr_cd = ${hh.cd}) AS i,
                           (SELECT coalesce(sum(bk_chk_tot_qty), 0)::int FROM book_checkin WHERE bk_chk_cd > ${r0} AND bk_chk_usr_typ = ${hh.typ} AND bk_chk_usr_cd = ${hh.cd}) AS r`,
              );
              expect(Number(m.i) - Number(m.r)).toBe(held[x].reduce((a, n) => a + n, 0));
            }
          }
        } finally {
          // Everyone brings everything back, so the next run starts with empty hands (and within the limits).
          for (const hh of holders) {
            const res = await call(srv.app, L.back, 'GET', `/api/bookcheckinoutsummary/holder?usr_typ=${hh.typ}&usr_cd=${hh.cd}`);
            const out = res.json<{ books: { bk_cd: number; qty: number }[] }>().books;
            if (out.length) expect((await L.ret(L.back, { usr_typ: hh.typ, usr_cd: hh.cd, books: out.map((b) => ({ bk_cd: b.bk_cd, qty: b.qty })) })).statusCode).toBe(201);
          }
        }
      }),
      { numRuns: 15 },
    );
  }, 120_000);
});
