import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discountAmount, discountPercent } from '../src/hooks/student-discount.hooks';
import { feeWorld, type FeeWorld } from './fee-fixture';
import { backends, call, startTestServer, type Session, type TestServer } from './test-server';

type Row = Record<string, unknown>;

describe('discount arithmetic (spec section 5)', () => {
  it('amount is percent times base, percent is amount over base, 2 decimals, 0.00 for a zero or empty input', () => {
    expect(discountAmount('10', 123450)).toBe(12345);
    expect(discountAmount('12.5', 800000)).toBe(100000);
    expect(discountAmount('33.33', 100)).toBe(33);
    expect(discountAmount('', 800000)).toBe(0);
    expect(discountAmount(null, 800000)).toBe(0);
    expect(discountAmount('0', 800000)).toBe(0);
    expect(discountAmount('10', 0)).toBe(0);
    expect(discountPercent(100000, 800000)).toBe('12.50');
    expect(discountPercent(100, 300)).toBe('33.33');
    expect(discountPercent(200, 300)).toBe('66.67');
    expect(discountPercent(0, 800000)).toBe('0.00');
    expect(discountPercent(500, 0)).toBe('0.00');
  });
});

describe.each(backends)('student discount on %s', (backend) => {
  let srv: TestServer;
  let w: FeeWorld;
  let page: Session;

  beforeAll(async () => {
    srv = await startTestServer(backend);
    w = await feeWorld(srv);
    page = w.as(w.admin, 'student', 'discount');
  });
  afterAll(async () => srv?.close());

  const post = (body: Row) => call(srv.app, page, 'POST', '/api/discount/', body);

  it('computes the amount from a percent, the percent from an amount, and lets the amount win', async () => {
    const stud = await w.student(w.secA);
    const a = await post({ stud_cd: stud, fee_cd: w.tuition1, disc_pct: 12.5, disc_rsn: 'Sibling' });
    expect(a.statusCode, a.body).toBe(201);
    expect(a.json<Row>()).toMatchObject({ disc_pct: '12.50', disc_amt: '1000.00', sec_cd: w.secA });
    const b = await post({ stud_cd: stud, fee_cd: w.tuition2, disc_amt: '2000', disc_pct: 1 });
    expect(b.json<Row>()).toMatchObject({ disc_pct: '25.00', disc_amt: '2000.00' });
    const c = await post({ stud_cd: stud, fee_cd: w.books1 });
    expect(c.json<Row>()).toMatchObject({ disc_pct: '0.00', disc_amt: '0.00' });
    const row = b.json<Row>();
    const up = await call(srv.app, page, 'PUT', `/api/discount/${String(row.disc_cd)}`, { disc_pct: 50, row_ver: row.row_ver });
    expect(up.statusCode, up.body).toBe(200);
    expect(up.json<Row>()).toMatchObject({ disc_pct: '50.00', disc_amt: '4000.00' });
    const dup = await post({ stud_cd: stud, fee_cd: w.tuition1, disc_pct: 1 });
    expect(dup.statusCode).toBe(409);
    const dues = await call(srv.app, w.as(w.admin, 'fee', 'quick_fee_collection'), 'GET', `/api/fee_collection/student/${stud}/dues`);
    expect(dues.json<{ lines: Row[] }>().lines.find((l) => l.fee_cd === w.tuition1)).toMatchObject({ discount: '1000.00', due: '7000.00' });
  });

  it("uses the promoted student's amount as the base", async () => {
    const adm = `ADM${w.next()}`;
    await w.student(w.secA, 'Old Child', w.lastYear, adm);
    const stud = await w.student(w.secA, 'Old Child', w.thisYear, adm);
    const res = await post({ stud_cd: stud, fee_cd: w.tuition1, disc_pct: 10 });
    expect(res.json<Row>()).toMatchObject({ disc_amt: '700.00' });
  });

  it("refuses last year's row of a child: this year's discount names this year's student", async () => {
    const old = await w.student(w.secA, 'Last Year Child', w.lastYear);
    const res = await post({ stud_cd: old, fee_cd: w.tuition1, disc_pct: 10 });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toBe("'Student' is not a valid choice.");
  });

  it("refuses more than the fee, a mapping of another class, and a discount below what is paid", async () => {
    const stud = await w.student(w.secA);
    const over = await post({ stud_cd: stud, fee_cd: w.tuition1, disc_amt: '8000.01' });
    expect(over.statusCode).toBe(400);
    expect(over.json<{ message: string }>().message).toBe('The discount cannot exceed the fee amount 8000.00.');
    const cls2 = await w.created(w.as(w.admin, 'class_section', 'class'), '/api/class/', { cls_nm: `Other ${w.next()}` }, 'cls_cd');
    const sec2 = await w.created(w.as(w.admin, 'class_section', 'section'), '/api/section/', { sec_nm: 'A', cls_cd: cls2 }, 'sec_cd');
    const elsewhere = await w.created(w.as(w.admin, 'student', 'profile'), '/api/student/', { stud_fs_nm: 'Elsewhere', stud_adm_cd: `ADM${w.next()}`, cls_cd: cls2, sec_cd: sec2 }, 'stud_cd');
    const wrong = await post({ stud_cd: elsewhere, fee_cd: w.tuition1, disc_pct: 5 });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json<{ message: string }>().message).toBe("This fee mapping is not of the student's class.");
    const paid = await call(srv.app, w.as(w.admin, 'fee', 'quick_fee_collection'), 'POST', '/api/fee_collection/collect', {
      stud_cd: stud,
      tnd_typ_cd: w.cash,
      idempotency_key: randomUUID(),
      lines: [{ fee_cd: w.tuition1, amount: '7500.00' }],
    });
    expect(paid.statusCode, paid.body).toBe(201);
    const tooMuch = await post({ stud_cd: stud, fee_cd: w.tuition1, disc_amt: '600.00' });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json<{ message: string }>().message).toContain('the discount can be at most 500.00');
    expect((await post({ stud_cd: stud, fee_cd: w.tuition1, disc_amt: '500.00' })).statusCode).toBe(201);
  });

  it('names the fee in the dropdown and the grid (term - fee type - class), and follows a rename of the fee type', async () => {
    const opts = await call(srv.app, page, 'GET', `/api/fee/options?q=${encodeURIComponent(`Tuition ${w.tag}`)}`);
    expect(opts.statusCode, opts.body).toBe(200);
    const labels = JSON.stringify(opts.json());
    expect(labels).toContain(`Term 1 ${w.tag} - Tuition ${w.tag} - Class `);
    const stud = await w.student(w.secA);
    const made = (await post({ stud_cd: stud, fee_cd: w.books1, disc_pct: 5 })).json<Row>();
    expect(String(made.fee_nm)).toMatch(new RegExp(`^Term 1 ${w.tag} - Books ${w.tag} - Class `));
    // Renaming the fee type renames every mapping that shows it.
    const typ = w.as(w.admin, 'fee', 'fee_type');
    const books = (await call(srv.app, typ, 'GET', `/api/fee_type/?q=${encodeURIComponent(`Books ${w.tag}`)}`)).json<{ rows: Row[] }>().rows[0];
    const renamed = await call(srv.app, typ, 'PUT', `/api/fee_type/${String(books.feetyp_cd)}`, { feetyp_nm: `Note Books ${w.tag}`, row_ver: books.row_ver });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const again = (await call(srv.app, page, 'GET', `/api/discount/${String(made.disc_cd)}`)).json<Row>();
    expect(String(again.fee_nm)).toMatch(new RegExp(`^Term 1 ${w.tag} - Note Books ${w.tag} - Class `));
  });

  it("hides other sections' discounts from a teacher with 'his students only'", async () => {
    const own = await w.student(w.secA);
    const other = await w.student(w.secB);
    const a = (await post({ stud_cd: own, fee_cd: w.books1, disc_pct: 1 })).json<Row>();
    const b = (await post({ stud_cd: other, fee_cd: w.books1, disc_pct: 1 })).json<Row>();
    const t = w.as(await w.employee({ 'student/discount': 'view,create,edit' }, true, [w.secA]), 'student', 'discount');
    const list = await call(srv.app, t, 'GET', '/api/discount/?size=500');
    const ids = list.json<{ rows: Row[] }>().rows.map((r) => r.disc_cd);
    expect(ids).toContain(a.disc_cd);
    expect(ids).not.toContain(b.disc_cd);
    expect((await call(srv.app, t, 'GET', `/api/discount/${String(b.disc_cd)}`)).statusCode).toBe(404);
    const foreign = await call(srv.app, t, 'POST', '/api/discount/', { stud_cd: other, fee_cd: w.tuition1, disc_pct: 1 });
    expect(foreign.statusCode).toBe(403);
  });
});
