import { entity } from '@campus/entities/registry';
import type { RequestContext } from '../../access/request-context';
import { rows, sql, type Db, type DbOrTx, type Tx } from '../../db/client';
import { writeAudit } from '../../engine/audit';
import { getRow } from '../../engine/crud.service';
import type { Row } from '../../engine/entity-hooks';
import { localDateTime } from '../../lib/clock';
import { badRequest, conflict, forbidden, HttpError, notFound } from '../../lib/http-error';
import { studentFor } from '../collect-fee/collect-fee.handler';
import { settingNumber } from '../setting/institute-setting';
import type { BookLineInput, HolderType, IssueBooksInput, ReturnBooksInput } from './lend-books.schema';

const issueEntity = entity('book_checkout');
const returnEntity = entity('book_checkin');

export interface Holder {
  usr_typ: HolderType;
  usr_cd: number;
  name: string;
  /** 'ADM001 - VI A' for a student, the designation for an employee: what tells two namesakes apart. */
  detail: string;
}

/**
 * The holder as the desk works with it. A student is the child, not one year's row: promotion gives the child
 * a new stud_cd each year under the same admission number, and a book lent last year is still out with them.
 */
interface DeskHolder extends Holder {
  /** Every stud_cd of the child in the institute (all years; the request's row first), or the employee's usr_cd. */
  codes: number[];
  /** What serialises two desks on one holder, whichever year's row each desk found. */
  lockKey: string;
}

export interface HeldBook {
  usr_bk_stk_cd: number;
  bk_cd: number;
  bk_nm: string;
  bk_barcd: string | null;
  qty: number;
  due_dt: string | null;
  iss_dt: string | null;
  /** Whole days past the due date; 0 when not overdue. */
  days_overdue: number;
}

export interface HolderBooks {
  holder: Holder;
  /** The most this holder may have out at once (LIB_MAX_BOOKS_STUDENT / _EMPLOYEE), and what is out now. */
  limit: number;
  held: number;
  /** The due date an issue made today gets unless the desk picks another (today + LIB_LOAN_DAYS). */
  due_default: string;
  books: HeldBook[];
}

interface LockedBook {
  bk_cd: number;
  bk_nm: string;
  bk_qty: number;
}

interface Line {
  book: LockedBook;
  qty: number;
}

/** 'YYYY-MM-DD' plus n days, on the calendar (no time zone can move it). */
export function addDays(date: string, n: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

const limitSetting = (typ: HolderType): 'LIB_MAX_BOOKS_STUDENT' | 'LIB_MAX_BOOKS_EMPLOYEE' => (typ === 'Student' ? 'LIB_MAX_BOOKS_STUDENT' : 'LIB_MAX_BOOKS_EMPLOYEE');

/**
 * The holder in the request's institute: a student of the request's year, seen through the page's 'his
 * students only' rule (the student's own), or an employee of the institute or mapped to it.
 */
export async function holderOf(db: DbOrTx, ctx: RequestContext, typ: HolderType, cd: number): Promise<DeskHolder> {
  if (typ === 'Student') {
    if (ctx.acdmCd === null) throw badRequest('Choose an academic year first.');
    const s = await studentFor(db, ctx, cd, false).catch((e: unknown) => {
      // The shared rule speaks of fees; at the desk it is books.
      throw e instanceof HttpError && e.statusCode === 403 ? forbidden('You can only lend books to your own students.') : e;
    });
    const cls = [s.cls_nm, s.sec_nm].filter((x) => x !== null && x !== undefined && x !== '').join(' ');
    const adm = String(s.stud_adm_cd ?? '');
    // The same child in the other years: 'his students only' was decided on this year's row above, and the
    // admission number is unique per year (without regard to case), so it names one child in the institute.
    const others = await rows<{ stud_cd: number }>(
      db,
      sql`SELECT stud_cd FROM student WHERE inst_cd = ${ctx.instCd} AND lower(stud_adm_cd) = lower(${adm}) AND stud_cd <> ${cd} ORDER BY stud_cd`,
    );
    return {
      usr_typ: typ,
      usr_cd: cd,
      name: String(s.stud_fs_nm ?? ''),
      detail: [s.stud_adm_cd, cls].filter(Boolean).join(' - '),
      codes: [cd, ...others.map((o) => Number(o.stud_cd))],
      lockKey: `${ctx.instCd}:${adm.toLowerCase()}`,
    };
  }
  // Under 'his students only' a desk movement is the holder's (book-movement-fields.ts): an employee's is his own.
  if (ctx.dataChk && cd !== ctx.user.usr_cd) throw forbidden('You can only lend books to your own students.');
  const [e] = await rows<{ usr_full_nm: string; desg_nm: string | null }>(
    db,
    sql`SELECT e.usr_full_nm, d.desg_nm FROM employee e LEFT JOIN designation d ON d.desg_cd = e.usr_desg
        WHERE e.usr_cd = ${cd}
          AND (e.inst_cd = ${ctx.instCd}
               OR EXISTS (SELECT 1 FROM user_institute m WHERE m.usr_cd = e.usr_cd AND m.inst_cd = ${ctx.instCd} AND m.usr_inst_sts))`,
  );
  if (!e) throw notFound(`Employee ${cd} was not found in this institute.`);
  return { usr_typ: typ, usr_cd: cd, name: e.usr_full_nm, detail: e.desg_nm ?? '', codes: [cd], lockKey: `${cd}` };
}

const codesOf = (holder: DeskHolder) => sql.join(holder.codes.map((c) => sql`${c}`), sql`, `);

/**
 * What the holder has out now, earliest due first: one line per book, over all the child's years (a copy lent
 * on last year's row and one on this year's are two copies of one book in hand; the earlier due date shows).
 */
export async function holderBooks(db: DbOrTx, ctx: RequestContext, holder: DeskHolder): Promise<HolderBooks> {
  const today = localDateTime().date;
  const list = await rows<HeldBook>(
    db,
    sql`SELECT min(k.usr_bk_stk_cd) AS usr_bk_stk_cd, k.bk_cd, b.bk_nm, b.bk_barcd, sum(k.usr_bk_stk_qty)::int AS qty,
               min(k.usr_bk_stk_due_dt)::text AS due_dt, max(k.usr_bk_stk_iss_dt)::text AS iss_dt,
               greatest(coalesce(${today}::date - min(k.usr_bk_stk_due_dt), 0), 0) AS days_overdue
        FROM book_checkinout_summary k JOIN book b ON b.bk_cd = k.bk_cd
        WHERE k.inst_cd = ${ctx.instCd} AND k.usr_bk_stk_usr_typ = ${holder.usr_typ} AND k.usr_bk_stk_usr_cd IN (${codesOf(holder)})
          AND k.usr_bk_stk_qty > 0
        GROUP BY k.bk_cd, b.bk_nm, b.bk_barcd
        ORDER BY min(k.usr_bk_stk_due_dt) NULLS LAST, b.bk_nm`,
  );
  const books = list.map((b) => ({ ...b, usr_bk_stk_cd: Number(b.usr_bk_stk_cd), bk_cd: Number(b.bk_cd), qty: Number(b.qty), days_overdue: Number(b.days_overdue) }));
  return {
    holder: { usr_typ: holder.usr_typ, usr_cd: holder.usr_cd, name: holder.name, detail: holder.detail },
    limit: await settingNumber(db, ctx.instCd, limitSetting(holder.usr_typ)),
    held: books.reduce((a, b) => a + b.qty, 0),
    due_default: addDays(today, await settingNumber(db, ctx.instCd, 'LIB_LOAN_DAYS')),
    books,
  };
}

/** The book a scanned barcode names in the institute, whatever case the scanner typed. */
export async function bookByBarcode(db: DbOrTx, instCd: number, barcode: string): Promise<{ bk_cd: number; bk_nm: string } | undefined> {
  const [b] = await rows<{ bk_cd: number; bk_nm: string }>(
    db,
    sql`SELECT bk_cd, bk_nm FROM book WHERE inst_cd = ${instCd} AND lower(bk_barcd) = lower(${barcode.trim()})`,
  );
  return b ? { bk_cd: Number(b.bk_cd), bk_nm: b.bk_nm } : undefined;
}

/** Request lines as book codes (a barcode looked up), the same book twice folded into one line. */
async function resolveLines(db: DbOrTx, ctx: RequestContext, lines: BookLineInput[]): Promise<{ bk_cd: number; qty: number }[]> {
  const out = new Map<number, number>();
  for (const l of lines) {
    let bkCd = l.bk_cd;
    if (bkCd === undefined) {
      const b = await bookByBarcode(db, ctx.instCd, l.bk_barcd ?? '');
      if (!b) throw badRequest(`No book has the barcode '${l.bk_barcd ?? ''}'.`);
      bkCd = b.bk_cd;
    }
    out.set(bkCd, (out.get(bkCd) ?? 0) + l.qty);
  }
  return [...out].map(([bk_cd, qty]) => ({ bk_cd, qty }));
}

/**
 * The books locked in bk_cd order (two desks lending the same two books cannot deadlock), in request order.
 * The lock is what makes 'copies out' exact: every issue, return and quantity change of a book queues here.
 */
async function lockBooks(tx: Tx, ctx: RequestContext, wanted: { bk_cd: number; qty: number }[]): Promise<Line[]> {
  const ids = wanted.map((w) => w.bk_cd).sort((a, b) => a - b);
  const locked = await rows<LockedBook>(
    tx,
    sql`SELECT bk_cd, bk_nm, bk_qty FROM book WHERE inst_cd = ${ctx.instCd} AND bk_cd IN (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})
        ORDER BY bk_cd FOR UPDATE`,
  );
  const byCd = new Map(locked.map((b) => [Number(b.bk_cd), { bk_cd: Number(b.bk_cd), bk_nm: b.bk_nm, bk_qty: Number(b.bk_qty ?? 0) }]));
  return wanted.map((w) => {
    const book = byCd.get(w.bk_cd);
    if (!book) throw badRequest("'Book' is not a valid choice.");
    return { book, qty: w.qty };
  });
}

/** Copies of each book out with anyone (the sum of the Stock rows). */
export async function copiesOut(db: DbOrTx, instCd: number, bkCds: number[]): Promise<Map<number, number>> {
  if (bkCds.length === 0) return new Map();
  const list = await rows<{ bk_cd: number; n: number }>(
    db,
    sql`SELECT bk_cd, coalesce(sum(usr_bk_stk_qty), 0)::int AS n FROM book_checkinout_summary
        WHERE inst_cd = ${instCd} AND bk_cd IN (${sql.join(bkCds.map((id) => sql`${id}`), sql`, `)}) GROUP BY bk_cd`,
  );
  return new Map(list.map((r) => [Number(r.bk_cd), Number(r.n)]));
}

/**
 * One desk at a time per holder: the limit and the holder's own stock rows are read and written under it. A
 * child is locked by admission number, so desks working in two years on two rows of one child still queue.
 */
async function lockHolder(tx: Tx, holder: DeskHolder): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`library-holder:${holder.usr_typ}:${holder.lockKey}`}, 0))`);
}

/** The desk slip's titles: 'Wings of Fire x2, Malgudi Days'. */
const titlesOf = (lines: Line[]): string => lines.map((l) => `${l.book.bk_nm}${l.qty > 1 ? ` x${l.qty}` : ''}`).join(', ').slice(0, 2000);

type MovementTable = 'book_checkout' | 'book_checkin';

async function movementRow(tx: Tx, table: MovementTable, ctx: RequestContext, holder: Holder, lines: Line[], key: string | null, due: string | null): Promise<number> {
  const now = localDateTime();
  const total = lines.reduce((a, l) => a + l.qty, 0);
  const [{ id }] = await rows<{ id: number }>(
    tx,
    table === 'book_checkout'
      ? sql`INSERT INTO book_checkout (bk_chk_usr_typ, bk_chk_usr_cd, bk_chk_usr_nm, bk_chk_bk_nms, bk_chk_bk_cnt, bk_chk_tot_qty, bk_chk_dt, bk_chk_tm,
              bk_chk_due_dt, bk_chk_idem_key, inst_cd, crt_by)
            VALUES (${holder.usr_typ}, ${holder.usr_cd}, ${holder.name.slice(0, 150)}, ${titlesOf(lines)}, ${lines.length}, ${total}, ${now.date}, ${now.time},
              ${due}, ${key}, ${ctx.instCd}, ${ctx.user.usr_cd})
            RETURNING bk_chk_cd AS id`
      : sql`INSERT INTO book_checkin (bk_chk_usr_typ, bk_chk_usr_cd, bk_chk_usr_nm, bk_chk_bk_nms, bk_chk_bk_cnt, bk_chk_tot_qty, bk_chk_dt, bk_chk_tm,
              bk_chk_idem_key, inst_cd, crt_by)
            VALUES (${holder.usr_typ}, ${holder.usr_cd}, ${holder.name.slice(0, 150)}, ${titlesOf(lines)}, ${lines.length}, ${total}, ${now.date}, ${now.time},
              ${key}, ${ctx.instCd}, ${ctx.user.usr_cd})
            RETURNING bk_chk_cd AS id`,
  );
  return Number(id);
}

/** The issue or return the desk already made with this attempt key, if any. */
async function movementByKey(db: DbOrTx, ctx: RequestContext, table: MovementTable, key: string): Promise<Row | undefined> {
  const [r] = await rows<Row>(
    db,
    table === 'book_checkout'
      ? sql`SELECT bk_chk_cd, bk_chk_usr_typ, bk_chk_usr_cd, bk_chk_bk_nms, bk_chk_due_dt::text AS bk_chk_due_dt FROM book_checkout
            WHERE inst_cd = ${ctx.instCd} AND lower(bk_chk_idem_key) = lower(${key})`
      : sql`SELECT bk_chk_cd, bk_chk_usr_typ, bk_chk_usr_cd, bk_chk_bk_nms FROM book_checkin
            WHERE inst_cd = ${ctx.instCd} AND lower(bk_chk_idem_key) = lower(${key})`,
  );
  return r;
}

const SAME_KEY_OTHER_BODY: Record<MovementTable, string> = {
  book_checkout: 'This issue key was already used for other books or another holder. Reload the page and try again.',
  book_checkin: 'This return key was already used for other books or another holder. Reload the page and try again.',
};

/** The first issue or return made with this key, if the request asks for the same thing; otherwise a 409. */
async function repeatOf(db: DbOrTx, ctx: RequestContext, table: MovementTable, earlier: Row, input: IssueBooksInput | ReturnBooksInput): Promise<number> {
  const wanted = await resolveLines(db, ctx, input.books);
  const names = await rows<{ bk_cd: number; bk_nm: string }>(
    db,
    sql`SELECT bk_cd, bk_nm FROM book WHERE inst_cd = ${ctx.instCd} AND bk_cd IN (${sql.join(wanted.map((w) => sql`${w.bk_cd}`), sql`, `)})`,
  );
  const nameOf = new Map(names.map((n) => [Number(n.bk_cd), n.bk_nm]));
  const titles = titlesOf(wanted.map((w) => ({ book: { bk_cd: w.bk_cd, bk_nm: nameOf.get(w.bk_cd) ?? '', bk_qty: 0 }, qty: w.qty })));
  const same =
    earlier.bk_chk_usr_typ === input.usr_typ &&
    Number(earlier.bk_chk_usr_cd) === input.usr_cd &&
    earlier.bk_chk_bk_nms === titles &&
    (!('due_dt' in input) || input.due_dt == null || earlier.bk_chk_due_dt === input.due_dt);
  if (!same) throw conflict(SAME_KEY_OTHER_BODY[table]);
  return Number(earlier.bk_chk_cd);
}

export interface IssueResult {
  issue: Row;
  stock: HolderBooks;
  repeated: boolean;
}

/**
 * Lends books in one transaction: the holder is locked (one desk at a time per holder, so the limit holds),
 * then the books in bk_cd order; each book keeps at least zero copies on the shelf, the holder stays within
 * the limit, the issue row and the holder's Stock rows are written together.
 */
export async function issueBooks(db: Db, ctx: RequestContext, input: IssueBooksInput): Promise<IssueResult> {
  try {
    return await db.transaction(async (tx) => {
      const holder = await holderOf(tx, ctx, input.usr_typ, input.usr_cd);
      await lockHolder(tx, holder);
      const earlier = await movementByKey(tx, ctx, 'book_checkout', input.idempotency_key);
      if (earlier) {
        const id = await repeatOf(tx, ctx, 'book_checkout', earlier, input);
        return { issue: await getRow(tx, issueEntity, ctx, id), stock: await holderBooks(tx, ctx, holder), repeated: true };
      }
      const lines = await lockBooks(tx, ctx, await resolveLines(tx, ctx, input.books));
      const out = await copiesOut(tx, ctx.instCd, lines.map((l) => l.book.bk_cd));
      for (const l of lines) {
        const left = l.book.bk_qty - (out.get(l.book.bk_cd) ?? 0);
        if (left <= 0) throw conflict(`No copy of '${l.book.bk_nm}' is left.`);
        if (l.qty > left) throw conflict(`Only ${left} ${left === 1 ? 'copy' : 'copies'} of '${l.book.bk_nm}' ${left === 1 ? 'is' : 'are'} left; ${l.qty} cannot be issued.`);
      }
      const before = await holderBooks(tx, ctx, holder);
      const asked = lines.reduce((a, l) => a + l.qty, 0);
      if (before.held + asked > before.limit) {
        const who = holder.usr_typ === 'Student' ? 'A student' : 'An employee';
        throw conflict(
          `${who} may hold at most ${before.limit} ${before.limit === 1 ? 'book' : 'books'} at once: ${holder.name} has ${before.held} out, so ${asked} more cannot be issued.`,
        );
      }
      const today = localDateTime().date;
      const due = input.due_dt ?? addDays(today, await settingNumber(tx, ctx.instCd, 'LIB_LOAN_DAYS'));
      if (due < today) throw badRequest('The due date cannot be before today.', [{ field: 'due_dt', message: 'The due date cannot be before today.' }]);
      const id = await movementRow(tx, 'book_checkout', ctx, holder, lines, input.idempotency_key, due);
      for (const l of lines) {
        await tx.execute(
          sql`INSERT INTO book_checkinout_summary (inst_cd, usr_bk_stk_usr_typ, usr_bk_stk_usr_cd, usr_bk_stk_usr_nm, bk_cd, usr_bk_stk_qty, usr_bk_stk_due_dt, usr_bk_stk_iss_dt, crt_by)
              VALUES (${ctx.instCd}, ${holder.usr_typ}, ${holder.usr_cd}, ${holder.name.slice(0, 150)}, ${l.book.bk_cd}, ${l.qty}, ${due}, ${today}, ${ctx.user.usr_cd})
              ON CONFLICT (inst_cd, usr_bk_stk_usr_typ, usr_bk_stk_usr_cd, bk_cd) DO UPDATE SET
                usr_bk_stk_qty = book_checkinout_summary.usr_bk_stk_qty + EXCLUDED.usr_bk_stk_qty,
                usr_bk_stk_due_dt = least(book_checkinout_summary.usr_bk_stk_due_dt, EXCLUDED.usr_bk_stk_due_dt),
                usr_bk_stk_iss_dt = EXCLUDED.usr_bk_stk_iss_dt,
                usr_bk_stk_usr_nm = EXCLUDED.usr_bk_stk_usr_nm,
                row_ver = book_checkinout_summary.row_ver + 1, updt_by = ${ctx.user.usr_cd}, updt_dt = now()`,
        );
      }
      const issue = await getRow(tx, issueEntity, ctx, id);
      await writeAudit(tx, ctx, issueEntity, 'POST', id, null, { ...issue, books: lines.map((l) => ({ bk_cd: l.book.bk_cd, qty: l.qty })) });
      return { issue, stock: await holderBooks(tx, ctx, holder), repeated: false };
    });
  } catch (err) {
    const id = await raceWinner(db, ctx, 'book_checkout', err, input, input.idempotency_key);
    const holder = await holderOf(db, ctx, input.usr_typ, input.usr_cd);
    return { issue: await getRow(db, issueEntity, ctx, id), stock: await holderBooks(db, ctx, holder), repeated: true };
  }
}

/**
 * The same key sent for two holders at once (two holders' locks do not queue each other): the unique index let
 * one through, and the other is the first's repeat or a 409 by the usual rule. Any other error goes on.
 */
async function raceWinner(db: Db, ctx: RequestContext, table: MovementTable, err: unknown, input: IssueBooksInput | ReturnBooksInput, key: string | undefined): Promise<number> {
  const code = (err as { code?: string; cause?: { code?: string } }).code ?? (err as { cause?: { code?: string } }).cause?.code;
  if (code !== '23505' || key === undefined) throw err;
  const earlier = await movementByKey(db, ctx, table, key);
  if (!earlier) throw conflict('Another change happened at the same time. Please try again.');
  return repeatOf(db, ctx, table, earlier, input);
}

export interface ReturnResult {
  checkin: Row;
  stock: HolderBooks;
  /** True when this was a retry of a return already made with the same key (nothing moved again). */
  repeated: boolean;
}

/**
 * Takes books back in one transaction: never more of a book than the holder has out (over all the child's
 * years); the Stock rows go down, the earliest due first, and a row is removed at zero (Stock lists what is
 * out, nothing else). A retry with the same key gives the first return back instead of a second one.
 */
export async function returnBooks(db: Db, ctx: RequestContext, input: ReturnBooksInput): Promise<ReturnResult> {
  const key = input.idempotency_key;
  try {
    return await db.transaction(async (tx) => {
      const holder = await holderOf(tx, ctx, input.usr_typ, input.usr_cd);
      await lockHolder(tx, holder);
      const earlier = key === undefined ? undefined : await movementByKey(tx, ctx, 'book_checkin', key);
      if (earlier) {
        const id = await repeatOf(tx, ctx, 'book_checkin', earlier, input);
        return { checkin: await getRow(tx, returnEntity, ctx, id), stock: await holderBooks(tx, ctx, holder), repeated: true };
      }
      const lines = await lockBooks(tx, ctx, await resolveLines(tx, ctx, input.books));
      const stock = await holderBooks(tx, ctx, holder);
      for (const l of lines) {
        const held = stock.books.find((b) => b.bk_cd === l.book.bk_cd)?.qty ?? 0;
        if (held === 0) throw conflict(`${holder.name} has no copy of '${l.book.bk_nm}' out.`);
        if (l.qty > held) throw conflict(`${holder.name} holds ${held} ${held === 1 ? 'copy' : 'copies'} of '${l.book.bk_nm}'; ${l.qty} cannot be returned.`);
      }
      const id = await movementRow(tx, 'book_checkin', ctx, holder, lines, key ?? null, null);
      for (const l of lines) await takeBack(tx, ctx, holder, l);
      const checkin = await getRow(tx, returnEntity, ctx, id);
      await writeAudit(tx, ctx, returnEntity, 'POST', id, null, { ...checkin, books: lines.map((l) => ({ bk_cd: l.book.bk_cd, qty: l.qty })) });
      return { checkin, stock: await holderBooks(tx, ctx, holder), repeated: false };
    });
  } catch (err) {
    const id = await raceWinner(db, ctx, 'book_checkin', err, input, key);
    const holder = await holderOf(db, ctx, input.usr_typ, input.usr_cd);
    return { checkin: await getRow(db, returnEntity, ctx, id), stock: await holderBooks(db, ctx, holder), repeated: true };
  }
}

/**
 * One book's copies back, from the holder's Stock rows of any year, the earliest due first: the desk cannot
 * tell which copy came back, so the row due soonest (last year's, usually) is settled first; within one row a
 * part return keeps the row's earliest due date (docs: library decisions). The caller holds the holder's lock
 * and checked the holder has enough.
 */
async function takeBack(tx: Tx, ctx: RequestContext, holder: DeskHolder, line: Line): Promise<void> {
  const held = await rows<{ usr_bk_stk_cd: number; qty: number }>(
    tx,
    sql`SELECT usr_bk_stk_cd, usr_bk_stk_qty AS qty FROM book_checkinout_summary
        WHERE inst_cd = ${ctx.instCd} AND usr_bk_stk_usr_typ = ${holder.usr_typ} AND usr_bk_stk_usr_cd IN (${codesOf(holder)})
          AND bk_cd = ${line.book.bk_cd} AND usr_bk_stk_qty > 0
        ORDER BY usr_bk_stk_due_dt NULLS LAST, usr_bk_stk_cd
        FOR UPDATE`,
  );
  let left = line.qty;
  for (const r of held) {
    if (left === 0) break;
    const take = Math.min(left, Number(r.qty));
    left -= take;
    const where = sql`usr_bk_stk_cd = ${Number(r.usr_bk_stk_cd)}`;
    await tx.execute(
      sql`UPDATE book_checkinout_summary SET usr_bk_stk_qty = usr_bk_stk_qty - ${take}, row_ver = row_ver + 1, updt_by = ${ctx.user.usr_cd}, updt_dt = now()
          WHERE ${where}`,
    );
    await tx.execute(sql`DELETE FROM book_checkinout_summary WHERE ${where} AND usr_bk_stk_qty <= 0`);
  }
}
