import { randomUUID } from 'node:crypto';
import { rows, sql } from '../src/db/client';
import { makeFixture, type Fixture, type Row } from './student-workflow-fixture';
import { call, type Session, type TestServer } from './test-server';

export interface LibraryWorld {
  w: Fixture;
  desk: Session;
  back: Session;
  /** A new book with this many copies and a barcode 'BC<n>...'; returns its code, name and barcode. */
  book(qty: number): Promise<{ bk_cd: number; bk_nm: string; bk_barcd: string }>;
  /** A new student of section A. */
  student(): Promise<number>;
  issue(s: Session, body: Row): ReturnType<typeof call>;
  ret(s: Session, body: Row): ReturnType<typeof call>;
  /** Stock rows (holder type|code -> qty) of a book, and the issue/return row counts: what 'nothing written' compares. */
  snapshot(): Promise<string>;
  out(bkCd: number): Promise<number>;
}

let seq = 0;

/** Books, readers and the desk's two sessions for the library tests, made through the API like an office would. */

export async function libraryWorld(srv: TestServer): Promise<LibraryWorld> {
  const w = await makeFixture(srv);
  const desk = w.as(w.admin, 'library', 'book_checkout');
  const back = w.as(w.admin, 'library', 'book_checkin');
  const ctgy = await w.created(w.as(w.admin, 'library', 'book_category'), '/api/category/', { ctgy_nm: `Shelf ${randomUUID().slice(0, 8)}` }, 'ctgy_cd');
  const db = srv.database.db;
  return {
    w,
    desk,
    back,
    async book(qty) {
      const n = `${Date.now().toString(36)}${seq++}`.toUpperCase();
      const body = { bk_nm: `Wings of Fire ${n}`, ctgy_cd: ctgy, bk_qty: qty, bk_barcd: `BC-${n}` };
      const bk_cd = await w.created(w.as(w.admin, 'library', 'book'), '/api/book/', body, 'bk_cd');
      return { bk_cd, bk_nm: body.bk_nm, bk_barcd: body.bk_barcd };
    },
    async student() {
      return w.created(w.as(w.admin, 'student', 'profile'), '/api/student/', { stud_fs_nm: `Reader ${seq++}`, stud_adm_cd: `LIB${Date.now().toString(36)}${seq++}`, cls_cd: w.cls1, sec_cd: w.secA }, 'stud_cd');
    },
    issue: (s, body) => call(srv.app, s, 'POST', '/api/bookcheckout/issue', { idempotency_key: randomUUID(), ...body }),
    ret: (s, body) => call(srv.app, s, 'POST', '/api/bookcheckin/return', body),
    async snapshot() {
      const [c] = await rows<{ i: number; r: number; a: number }>(
        db,
        sql`SELECT (SELECT count(*) FROM book_checkout)::int AS i, (SELECT count(*) FROM book_checkin)::int AS r, (SELECT count(*) FROM action_history WHERE actn_hsty_entity IN ('book_checkout', 'book_checkin'))::int AS a`,
      );
      const k = await rows<Row>(db, sql`SELECT usr_bk_stk_usr_typ, usr_bk_stk_usr_cd, bk_cd, usr_bk_stk_qty, usr_bk_stk_due_dt::text AS due FROM book_checkinout_summary ORDER BY 1, 2, 3`);
      return JSON.stringify({ c, k });
    },
    async out(bkCd) {
      const [r] = await rows<{ n: number }>(db, sql`SELECT coalesce(sum(usr_bk_stk_qty), 0)::int AS n FROM book_checkinout_summary WHERE bk_cd = ${bkCd}`);
      return Number(r.n);
    },
  };
}

