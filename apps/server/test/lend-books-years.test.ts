import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows, sql } from '../src/db/client';
import { libraryWorld, type LibraryWorld } from './lend-books-fixture';
import type { Row } from './student-workflow-fixture';
import { backends, call, startTestServer, type Session, type TestServer } from './test-server';

const msg = (res: { json: <T>() => T }): string => res.json<{ message: string }>().message;

/**
 * A child keeps last year's books after promotion: the desk of the new year sees them, counts them against the
 * limit and takes them back on the child's new row, even once last year is closed. And a return retried with
 * the same attempt key is the first return, not a second one.
 */
describe.each(backends)('the library desk across years, and repeated returns, on %s', (backend) => {
  let srv: TestServer;
  let L: LibraryWorld;
  let y2: number;
  /** The librarian (no 'his students only') at the desk of the new year, signed in as staff: a closed year is closed to them. */
  let issueDesk: Session;
  let returnDesk: Session;

  beforeAll(async () => {
    srv = await startTestServer(backend);
    L = await libraryWorld(srv);
    const yearsPage = L.w.as(L.w.admin, 'institute', 'academic');
    const cur = (await call(srv.app, yearsPage, 'GET', `/api/academic/${L.w.year}`)).json<Row>();
    const start = Number(cur.acdm_strt_yr);
    y2 = await L.w.created(yearsPage, '/api/academic/', { acdm_strt_yr: start + 1, acdm_strt_mn: 'Jun', acdm_end_yr: start + 2, acdm_end_mn: 'Apr' }, 'acdm_cd');
    const librarian = await L.w.employee(
      [
        { module: 'library', page: 'book_checkout', buttons: 'create,view' },
        { module: 'library', page: 'book_checkin', buttons: 'create,view' },
      ],
      false,
    );
    issueDesk = { ...librarian, acdmCd: y2, modulename: 'library', pagename: 'book_checkout' };
    returnDesk = { ...librarian, acdmCd: y2, modulename: 'library', pagename: 'book_checkin' };
  });
  afterAll(async () => srv?.close());

  const holder = async (s: Session, cd: number) => {
    const res = await call(srv.app, s, 'GET', `/api/bookcheckinoutsummary/holder?usr_typ=Student&usr_cd=${cd}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ holder: Row; limit: number; held: number; books: Row[] }>();
  };
  /** The child's row in the new year: same admission number (here in another case, as typed by the office). */
  const nextYearRow = async (studCd: number, secCd = L.w.secA): Promise<number> => {
    const [s] = await rows<{ stud_fs_nm: string; stud_adm_cd: string }>(srv.database.db, sql`SELECT stud_fs_nm, stud_adm_cd FROM student WHERE stud_cd = ${studCd}`);
    return L.w.created({ ...L.w.as(L.w.admin, 'student', 'profile'), acdmCd: y2 }, '/api/student/', { stud_fs_nm: s.stud_fs_nm, stud_adm_cd: s.stud_adm_cd.toLowerCase(), cls_cd: L.w.cls1, sec_cd: secCd }, 'stud_cd');
  };
  const stockRows = async (bkCd: number) =>
    rows<{ usr_cd: number; qty: number }>(srv.database.db, sql`SELECT usr_bk_stk_usr_cd AS usr_cd, usr_bk_stk_qty AS qty FROM book_checkinout_summary WHERE bk_cd = ${bkCd} ORDER BY 1`);

  it("holds last year's books on the new row: listed, counted in the limit, returned there after last year is closed", async () => {
    const a = await L.book(5);
    const b = await L.book(5);
    const old = await L.student();
    expect((await L.issue(L.desk, { usr_typ: 'Student', usr_cd: old, books: [{ bk_cd: a.bk_cd, qty: 2 }] })).statusCode).toBe(201);
    const now = await nextYearRow(old);
    // The office closes last year; the librarian works in the new one.
    const yearsPage = L.w.as(L.w.admin, 'institute', 'academic');
    const y1 = (await call(srv.app, yearsPage, 'GET', `/api/academic/${L.w.year}`)).json<Row>();
    const closed = await call(srv.app, yearsPage, 'PUT', `/api/academic/${L.w.year}`, { acdm_sts: false, row_ver: y1.row_ver });
    expect(closed.statusCode, closed.body).toBe(200);

    const h = await holder(issueDesk, now);
    expect(h.holder).toMatchObject({ usr_cd: now });
    expect(h.held).toBe(2);
    expect(h.books.map((x) => [x.bk_cd, x.qty])).toEqual([[a.bk_cd, 2]]);

    // Two out already: a fresh limit of 3 would let 3 more go.
    const over = await call(srv.app, issueDesk, 'POST', '/api/bookcheckout/issue', { idempotency_key: randomUUID(), usr_typ: 'Student', usr_cd: now, books: [{ bk_cd: b.bk_cd, qty: 2 }] });
    expect(over.statusCode, over.body).toBe(409);
    expect(msg(over)).toMatch(/^A student may hold at most 3 books at once: .+ has 2 out, so 2 more cannot be issued\.$/);
    const one = await call(srv.app, issueDesk, 'POST', '/api/bookcheckout/issue', { idempotency_key: randomUUID(), usr_typ: 'Student', usr_cd: now, books: [{ bk_cd: a.bk_cd, qty: 1 }] });
    expect(one.statusCode, one.body).toBe(201);
    expect(one.json<{ stock: { held: number; books: Row[] } }>().stock).toMatchObject({ held: 3, books: [{ bk_cd: a.bk_cd, qty: 3 }] });

    // Two copies back on this year's row: last year's row (due first) is the one settled.
    const back = await call(srv.app, returnDesk, 'POST', '/api/bookcheckin/return', { usr_typ: 'Student', usr_cd: now, books: [{ bk_barcd: a.bk_barcd, qty: 2 }] });
    expect(back.statusCode, back.body).toBe(201);
    expect(back.json<{ checkin: Row }>().checkin).toMatchObject({ bk_chk_usr_cd: now, bk_chk_tot_qty: 2 });
    expect(await stockRows(a.bk_cd)).toEqual([{ usr_cd: now, qty: 1 }]);
    expect(await L.out(a.bk_cd)).toBe(1);
    const more = await call(srv.app, returnDesk, 'POST', '/api/bookcheckin/return', { usr_typ: 'Student', usr_cd: now, books: [{ bk_cd: a.bk_cd, qty: 2 }] });
    expect(more.statusCode).toBe(409);
    expect(msg(more)).toMatch(/ holds 1 copy of '.+'; 2 cannot be returned\.$/);
    // Last year's row itself is not a holder of this year.
    expect((await call(srv.app, issueDesk, 'GET', `/api/bookcheckinoutsummary/holder?usr_typ=Student&usr_cd=${old}`)).statusCode).toBe(404);
    await call(srv.app, yearsPage, 'PUT', `/api/academic/${L.w.year}`, { acdm_sts: true, row_ver: closed.json<Row>().row_ver });
  });

  it("keeps 'his students only' on this year's row: last year's own student is not this year's", async () => {
    const a = await L.book(5);
    // Last year in the teacher's section B; this year in section A, which the teacher does not have.
    const old = await L.w.created(L.w.as(L.w.admin, 'student', 'profile'), '/api/student/', { stud_fs_nm: 'Kavin', stud_adm_cd: `YRS${Date.now().toString(36)}`, cls_cd: L.w.cls1, sec_cd: L.w.secB }, 'stud_cd');
    expect((await L.issue(L.desk, { usr_typ: 'Student', usr_cd: old, books: [{ bk_cd: a.bk_cd, qty: 1 }] })).statusCode).toBe(201);
    const now = await nextYearRow(old, L.w.secA);
    const teacher = await L.w.employee([{ module: 'library', page: 'book_checkin', buttons: 'create,view' }], true, [L.w.secB]);
    const before = await L.snapshot();
    const res = await call(srv.app, { ...teacher, acdmCd: y2, modulename: 'library', pagename: 'book_checkin' }, 'POST', '/api/bookcheckin/return', { usr_typ: 'Student', usr_cd: now, books: [{ bk_cd: a.bk_cd, qty: 1 }] });
    expect(res.statusCode, res.body).toBe(403);
    expect(msg(res)).toBe('You can only lend books to your own students.');
    expect(await L.snapshot()).toBe(before);
  });

  it('gives the first return back for a retry with the same key, and refuses the key for anything else', async () => {
    const a = await L.book(5);
    const stud = await L.student();
    expect((await L.issue(L.desk, { usr_typ: 'Student', usr_cd: stud, books: [{ bk_cd: a.bk_cd, qty: 3 }] })).statusCode).toBe(201);
    const key = randomUUID();
    const body = { usr_typ: 'Student', usr_cd: stud, books: [{ bk_cd: a.bk_cd, qty: 1 }], idempotency_key: key };
    const first = await L.ret(L.back, body);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json<{ repeated: boolean }>().repeated).toBe(false);
    // The answer was lost; the desk sends the same attempt again (the key in another case changes nothing).
    const again = await L.ret(L.back, { ...body, idempotency_key: key.toUpperCase() });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json<{ checkin: Row; repeated: boolean; stock: { held: number } }>()).toMatchObject({
      repeated: true,
      checkin: { bk_chk_cd: first.json<{ checkin: Row }>().checkin.bk_chk_cd },
      stock: { held: 2 },
    });
    expect(await L.out(a.bk_cd)).toBe(2);
    const before = await L.snapshot();
    for (const other of [{ ...body, books: [{ bk_cd: a.bk_cd, qty: 2 }] }, { ...body, usr_cd: await L.student() }]) {
      const res = await L.ret(L.back, other);
      expect(res.statusCode, res.body).toBe(409);
      expect(msg(res)).toBe('This return key was already used for other books or another holder. Reload the page and try again.');
    }
    expect(await L.snapshot()).toBe(before);
    const short = await L.ret(L.back, { ...body, idempotency_key: 'abc' });
    expect(short.statusCode).toBe(400);
    expect(msg(short)).toBe('The return key is too short. Reload the page and try again.');
  });

  it.runIf(backend === 'postgres')('five returns sent at once with one key move the stock once', async () => {
    const a = await L.book(5);
    const stud = await L.student();
    expect((await L.issue(L.desk, { usr_typ: 'Student', usr_cd: stud, books: [{ bk_cd: a.bk_cd, qty: 3 }] })).statusCode).toBe(201);
    const body = { usr_typ: 'Student', usr_cd: stud, books: [{ bk_cd: a.bk_cd, qty: 1 }], idempotency_key: randomUUID() };
    const answers = await Promise.all(Array.from({ length: 5 }, () => L.ret(L.back, body)));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(new Set(answers.map((r) => r.json<{ checkin: Row }>().checkin.bk_chk_cd)).size).toBe(1);
    expect(await L.out(a.bk_cd)).toBe(2);
  });

  it.runIf(backend === 'postgres')("two desks in two years return the child's last copy at once: one succeeds, the stock never goes below zero", async () => {
    const a = await L.book(5);
    const old = await L.student();
    expect((await L.issue(L.desk, { usr_typ: 'Student', usr_cd: old, books: [{ bk_cd: a.bk_cd, qty: 1 }] })).statusCode).toBe(201);
    const now = await nextYearRow(old);
    const answers = await Promise.all([
      L.ret(L.back, { usr_typ: 'Student', usr_cd: old, books: [{ bk_cd: a.bk_cd, qty: 1 }] }),
      call(srv.app, returnDesk, 'POST', '/api/bookcheckin/return', { usr_typ: 'Student', usr_cd: now, books: [{ bk_cd: a.bk_cd, qty: 1 }] }),
    ]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(await L.out(a.bk_cd)).toBe(0);
    const [{ n }] = await rows<{ n: number }>(srv.database.db, sql`SELECT count(*)::int AS n FROM book_checkin WHERE bk_chk_bk_nms = ${a.bk_nm}`);
    expect(n).toBe(1);
  });
});
