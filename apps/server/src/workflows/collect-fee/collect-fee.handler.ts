import { entity } from '@campus/entities/registry';
import type { FastifyInstance } from 'fastify';
import { mustCtx, type RequestContext } from '../../access/request-context';
import { rows, sql, type Db, type DbOrTx, type Tx } from '../../db/client';
import { getRow } from '../../engine/crud.service';
import type { Row } from '../../engine/entity-hooks';
import { localDateTime } from '../../lib/clock';
import { badRequest, conflict, forbidden, HttpError, notFound } from '../../lib/http-error';
import { fromPaise, toPaise } from '../../lib/paise';
import { amountInWords } from '../../documents/amount-in-words';
import { printSetup, sendPdf } from '../../documents/pdf-render';
import { feeReceiptPdf } from './fee-receipt.document';
import { collectFeeSchema, type CollectFeeInput } from './collect-fee.schema';
import { studentDues, type DueLine } from './fee-dues';
import { billMatches, requestHash } from './bill-request';
import { isWalletTender, payBillFromWallet, walletBalance } from './wallet-tender';
import { writeBill } from './bill-write';
import { preparedRows } from './prepared-statement';

const studentEntity = entity('student');
const billEntity = entity('collected_fee');

/** The counter screens: quick collection, and the per-student academic collection the lead builds. */
export const collectPages = [
  { module: 'fee', page: 'quick_fee_collection' },
  { module: 'fee', page: 'academic_fee_collect' },
] as const;
const receiptPages = [...collectPages, { module: 'fee', page: 'fee_collected' }] as const;
/**
 * An earlier year's arrears are collected on Academic Fee Collect: holding that page lets a user into that
 * year on the counter's routes (dues, collect, receipt, PDF) without the rest of the year opening to them.
 */
const arrearsPage = { module: 'fee', page: 'academic_fee_collect' } as const;

const NOT_OWN = 'You can only collect fees of your own students.';

export interface ReceiptLine {
  kind: 'Fee' | 'Late Fee';
  fee_cd: number | null;
  fee_grp_cd: number;
  fee_grp_nm: string;
  feetyp_nm: string | null;
  amount: string;
  discount: string;
}

export interface Receipt {
  bill: Row;
  lines: ReceiptLine[];
  institute: { inst_nm: string; inst_adr1: string | null; inst_adr2: string | null; inst_ph: string | null; inst_eml: string | null };
  /** As on the bill (name, class and section when collected), with the father's name from the student's record. */
  student: { stud_fs_nm: string; stud_adm_cd: string; stud_fthr_nm: string | null; cls_nm: string | null; sec_nm: string | null };
  /** '2026-27', the year whose receipt book the bill is in. */
  academic_year: string;
  tender: { tnd_typ_nm: string | null; reference_label: string | null; reference: string | null };
  /** Who collected it (the signed-in user's full name at the counter). */
  cashier: string;
  /** The total as words, Indian numbering: 'Rupees Four Thousand ... and Fifty Paise Only'. */
  amount_in_words: string;
  /** The discount the paid lines carried. */
  discount_total: string;
  /**
   * What the student still owed right after this bill: today's dues (fee-dues.ts, the one definition) plus
   * whatever later active bills paid since. On a cancelled bill the bill's own amounts count as due again.
   */
  balance_due: string;
  cancellation: { date: string; by: string; reason: string } | null;
}

/**
 * The student's row in the request's institute and year, locked when asked. Under 'his students only' a
 * student of another section is refused outright (403), not pretended missing: the clerk typed the number.
 */
export async function studentFor(tx: DbOrTx, ctx: RequestContext, studCd: number, lock: boolean): Promise<Row> {
  try {
    return await getRow(tx, studentEntity, ctx, studCd, lock);
  } catch (e) {
    if (e instanceof HttpError && e.statusCode === 404 && ctx.dataChk) {
      const exists = await getRow(tx, studentEntity, { ...ctx, dataChk: false }, studCd).then(
        () => true,
        () => false,
      );
      if (exists) throw forbidden(NOT_OWN);
    }
    throw e;
  }
}

/**
 * The counter's lock on the child: a prepared statement with the few columns a bill needs. Under 'his
 * students only' the engine's read decides (its ownership rule, and 403 rather than 404 for another
 * section's child); otherwise the scope is the request's institute and year, as the engine's.
 */
async function lockedStudent(tx: Tx, ctx: RequestContext, acdmCd: number, studCd: number): Promise<Row> {
  if (ctx.dataChk) return studentFor(tx, ctx, studCd, true);
  const [s] = await preparedRows<Row>(
    tx,
    'fee_counter_student',
    sql`SELECT s.stud_cd, s.stud_fs_nm, s.stud_adm_cd, s.stud_fthr_nm, s.cls_cd, c.cls_nm, s.sec_cd, x.sec_nm
        FROM student s LEFT JOIN class c ON c.cls_cd = s.cls_cd LEFT JOIN section x ON x.sec_cd = s.sec_cd
        WHERE s.stud_cd = ${studCd} AND s.inst_cd = ${ctx.instCd} AND s.acdm_cd = ${acdmCd}
        FOR UPDATE OF s`,
  );
  if (!s) throw notFound(`${studentEntity.label} ${studCd} was not found.`);
  return s;
}

export async function billReceipt(db: DbOrTx, ctx: RequestContext, feeCollCd: number): Promise<Receipt> {
  const bill = await getRow(db, billEntity, ctx, feeCollCd);
  // One statement for the rest: the lines in term order, the heading, the bill's own year and student (the
  // entity row leaves the year out: it is the request's scope), what later bills paid, the cancellation.
  const [extra] = await preparedRows<{
    acdm_cd: number;
    stud_cd: number;
    stud_fthr_nm: string | null;
    strt: number | null;
    tnd_fld: string | null;
    later: string;
    institute: Receipt['institute'];
    cancel: { date: string; by: string | null; reason: string | null } | null;
    lines: ReceiptLine[];
  }>(
    db,
    'fee_receipt',
    sql`SELECT b.acdm_cd, b.stud_cd, s.stud_fthr_nm, a.acdm_strt_yr AS strt, tt.tnd_typ_fld_val AS tnd_fld,
               (SELECT coalesce(sum(b2.fee_coll_amt), 0)::text FROM fee_collection_bill b2
                 WHERE b2.stud_cd = b.stud_cd AND b2.inst_cd = b.inst_cd AND b2.acdm_cd = b.acdm_cd
                   AND b2.fee_coll_sts = 'Active' AND b2.fee_coll_cd > b.fee_coll_cd) AS later,
               json_build_object('inst_nm', i.inst_nm, 'inst_adr1', i.inst_adr1, 'inst_adr2', i.inst_adr2, 'inst_ph', i.inst_ph, 'inst_eml', i.inst_eml) AS institute,
               (SELECT json_build_object('date', c.fee_cncl_dt::text, 'by', c.cncl_by, 'reason', c.fee_cncl_rsn) FROM cancel_fee c
                 WHERE b.fee_coll_sts = 'Cancelled' AND c.fee_cncl_fee_cd = b.fee_coll_cd AND c.fee_cncl_undo_dt IS NULL
                 ORDER BY c.fee_cncl_cd DESC LIMIT 1) AS cancel,
               (SELECT coalesce(json_agg(json_build_object('kind', l.fee_coll_dtl_kind, 'fee_cd', l.fee_cd, 'fee_grp_cd', l.fee_grp_cd, 'fee_grp_nm', g.fee_grp_nm,
                                                           'feetyp_nm', t.feetyp_nm, 'amount', l.fee_coll_dtl_amt::text, 'discount', l.fee_coll_dtl_disc::text)
                                         ORDER BY g.fee_grp_fee_str_dt, l.fee_coll_dtl_cd), '[]'::json)
                  FROM fee_collection_line l
                  JOIN fee_group g ON g.fee_grp_cd = l.fee_grp_cd
                  LEFT JOIN fee f ON f.fee_cd = l.fee_cd
                  LEFT JOIN fee_type t ON t.feetyp_cd = f.feetyp_cd
                 WHERE l.fee_coll_cd = b.fee_coll_cd) AS lines
        FROM fee_collection_bill b
        JOIN institute i ON i.inst_cd = ${ctx.instCd}
        LEFT JOIN student s ON s.stud_cd = b.stud_cd
        LEFT JOIN academic a ON a.acdm_cd = b.acdm_cd
        LEFT JOIN tender_type tt ON tt.tnd_typ_cd = b.tnd_typ_cd
        WHERE b.fee_coll_cd = ${feeCollCd}`,
  );
  const lines = extra.lines.map((l) => ({ ...l, fee_cd: l.fee_cd === null ? null : Number(l.fee_cd), fee_grp_cd: Number(l.fee_grp_cd) }));
  const institute = extra.institute;
  const cancel = extra.cancel;
  const dues = await studentDues(db, ctx.instCd, Number(extra.acdm_cd), Number(extra.stud_cd));
  const dueNow = dues.lines.reduce((a, l) => a + toPaise(l.due), 0);
  const strt = extra.strt === null ? null : Number(extra.strt);
  return {
    bill,
    lines,
    institute,
    student: {
      stud_fs_nm: String(bill.stud_fs_nm ?? ''),
      stud_adm_cd: String(bill.stud_adm_cd ?? ''),
      stud_fthr_nm: extra.stud_fthr_nm ?? null,
      cls_nm: (bill.cls_nm as string | null) ?? null,
      sec_nm: (bill.sec_nm as string | null) ?? null,
    },
    academic_year: yearLabel(strt),
    tender: { tnd_typ_nm: (bill.tnd_typ_nm as string | null) ?? null, reference_label: extra.tnd_fld?.trim() || null, reference: (bill.fee_coll_ref as string | null) ?? null },
    cashier: String(bill.fee_coll_by ?? ''),
    amount_in_words: amountInWords(fromPaise(toPaise(String(bill.fee_coll_amt)))),
    discount_total: fromPaise(lines.reduce((a, l) => a + toPaise(l.discount), 0)),
    balance_due: fromPaise(dueNow + toPaise(extra.later)),
    cancellation: cancel ? { date: cancel.date, by: cancel.by ?? '', reason: cancel.reason ?? '' } : null,
  };
}

/** '2026-27', the year whose receipt book the bill is in. */
const yearLabel = (strt: number | null): string => (strt === null ? '' : `${strt}-${String((strt + 1) % 100).padStart(2, '0')}`);

const lineName = (d: DueLine): string => (d.kind === 'Late Fee' ? `Late Fee (${d.fee_grp_nm})` : `${d.feetyp_nm} (${d.fee_grp_nm})`);

interface PlannedLine {
  due: DueLine;
  paise: number;
}

/** The requested lines against the dues computed under the lock: each one payable and at most its due. */
function planLines(input: CollectFeeInput, dues: DueLine[]): PlannedLine[] {
  const out: PlannedLine[] = [];
  const seen = new Set<string>();
  const take = (key: string, due: DueLine | undefined, amount: string, unknown: string) => {
    if (seen.has(key)) throw badRequest('The same fee is listed twice.');
    seen.add(key);
    if (!due) throw badRequest(unknown);
    const paise = toPaise(amount);
    if (paise === 0) return;
    const left = toPaise(due.due);
    if (paise > left) throw conflict(`'${lineName(due)}' has only ${fromPaise(left)} due; ${fromPaise(paise)} cannot be collected.`);
    out.push({ due, paise });
  };
  for (const l of input.lines) {
    take(`f${l.fee_cd}`, dues.find((d) => d.kind === 'Fee' && d.fee_cd === l.fee_cd), l.amount, "This fee is not a fee of the student's class this year.");
  }
  for (const l of input.late_fees) {
    take(`g${l.fee_grp_cd}`, dues.find((d) => d.kind === 'Late Fee' && d.fee_grp_cd === l.fee_grp_cd), l.amount, 'This fee group has no late fee due.');
  }
  if (out.length === 0) throw badRequest('Enter an amount to collect.');
  return out;
}

interface ChosenTender {
  reference: string | null;
  /** Paid out of the student's wallet (tender 'Wallet'). */
  wallet: boolean;
}

/** What the counter reads once, after the student's lock: the receipt's heading, the tender, a bill under the key. */
interface CounterContext {
  institute: Receipt['institute'];
  strt: number | null;
  tender: { tnd_typ_nm: string; tnd_typ_fld_val: string | null; tnd_typ_sts: boolean } | null;
  earlier: KeyedBill | undefined;
}

async function counterContext(tx: Tx, ctx: RequestContext, acdmCd: number, input: CollectFeeInput): Promise<CounterContext> {
  const [c] = await preparedRows<{
    inst_nm: string;
    inst_adr1: string | null;
    inst_adr2: string | null;
    inst_ph: string | null;
    inst_eml: string | null;
    strt: number | null;
    tnd_typ_nm: string | null;
    tnd_typ_fld_val: string | null;
    tnd_typ_sts: boolean | null;
    key_bill: number | null;
    key_stud: number | null;
    key_hash: string | null;
  }>(
    tx,
    'fee_counter_context',
    sql`SELECT i.inst_nm, i.inst_adr1, i.inst_adr2, i.inst_ph, i.inst_eml, a.acdm_strt_yr AS strt,
               t.tnd_typ_nm, t.tnd_typ_fld_val, t.tnd_typ_sts,
               k.fee_coll_cd AS key_bill, k.stud_cd AS key_stud, k.fee_coll_idem_hash AS key_hash
        FROM institute i
        LEFT JOIN academic a ON a.acdm_cd = ${acdmCd}
        LEFT JOIN tender_type t ON t.tnd_typ_cd = ${input.tnd_typ_cd} AND t.inst_cd = i.inst_cd
        LEFT JOIN fee_collection_bill k ON k.inst_cd = i.inst_cd AND k.acdm_cd = ${acdmCd} AND lower(k.fee_coll_idem_key) = lower(${input.idempotency_key})
        WHERE i.inst_cd = ${ctx.instCd}`,
  );
  return {
    institute: { inst_nm: c.inst_nm, inst_adr1: c.inst_adr1, inst_adr2: c.inst_adr2, inst_ph: c.inst_ph, inst_eml: c.inst_eml },
    strt: c.strt === null ? null : Number(c.strt),
    tender: c.tnd_typ_nm === null ? null : { tnd_typ_nm: c.tnd_typ_nm, tnd_typ_fld_val: c.tnd_typ_fld_val, tnd_typ_sts: c.tnd_typ_sts === true },
    earlier: c.key_bill === null ? undefined : { fee_coll_cd: Number(c.key_bill), stud_cd: Number(c.key_stud), hash: c.key_hash },
  };
}

function tenderFor(t: CounterContext['tender'], reference: string | null | undefined): ChosenTender {
  if (!t) throw badRequest("'Tender Type' is not a valid choice.", [{ field: 'tnd_typ_cd', message: "'Tender Type' is not a valid choice." }]);
  if (!t.tnd_typ_sts) throw badRequest(`The tender type '${t.tnd_typ_nm}' is turned off.`, [{ field: 'tnd_typ_cd', message: `The tender type '${t.tnd_typ_nm}' is turned off.` }]);
  const wallet = isWalletTender(t.tnd_typ_nm);
  const asked = (t.tnd_typ_fld_val ?? '').trim();
  if (!asked) return { reference: null, wallet };
  if (!reference) throw badRequest(`Please enter the '${asked}'.`, [{ field: 'reference', message: `Please enter the '${asked}'.` }]);
  return { reference, wallet };
}

interface KeyedBill {
  fee_coll_cd: number;
  stud_cd: number;
  hash: string | null;
}

async function billByKey(db: DbOrTx, ctx: RequestContext, acdmCd: number, key: string): Promise<KeyedBill | undefined> {
  const [b] = await rows<KeyedBill>(
    db,
    sql`SELECT fee_coll_cd, stud_cd, fee_coll_idem_hash AS hash FROM fee_collection_bill
        WHERE inst_cd = ${ctx.instCd} AND acdm_cd = ${acdmCd} AND lower(fee_coll_idem_key) = lower(${key})`,
  );
  return b ? { fee_coll_cd: Number(b.fee_coll_cd), stud_cd: Number(b.stud_cd), hash: b.hash } : undefined;
}

const OTHER_BODY = 'This payment key was already used for a different payment (another student, amount, fee or tender). Reload the page and try again.';

/**
 * A repeated key answers with its bill only when the request is the same payment: the same hash, or for a
 * bill written before requests were hashed, the same student, tender and lines as stored.
 */
async function repeatOf(db: DbOrTx, b: KeyedBill, input: CollectFeeInput): Promise<void> {
  const same = b.hash !== null ? b.hash === requestHash(input) : await billMatches(db, b.fee_coll_cd, input);
  if (!same) throw conflict(OTHER_BODY);
}

/**
 * The bill row as getRow reads it (every declared field, each link's name beside it, row_ver), from the
 * values just written: the answer and the reprint are the same object (bill-counter.test.ts holds them equal).
 */
function billRow(stored: Record<string, unknown>, names: Record<string, unknown>): Row {
  const out: Row = {};
  for (const [name, f] of Object.entries(billEntity.fields)) {
    if (f.kind === 'password') continue;
    out[name] = stored[name] ?? null;
    if (f.kind === 'link') out[f.as] = names[f.as] ?? null;
  }
  out.row_ver = 1;
  return out;
}

/**
 * One bill inside the caller's transaction (the counter's own, or an online payment's acceptance): the
 * student's row is locked first, so two counters collecting for the same child queue up and the second sees
 * the first one's bill in the dues it is checked against. Then one read of the heading, tender and key, one
 * of the dues, and one statement that takes the year's next number from its counter row and writes the bill,
 * its lines and its audit row (bill-write.ts); the receipt is built from what the transaction already holds.
 * A bill paid from the wallet debits it after that, holding the counter a little longer.
 */
export async function collectFeeInTx(tx: Tx, ctx: RequestContext, input: CollectFeeInput): Promise<{ receipt: Receipt; repeated: boolean }> {
  if (ctx.acdmCd === null) throw badRequest('Choose an academic year first.');
  const acdmCd = ctx.acdmCd;
  const student = await lockedStudent(tx, ctx, acdmCd, input.stud_cd);
  const at = await counterContext(tx, ctx, acdmCd, input);
  if (at.earlier) {
    await repeatOf(tx, at.earlier, input);
    return { receipt: await billReceipt(tx, ctx, at.earlier.fee_coll_cd), repeated: true };
  }
  const dues = await studentDues(tx, ctx.instCd, acdmCd, input.stud_cd);
  const planned = planLines(input, dues.lines);
  const tender = tenderFor(at.tender, input.reference);
  const total = planned.reduce((a, p) => a + p.paise, 0);
  const discount = planned.reduce((a, p) => a + toPaise(p.due.discount), 0);
  const now = localDateTime();
  const stored: Record<string, unknown> = {
    fee_coll_crt_dt: now.date,
    fee_coll_crt_tm: now.time,
    stud_cd: input.stud_cd,
    stud_adm_cd: String(student.stud_adm_cd),
    cls_cd: Number(student.cls_cd),
    sec_cd: Number(student.sec_cd),
    fee_coll_amt: fromPaise(total),
    fee_coll_disc_amt: fromPaise(discount),
    tnd_typ_cd: input.tnd_typ_cd,
    fee_coll_ref: tender.reference,
    fee_coll_by: ctx.user.usr_full_nm,
    fee_coll_sts: 'Active',
    fee_coll_idem_key: input.idempotency_key,
    fee_coll_idem_hash: requestHash(input),
  };
  const names = { stud_fs_nm: student.stud_fs_nm, cls_nm: student.cls_nm, sec_nm: student.sec_nm, tnd_typ_nm: at.tender?.tnd_typ_nm };
  // Lines are written in the order asked; the receipt lists them as the reprint does (its ORDER BY: the
  // term's start, then the line's key, which follows the order written).
  const start = (p: PlannedLine) => dues.groupStart.get(p.due.fee_grp_cd) ?? '9999-12-31';
  const lines: ReceiptLine[] = planned
    .map((p, i) => ({ p, i }))
    .sort((a, b) => (start(a.p) < start(b.p) ? -1 : start(a.p) > start(b.p) ? 1 : a.i - b.i))
    .map(({ p }) => ({
      kind: p.due.kind,
      fee_cd: p.due.fee_cd,
      fee_grp_cd: p.due.fee_grp_cd,
      fee_grp_nm: p.due.fee_grp_nm,
      feetyp_nm: p.due.kind === 'Fee' ? p.due.feetyp_nm : null,
      amount: fromPaise(p.paise),
      discount: p.due.discount,
    }));
  const draft = billRow(stored, names);
  const written = await writeBill(tx, ctx, acdmCd, {
    bill: { ...stored, inst_cd: ctx.instCd, acdm_cd: acdmCd, crt_by: ctx.user.usr_cd },
    lines: planned.map((p) => ({
      stud_cd: input.stud_cd,
      fee_cd: p.due.fee_cd,
      fee_grp_cd: p.due.fee_grp_cd,
      fee_coll_dtl_kind: p.due.kind,
      fee_coll_dtl_amt: fromPaise(p.paise),
      fee_coll_dtl_disc: p.due.discount,
      fee_coll_dtl_sts: 'Active',
      inst_cd: ctx.instCd,
      acdm_cd: acdmCd,
      crt_by: ctx.user.usr_cd,
    })),
    after: { ...draft, lines },
  });
  if (tender.wallet) await payBillFromWallet(tx, ctx, input.stud_cd, { fee_coll_cd: written.fee_coll_cd, bill_no: written.fee_coll_bill_no, paise: total });
  const bill = { ...draft, fee_coll_cd: written.fee_coll_cd, fee_coll_bill_no: written.fee_coll_bill_no };
  // Right after this bill: what was due under the lock, less what it paid (no later bill exists yet).
  const dueBefore = dues.lines.reduce((a, l) => a + toPaise(l.due), 0);
  const receipt: Receipt = {
    bill,
    lines,
    institute: at.institute,
    student: {
      stud_fs_nm: String(student.stud_fs_nm ?? ''),
      stud_adm_cd: String(student.stud_adm_cd ?? ''),
      stud_fthr_nm: (student.stud_fthr_nm as string | null) ?? null,
      cls_nm: (student.cls_nm as string | null) ?? null,
      sec_nm: (student.sec_nm as string | null) ?? null,
    },
    academic_year: yearLabel(at.strt),
    tender: { tnd_typ_nm: at.tender?.tnd_typ_nm ?? null, reference_label: at.tender?.tnd_typ_fld_val?.trim() || null, reference: tender.reference },
    cashier: ctx.user.usr_full_nm,
    amount_in_words: amountInWords(fromPaise(total)),
    discount_total: fromPaise(lines.reduce((a, l) => a + toPaise(l.discount), 0)),
    balance_due: fromPaise(dueBefore - total),
    cancellation: null,
  };
  return { receipt, repeated: false };
}

/** The counter's collection: collectFeeInTx in a transaction of its own. */
export async function collectFee(db: Db, ctx: RequestContext, input: CollectFeeInput): Promise<{ receipt: Receipt; repeated: boolean }> {
  if (ctx.acdmCd === null) throw badRequest('Choose an academic year first.');
  const acdmCd = ctx.acdmCd;
  try {
    return await db.transaction((tx) => collectFeeInTx(tx, ctx, input));
  } catch (err) {
    // The same key from two requests at once: the unique index let one through; answer as a repeat would.
    if (!isUniqueViolation(err)) throw err;
    const earlier = await billByKey(db, ctx, acdmCd, input.idempotency_key);
    if (!earlier) throw conflict('Another change happened at the same time. Please try again.');
    await repeatOf(db, earlier, input);
    return { receipt: await billReceipt(db, ctx, earlier.fee_coll_cd), repeated: true };
  }
}

export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return (e.code ?? e.cause?.code) === '23505';
}

export function registerCollectFeeRoutes(app: FastifyInstance, db: Db): void {
  const tags = ['Fee Collection'];
  const pageAccess = (button?: string) => ({ access: { kind: 'page' as const, pages: collectPages, button, earlierYear: arrearsPage } });
  const receiptAccess = { access: { kind: 'page' as const, pages: receiptPages, earlierYear: arrearsPage } };

  app.get('/api/fee_collection/student/:stud_cd/dues', { config: pageAccess(), schema: { tags, summary: "A student's fee lines with amount, discount, paid and due" } }, async (req) => {
    const ctx = mustCtx(req);
    if (ctx.acdmCd === null) throw badRequest('Choose an academic year first.');
    const studCd = Number((req.params as { stud_cd: string }).stud_cd);
    if (!Number.isInteger(studCd) || studCd <= 0) throw badRequest('The student code must be a number.');
    const student = await studentFor(db, ctx, studCd, false);
    const dues = await studentDues(db, ctx.instCd, ctx.acdmCd, studCd);
    const tenders = await rows<Row>(
      db,
      sql`SELECT tnd_typ_cd, tnd_typ_nm, tnd_typ_fld_val FROM tender_type WHERE inst_cd = ${ctx.instCd} AND tnd_typ_sts ORDER BY tnd_typ_odr NULLS LAST, tnd_typ_nm`,
    );
    return {
      // cls_cd: the counter reloads these dues when that class's fee mapping changes (studentFeegroupSync).
      student: { stud_cd: student.stud_cd, stud_fs_nm: student.stud_fs_nm, stud_adm_cd: student.stud_adm_cd, cls_cd: student.cls_cd, cls_nm: student.cls_nm, sec_nm: student.sec_nm },
      promoted: dues.promoted,
      lines: dues.lines,
      tenders,
      // What the tender 'Wallet' can pay: the counter shows it when that tender is chosen.
      wallet: await walletBalance(db, ctx.instCd, studCd),
    };
  });

  app.post('/api/fee_collection/collect', { config: pageAccess('create'), schema: { tags, summary: 'Collect fees: one bill, one transaction' } }, async (req, reply) => {
    const parsed = collectFeeSchema.safeParse(req.body);
    if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'Invalid payment.');
    const { receipt, repeated } = await collectFee(db, mustCtx(req), parsed.data);
    reply.code(repeated ? 200 : 201);
    return { ...receipt, repeated };
  });

  const billId = (params: unknown): number => {
    const id = Number((params as { fee_coll_cd: string }).fee_coll_cd);
    if (!Number.isInteger(id) || id <= 0) throw badRequest('The bill code must be a number.');
    return id;
  };
  app.get('/api/fee_collection/bill/:fee_coll_cd', { config: receiptAccess, schema: { tags, summary: 'A bill as a receipt (reprint)' } }, async (req) => {
    return billReceipt(db, mustCtx(req), billId(req.params));
  });

  // The same receipt as a PDF to print: the same access and the same data as the JSON receipt above.
  app.get(
    '/api/fee_collection/bill/:fee_coll_cd/pdf',
    {
      config: receiptAccess,
      schema: { tags, summary: 'A bill as a printable PDF receipt (?size=A5|A4, ?lang=english|tamil)' },
    },
    async (req, reply) => {
      const ctx = mustCtx(req);
      const id = billId(req.params);
      const setup = await printSetup(db, ctx.instCd, req.query, 'A5');
      const receipt = await billReceipt(db, ctx, id);
      const pdf = await feeReceiptPdf(receipt, setup, ctx.user.usr_full_nm, localDateTime());
      return sendPdf(reply, pdf, `receipt-${String(receipt.bill.fee_coll_bill_no)}.pdf`);
    },
  );
}
