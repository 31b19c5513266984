import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows, sql } from '../src/db/client';
import { localDateTime } from '../src/lib/clock';
import { addDays } from '../src/workflows/lend-books/lend-books.service';
import { libraryWorld, type LibraryWorld } from './lend-books-fixture';
import type { Row } from './student-workflow-fixture';
import { backends, call, startTestServer, type Session, type TestServer } from './test-server';

const msg = (res: { json: <T>() => T }): string => res.json<{ message: string }>().message;

describe.each(backends)('the library desk on %s', (backend) => {
  let srv: TestServer;
  let L: LibraryWorld;
  const today = localDateTime().date;

  beforeAll(async () => {
    srv = await startTestServer(backend);
    L = await libraryWorld(srv);
  });
  afterAll(async () => srv?.close());

  const holder = async (s: Session, typ: string, cd: number) => {
    const res = await call(srv.app, s, 'GET', `/api/bookcheckinoutsummary/holder?usr_typ=${typ}&usr_cd=${cd}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ holder: Row; limit: number; held: number; due_default: string; books: Row[] }>();
  };

  it('issues books by code and by a barcode in any case: one slip, the titles, the due date, the holder\'s stock', async () => {
    const a = await L.book(3);
    const b = await L.book(1);
    const stud = await L.student();
    const res = await L.issue(L.desk, { usr_typ: 'Student', usr_cd: stud, books: [{ bk_cd: a.bk_cd, qty: 2 }, { bk_barcd: b.bk_barcd.toLowerCase(), qty: 1 }] });
    expect(res.statusCode, res.body).toBe(201);
    const issue = res.json<{ issue: Row }>().issue;
    expect(issue).toMatchObject({
      bk_chk_usr_typ: 'Student',
      bk_chk_usr_cd: stud,
      bk_chk_usr_nm: L.w.names.get(stud) ?? expect.stringMatching(/^Reader/),
      bk_chk_bk_nms: `${a.bk_nm} x2, ${b.bk_nm}`,
      bk_chk_bk_cnt: 2,
      bk_chk_tot_qty: 3,
      bk_chk_dt: today,
      bk_chk_due_dt: addDays(today, 14),
    });
    expect(String(issue.bk_chk_tm)).toMatch(/^\d{2}:\d{2}:\d{2}$/);
    const h = await holder(L.desk, 'Student', stud);
    expect(h.limit).toBe(3);
    expect(h.held).toBe(3);
    expect(h.due_default).toBe(addDays(today, 14));
    expect(h.books.map((x) => [x.bk_nm, x.qty, x.due_dt, x.iss_dt, x.days_overdue])).toEqual([
      [a.bk_nm, 2, addDays(today, 14), today, 0],
      [b.bk_nm, 1, addDays(today, 14), today, 0],
    ].sort((x, y) => String(x[0]).localeCompare(String(y[0]))));
    // The Book Issue page lists the slip; the Stock page the holder's rows.
    const list = await call(srv.app, L.desk, 'GET', `/api/bookcheckout/?f_bk_chk_usr_cd=${stud}`);
    expect(list.json<{ rows: Row[] }>().rows.map((r) => r.bk_chk_bk_nms)).toEqual([`${a.bk_nm} x2, ${b.bk_nm}`]);
    const stock = await call(srv.app, L.w.as(L.w.admin, 'library', 'book_checkinout_summary'), 'GET', `/api/bookcheckinoutsummary/?f_usr_bk_stk_usr_cd=${stud}`);
    expect(stock.json<{ rows: Row[] }>().rows.map((r) => [r.bk_nm, r.usr_bk_stk_qty, r.usr_bk_stk_due_dt])).toEqual(
      expect.arrayContaining([[a.bk_nm, 2, addDays(today, 14)], [b.bk_nm, 1, addDays(today, 14)]]),
    );
    // The desk's book finder knows what is left on the shelf.
    const found = await call(srv.app, L.desk, 'GET', `/api/bookcheckout/books?barcode=${b.bk_barcd.toLowerCase()}`);
    expect(found.json<Row[]>()).toEqual([{ bk_cd: b.bk_cd, bk_nm: b.bk_nm, bk_barcd: b.bk_barcd, bk_qty: 1, out: 1, available: 0 }]);
    const unknown = await call(srv.app, L.desk, 'GET', '/api/bookcheckout/books?barcode=NO-SUCH-CODE');
    // A miss is an empty answer, not an error: the desk names the code itself (and the browser logs no failed request).
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json<Row[]>()).toEqual([]);
  });

  it('refuses the last copy twice, a holder over the limit, a due date in the past, an unknown barcode; nothing is written', async () => {
    const one = await L.book(1);
    const many = await L.book(10);
    const s1 = await L.student();
    const s2 = await L.student();
    expect((await L.issue(L.desk, { usr_typ: 'Student', usr_cd: s1, books: [{ bk_cd: one.bk_cd, qty: 1 }] })).statusCode).toBe(201);
    const before = await L.snapshot();
    const refusals: [Row, number, string][] = [
      [{ usr_typ: 'Student', usr_cd: s2, books: [{ bk_cd: one.bk_cd, qty: 1 }] }, 409, `No copy of '${one.bk_nm}' is left.`],
      [{ usr_typ: 'Student', usr_cd: s2, books: [{ bk_cd: many.bk_cd, qty: 2 }, { bk_cd: one.bk_cd, qty: 1 }] }, 409, `No copy of '${one.bk_nm}' is left.`],
      [{ usr_typ: 'Student', usr_cd: s2, books: [{ bk_cd: many.bk_cd, qty: 11 }] }, 409, `Only 10 copies of '${many.bk_nm}' are left; 11 cannot be issued.`],
      [{ usr_typ: 'Student', usr_cd: s1, books: [{ bk_cd: many.bk_cd, qty: 3 }] }, 409, expect.stringContaining('A student may hold at most 3 books at once:') as unknown as string],
      [{ usr_typ: 'Student', usr_cd: s2, books: [{ bk_cd: many.bk_cd, qty: 1 }], due_dt: addDays(today, -1) }, 400, 'The due date cannot be before today.'],
      [{ usr_typ: 'Student', usr_cd: s2, books: [{ bk_barcd: 'NOPE-1', qty: 1 }] }, 400, "No book has the barcode 'NOPE-1'."],
      [{ usr_typ: 'Student', usr_cd: s2, books: [] }, 400, 'Add at least one book.'],
      [{ usr_typ: 'Student', usr_cd: s2, books: [{ bk_cd: many.bk_cd, qty: 0 }] }, 400, 'The quantity must be a whole number from 1.'],
      [{ usr_typ: 'Teacher', usr_cd: s2, books: [{ bk_cd: many.bk_cd, qty: 1 }] }, 400, "'User Type' must be Student or Employee."],
      [{ usr_typ: 'Student', usr_cd: 987_654, books: [{ bk_cd: many.bk_cd, qty: 1 }] }, 404, 'Student 987654 was not found.'],
      [{ usr_typ: 'Employee', usr_cd: 987_654, books: [{ bk_cd: many.bk_cd, qty: 1 }] }, 404, 'Employee 987654 was not found in this institute.'],
    ];
    for (const [body, status, text] of refusals) {
      const res = await L.issue(L.desk, body);
      expect(res.statusCode, `${JSON.stringify(body)}: ${res.body}`).toBe(status);
      expect(msg(res)).toEqual(text);
    }
    const limit = await L.issue(L.desk, { usr_typ: 'Student', usr_cd: s1, books: [{ bk_cd: many.bk_cd, qty: 3 }] });
    expect(msg(limit)).toMatch(/^A student may hold at most 3 books at once: .+ has 1 out, so 3 more cannot be issued\.$/);
    expect(await L.snapshot()).toBe(before);
  });

  it('gives the first issue back for a retry with the same key, and refuses the key for anything else', async () => {
    const a = await L.book(5);
    const stud = await L.student();
    const key = randomUUID();
    const body = { usr_typ: 'Student', usr_cd: stud, books: [{ bk_cd: a.bk_cd, qty: 1 }], idempotency_key: key };
    const first = await L.issue(L.desk, body);
    expect(first.statusCode).toBe(201);
    const again = await L.issue(L.desk, body);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json<{ issue: Row; repeated: boolean }>()).toMatchObject({ repeated: true, issue: { bk_chk_cd: first.json<{ issue: Row }>().issue.bk_chk_cd } });
    expect(await L.out(a.bk_cd)).toBe(1);
    const before = await L.snapshot();
    for (const other of [{ ...body, books: [{ bk_cd: a.bk_cd, qty: 2 }] }, { ...body, usr_cd: await L.student() }]) {
      const res = await L.issue(L.desk, other);
      expect(res.statusCode, res.body).toBe(409);
      expect(msg(res)).toBe('This issue key was already used for other books or another holder. Reload the page and try again.');
    }
    expect(await L.snapshot()).toBe(before);
  });

  it('takes books back: part of them, then the rest (the stock row goes); never more than the holder has out', async () => {
    const a = await L.book(4);
    const b = await L.book(4);
    const emp = await L.w.employee([{ module: 'library', page: 'book', buttons: 'view' }], false);
    const usrCd = emp.usr_cd;
    expect((await L.issue(L.desk, { usr_typ: 'Employee', usr_cd: usrCd, books: [{ bk_cd: a.bk_cd, qty: 3 }, { bk_cd: b.bk_cd, qty: 1 }], due_dt: addDays(today, 30) })).statusCode).toBe(201);
    const before = await L.snapshot();
    const over = await L.ret(L.back, { usr_typ: 'Employee', usr_cd: usrCd, books: [{ bk_cd: b.bk_cd, qty: 1 }, { bk_barcd: a.bk_barcd, qty: 4 }] });
    expect(over.statusCode).toBe(409);
    expect(msg(over)).toBe(`Teacher ${emp.usr_nm} holds 3 copies of '${a.bk_nm}'; 4 cannot be returned.`);
    const other = await L.book(2);
    const none = await L.ret(L.back, { usr_typ: 'Employee', usr_cd: usrCd, books: [{ bk_cd: other.bk_cd, qty: 1 }] });
    expect(msg(none)).toBe(`Teacher ${emp.usr_nm} has no copy of '${other.bk_nm}' out.`);
    expect(await L.snapshot()).toBe(before);

    const part = await L.ret(L.back, { usr_typ: 'Employee', usr_cd: usrCd, books: [{ bk_barcd: a.bk_barcd.toLowerCase(), qty: 2 }, { bk_cd: b.bk_cd, qty: 1 }] });
    expect(part.statusCode, part.body).toBe(201);
    expect(part.json<{ checkin: Row }>().checkin).toMatchObject({ bk_chk_usr_typ: 'Employee', bk_chk_bk_nms: `${a.bk_nm} x2, ${b.bk_nm}`, bk_chk_tot_qty: 3, bk_chk_bk_cnt: 2, bk_chk_dt: today });
    expect(part.json<{ stock: { books: Row[] } }>().stock.books.map((x) => [x.bk_cd, x.qty, x.due_dt])).toEqual([[a.bk_cd, 1, addDays(today, 30)]]);
    expect(await L.out(a.bk_cd)).toBe(1);
    expect(await L.out(b.bk_cd)).toBe(0);
    // Staff Stock shows the employee's copy with its due date.
    const staff = await call(srv.app, L.w.as(L.w.admin, 'library', 'book_checkinout_summary_staff'), 'GET', `/api/bookcheckinoutsummary/staff?f_bk_cd=${a.bk_cd}`);
    expect(staff.json<{ rows: Row[] }>().rows.map((r) => [r.usr_nm, r.usr_bk_stk_qty, r.usr_bk_stk_due_dt, r.days_overdue])).toEqual([[emp.usr_nm, 1, addDays(today, 30), 0]]);
    const rest = await L.ret(L.back, { usr_typ: 'Employee', usr_cd: usrCd, books: [{ bk_cd: a.bk_cd, qty: 1 }] });
    expect(rest.statusCode).toBe(201);
    expect((await holder(L.back, 'Employee', usrCd)).books).toEqual([]);
    const [{ n }] = await rows<{ n: number }>(srv.database.db, sql`SELECT count(*)::int AS n FROM book_checkinout_summary WHERE usr_bk_stk_usr_cd = ${usrCd} AND usr_bk_stk_usr_typ = 'Employee'`);
    expect(n).toBe(0);
  });

  it('keeps the earliest due date of the copies held, and shows a holder what is overdue', async () => {
    const a = await L.book(5);
    const stud = await L.student();
    await L.issue(L.desk, { usr_typ: 'Student', usr_cd: stud, books: [{ bk_cd: a.bk_cd, qty: 1 }], due_dt: addDays(today, 3) });
    await L.issue(L.desk, { usr_typ: 'Student', usr_cd: stud, books: [{ bk_cd: a.bk_cd, qty: 1 }] });
    expect((await holder(L.desk, 'Student', stud)).books.map((x) => [x.qty, x.due_dt])).toEqual([[2, addDays(today, 3)]]);
    // Ten days later (moved back in the database, as time would): overdue by 7.
    await srv.database.db.execute(sql`UPDATE book_checkinout_summary SET usr_bk_stk_due_dt = ${addDays(today, -7)} WHERE usr_bk_stk_usr_cd = ${stud} AND usr_bk_stk_usr_typ = 'Student'`);
    expect((await holder(L.desk, 'Student', stud)).books.map((x) => x.days_overdue)).toEqual([7]);
  });

  it("a book's quantity cannot go below the copies out, and a lent book cannot be deleted", async () => {
    const a = await L.book(3);
    const stud = await L.student();
    await L.issue(L.desk, { usr_typ: 'Student', usr_cd: stud, books: [{ bk_cd: a.bk_cd, qty: 2 }] });
    const page = L.w.as(L.w.admin, 'library', 'book');
    const cur = (await call(srv.app, page, 'GET', `/api/book/${a.bk_cd}`)).json<Row>();
    const low = await call(srv.app, page, 'PUT', `/api/book/${a.bk_cd}`, { ...cur, bk_qty: 1 });
    expect(low.statusCode, low.body).toBe(409);
    expect(msg(low)).toBe(`2 copies of '${a.bk_nm}' are out with borrowers: the quantity cannot be less than 2.`);
    const del = await call(srv.app, page, 'DELETE', '/api/book/', { primids: [a.bk_cd] });
    expect(del.statusCode).toBe(409);
    expect(msg(del)).toBe(`'${a.bk_nm}' cannot be deleted: 2 copies are out with borrowers.`);
    const ok = await call(srv.app, page, 'PUT', `/api/book/${a.bk_cd}`, { ...cur, bk_qty: 2 });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await L.issue(L.desk, { usr_typ: 'Student', usr_cd: await L.student(), books: [{ bk_cd: a.bk_cd, qty: 1 }] })).statusCode).toBe(409);
    await L.ret(L.back, { usr_typ: 'Student', usr_cd: stud, books: [{ bk_cd: a.bk_cd, qty: 2 }] });
    expect((await call(srv.app, page, 'DELETE', '/api/book/', { primids: [a.bk_cd] })).statusCode).toBe(200);
  });

  it("needs the page's create button, and under 'his students only' lends to the teacher's own students only", async () => {
    const a = await L.book(5);
    const viewer = await L.w.employee([{ module: 'library', page: 'book_checkout', buttons: 'view' }], false);
    const noButton = await L.issue({ ...viewer, modulename: 'library', pagename: 'book_checkout' }, { usr_typ: 'Student', usr_cd: L.w.studA[0], books: [{ bk_cd: a.bk_cd, qty: 1 }] });
    expect(noButton.statusCode).toBe(403);
    const teacher = await L.w.employee(
      [
        { module: 'library', page: 'book_checkout', buttons: 'create,view' },
        { module: 'library', page: 'book_checkin', buttons: 'create,view' },
      ],
      true,
      [L.w.secB],
    );
    const desk = { ...teacher, modulename: 'library', pagename: 'book_checkout' };
    const before = await L.snapshot();
    const notOwn = await L.issue(desk, { usr_typ: 'Student', usr_cd: L.w.studA[0], books: [{ bk_cd: a.bk_cd, qty: 1 }] });
    expect(notOwn.statusCode).toBe(403);
    expect(msg(notOwn)).toBe('You can only lend books to your own students.');
    expect(await L.snapshot()).toBe(before);
    const own = await L.issue(desk, { usr_typ: 'Student', usr_cd: L.w.studB[0], books: [{ bk_cd: a.bk_cd, qty: 1 }] });
    expect(own.statusCode, own.body).toBe(201);
    // The holder finder lists only the teacher's students too.
    const found = await call(srv.app, desk, 'GET', '/api/bookcheckout/holders?usr_typ=Student&q=');
    expect(found.json<Row[]>().map((h) => h.usr_cd)).toEqual([L.w.studB[0]]);
  });

  it.runIf(backend === 'postgres')('10 parallel issues of the last copy: exactly one succeeds, nine are told no copy is left', async () => {
    const last = await L.book(1);
    const readers = await Promise.all(Array.from({ length: 10 }, () => L.student()));
    const answers = await Promise.all(readers.map((s) => L.issue(L.desk, { usr_typ: 'Student', usr_cd: s, books: [{ bk_cd: last.bk_cd, qty: 1 }] })));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, ...Array(9).fill(409)]);
    for (const r of answers.filter((x) => x.statusCode === 409)) expect(msg(r)).toBe(`No copy of '${last.bk_nm}' is left.`);
    expect(await L.out(last.bk_cd)).toBe(1);
    const [{ n }] = await rows<{ n: number }>(srv.database.db, sql`SELECT count(*)::int AS n FROM book_checkout WHERE bk_chk_bk_nms = ${last.bk_nm}`);
    expect(n).toBe(1);
  });

  it.runIf(backend === 'postgres')('a quantity lowered while the last copies are being issued never ends below the copies out', async () => {
    const a = await L.book(3);
    const readers = await Promise.all(Array.from({ length: 3 }, () => L.student()));
    const page = L.w.as(L.w.admin, 'library', 'book');
    const cur = (await call(srv.app, page, 'GET', `/api/book/${a.bk_cd}`)).json<Row>();
    const [cut, ...issues] = await Promise.all([
      call(srv.app, page, 'PUT', `/api/book/${a.bk_cd}`, { ...cur, bk_qty: 1 }),
      ...readers.map((s) => L.issue(L.desk, { usr_typ: 'Student', usr_cd: s, books: [{ bk_cd: a.bk_cd, qty: 1 }] })),
    ]);
    const [{ q }] = await rows<{ q: number }>(srv.database.db, sql`SELECT bk_qty AS q FROM book WHERE bk_cd = ${a.bk_cd}`);
    const out = await L.out(a.bk_cd);
    expect(out).toBeLessThanOrEqual(Number(q));
    expect(out).toBe(issues.filter((r) => r.statusCode === 201).length);
    expect([200, 409]).toContain(cut.statusCode);
  });
});
