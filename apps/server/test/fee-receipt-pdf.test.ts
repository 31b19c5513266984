import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { feeWorld, type FeeWorld } from './fee-fixture';
import { A4, A5, firstPageInk, pdfInfo, pdfLetters, pdfOf, pdfText } from './pdf-check';
import { backends, call, startTestServer, type Session, type TestServer } from './test-server';

type Row = Record<string, unknown>;
interface ReceiptJson {
  bill: Row;
  student: Row;
  institute: Row;
  cashier: string;
  amount_in_words: string;
  balance_due: string;
  tender: Row;
  cancellation: Row | null;
}

const WORDS = 'Rupees Four Thousand Four Hundred Seventy Five and Fifty Paise Only';

describe.each(backends)('the fee receipt as a PDF on %s', (backend) => {
  let srv: TestServer;
  let w: FeeWorld;
  let counter: Session;
  let office: Session;
  let stud: number;
  let bill: Row;
  let instNm: string;

  const collect = async (studCd: number, lines: { fee_cd: number; amount: string }[], more: Row = {}): Promise<Row> => {
    const res = await call(srv.app, counter, 'POST', '/api/fee_collection/collect', { stud_cd: studCd, tnd_typ_cd: w.cash, idempotency_key: randomUUID(), lines, ...more });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ bill: Row }>().bill;
  };
  const pdf = async (s: Session, id: unknown, query = ''): Promise<Buffer> => pdfOf(await call(srv.app, s, 'GET', `/api/fee_collection/bill/${String(id)}/pdf${query}`));

  beforeAll(async () => {
    srv = await startTestServer(backend);
    w = await feeWorld(srv);
    counter = w.as(w.admin, 'fee', 'quick_fee_collection');
    office = w.as(w.admin, 'fee', 'fee_collected');
    stud = await w.student(w.secA, `Kavya ${w.tag}`, undefined, undefined, { stud_fthr_nm: 'Murugan Selvam' });
    // 4000.00 + 475.50 = 4475.50 of 17334.50 owed (1234.50 + 8000.00 + late 100.00 + 8000.00).
    bill = await collect(stud, [
      { fee_cd: w.tuition1, amount: '4000' },
      { fee_cd: w.books1, amount: '475.5' },
    ]);
    instNm = (await call(srv.app, counter, 'GET', `/api/fee_collection/bill/${String(bill.fee_coll_cd)}`)).json<ReceiptJson>().institute.inst_nm as string;
  });
  afterAll(async () => srv?.close());

  it('prints on A5 what a receipt shows: number, figures with 2 decimals, words, balance, father, class, institute, cashier', async () => {
    const doc = await pdf(counter, bill.fee_coll_cd);
    const text = pdfText(doc);
    expect(text).toContain(instNm);
    expect(text).toContain('Fee Receipt');
    expect(text).toMatch(new RegExp(`Receipt No: ${String(bill.fee_coll_bill_no)}\\b`));
    expect(text).toMatch(/Tuition \S+ \(Term 1 \S+\)\s+4,000\.00/);
    expect(text).toMatch(/Books \S+ \(Term 1 \S+\)\s+475\.50/);
    expect(text).toMatch(/Total Paid\s+4,475\.50/);
    expect(text).toContain(WORDS);
    expect(text).toContain('Balance Due: 12,859.00');
    expect(text).toContain("Father's Name: Murugan Selvam");
    expect(text).toContain(`Class - Section: ${w.clsNm} - A`);
    expect(text).toContain(`Kavya ${w.tag}`);
    expect(text).toContain(`Cash ${w.tag}`);
    expect(text).toContain('Cashier: Administrator');
    expect(pdfLetters(doc)).not.toContain('CANCELLED');
    expect(pdfInfo(doc)).toMatchObject({ ...A5, pages: 1 });
    expect(firstPageInk(doc, process.env.RECEIPT_PNG_DIR ? `${process.env.RECEIPT_PNG_DIR}/receipt-a5.png` : undefined)).toBeGreaterThan(0.01);
  });

  it('gives the JSON receipt the same new facts (one function feeds both)', async () => {
    const r = (await call(srv.app, office, 'GET', `/api/fee_collection/bill/${String(bill.fee_coll_cd)}`)).json<ReceiptJson>();
    expect(r).toMatchObject({
      cashier: 'Administrator',
      amount_in_words: WORDS,
      balance_due: '12859.00',
      student: { stud_fthr_nm: 'Murugan Selvam', cls_nm: w.clsNm, sec_nm: 'A' },
      tender: { tnd_typ_nm: `Cash ${w.tag}`, reference: null },
      cancellation: null,
    });
  });

  it('prints A4 on request and refuses a size it does not know', async () => {
    const doc = await pdf(office, bill.fee_coll_cd, '?size=A4');
    expect(pdfInfo(doc)).toMatchObject({ ...A4, pages: 1 });
    expect(pdfText(doc)).toContain(WORDS);
    expect(firstPageInk(doc, process.env.RECEIPT_PNG_DIR ? `${process.env.RECEIPT_PNG_DIR}/receipt-a4.png` : undefined)).toBeGreaterThan(0.005);
    const bad = await call(srv.app, office, 'GET', `/api/fee_collection/bill/${String(bill.fee_coll_cd)}/pdf?size=Letter`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toBe("The page size must be 'A4' or 'A5'.");
    expect((await call(srv.app, office, 'GET', `/api/fee_collection/bill/${String(bill.fee_coll_cd)}/pdf?lang=french`)).statusCode).toBe(400);
  });

  it('prints Tamil labels in Tamil with the figures unchanged', async () => {
    const doc = await pdf(counter, bill.fee_coll_cd, '?lang=tamil');
    firstPageInk(doc, process.env.RECEIPT_PNG_DIR ? `${process.env.RECEIPT_PNG_DIR}/receipt-tamil.png` : undefined);
    const text = pdfText(doc);
    expect(text).toContain('கட்டண ரசீது');
    expect(text).toContain('தந்தையின் பெயர்: Murugan Selvam');
    expect(text).toContain('நிலுவைத் தொகை: 12,859.00');
    expect(text).toContain('காசாளர்: Administrator');
    expect(text).toMatch(/4,475\.50/);
  });

  it('keeps the balance as it was right after the bill when a later bill is reprinted beside it', async () => {
    const later = await collect(stud, [{ fee_cd: w.tuition2, amount: '1000.00' }], { tnd_typ_cd: w.cheque, reference: 'CHQ-77120' });
    const laterText = pdfText(await pdf(office, later.fee_coll_cd));
    expect(laterText).toContain('Balance Due: 11,859.00');
    expect(laterText).toContain('Rupees One Thousand Only');
    expect(laterText).toContain('Cheque No.: CHQ-77120');
    expect(pdfText(await pdf(office, bill.fee_coll_cd))).toContain('Balance Due: 12,859.00');
  });

  it("writes 'CANCELLED' across a cancelled bill, with who cancelled it and why", async () => {
    const other = await w.student(w.secA);
    const b = await collect(other, [{ fee_cd: w.books1, amount: '100.00' }]);
    const res = await call(srv.app, office, 'POST', '/api/fee/CollectedFee/cancel', { fee_coll_cd: b.fee_coll_cd, reason: 'Paid twice by mistake' });
    expect(res.statusCode, res.body).toBe(200);
    const doc = await pdf(office, b.fee_coll_cd);
    expect(pdfLetters(doc)).toContain('CANCELLED');
    expect(pdfText(doc)).toMatch(/Cancelled on \d{4}\/\w{3}\/\d{2} by Administrator\. Reason: Paid twice by mistake/);
    expect(pdfText(doc)).not.toContain('Balance Due');
    expect(pdfInfo(doc).width).toBe(A5.width);
    expect(firstPageInk(doc, process.env.RECEIPT_PNG_DIR ? `${process.env.RECEIPT_PNG_DIR}/receipt-cancelled.png` : undefined)).toBeGreaterThan(0.01);
  });

  it('has exactly the JSON receipt’s access: refused without one of its pages, and another section’s bill to a restricted teacher', async () => {
    const stranger = w.as(await w.employee({ 'fee/fee_type': 'view' }, false), 'fee', 'fee_collected');
    const refused = await call(srv.app, stranger, 'GET', `/api/fee_collection/bill/${String(bill.fee_coll_cd)}/pdf`);
    expect(refused.statusCode).toBe(403);
    expect((await call(srv.app, stranger, 'GET', `/api/fee_collection/bill/${String(bill.fee_coll_cd)}`)).statusCode).toBe(403);

    const clerk = w.as(await w.employee({ 'fee/fee_collected': 'view' }, false), 'fee', 'fee_collected');
    expect(pdfText(await pdf(clerk, bill.fee_coll_cd))).toContain(WORDS);

    const teacher = w.as(await w.employee({ 'fee/fee_collected': 'view' }, true, [w.secB]), 'fee', 'fee_collected');
    const json = await call(srv.app, teacher, 'GET', `/api/fee_collection/bill/${String(bill.fee_coll_cd)}`);
    const paper = await call(srv.app, teacher, 'GET', `/api/fee_collection/bill/${String(bill.fee_coll_cd)}/pdf`);
    expect(json.statusCode).toBeGreaterThanOrEqual(403);
    expect(paper.statusCode).toBe(json.statusCode);
    expect(paper.headers['content-type']).not.toBe('application/pdf');

    expect((await call(srv.app, office, 'GET', '/api/fee_collection/bill/abc/pdf')).statusCode).toBe(400);
    expect((await call(srv.app, office, 'GET', '/api/fee_collection/bill/99999999/pdf')).statusCode).toBe(404);
  });
});
