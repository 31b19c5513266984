import { apiPath, bodySchema, hasRoute, writableFields } from '@campus/entities/define';
import { livePages } from '@campus/entities/pages';
import { entity } from '@campus/entities/registry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, rows, sql, type Db } from '../src/db/client';
import { generateDemo } from '../src/db/demo/demo-data';
import { migrate } from '../src/db/migrate';
import { toPaise } from '../src/lib/paise';
import { seedIfEmpty } from '../src/db/seed';
import { backends, call, login, startTestServer, type Session, type TestServer } from './test-server';

type Row = Record<string, unknown>;

/** Rows of the running academic year (the demo also fills last year). */
const running = sql`acdm_cd IN (SELECT acdm_cd FROM academic WHERE acdm_sts)`;

async function count(db: Db, table: string, where = sql`true`): Promise<number> {
  const [r] = await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} WHERE ${where}`);
  return r.n;
}

/** Names in insertion order: what 'same seed, same data' is judged on. */
async function names(db: Db): Promise<{ students: string[]; staff: string[]; books: string[] }> {
  const col = async (q: ReturnType<typeof sql>) => (await rows<{ v: string }>(db, q)).map((r) => r.v);
  return {
    students: await col(sql`SELECT stud_fs_nm || '/' || stud_fthr_nm || '/' || stud_adm_cd || '/' || acdm_cd AS v FROM student ORDER BY stud_cd`),
    staff: await col(sql`SELECT usr_full_nm AS v FROM employee ORDER BY usr_cd`),
    books: await col(sql`SELECT bk_nm || '/' || bk_barcd AS v FROM book ORDER BY bk_cd`),
  };
}

describe.each(backends)('demo data on %s', (backend) => {
  let srv: TestServer;
  let admin: Session;
  let school: number;

  beforeAll(async () => {
    srv = await startTestServer(backend, {}, { demo: true });
    admin = await login(srv.app);
    school = admin.instCd;
    console.log(`demo data on ${backend}: ${(srv.demo!.ms / 1000).toFixed(2)} s`, srv.demo!.counts);
  });
  afterAll(async () => srv?.close());

  it('fills every live page of the school: each list shows rows to a new user signed in as ADMIN', async () => {
    const empty: string[] = [];
    for (const pg of livePages()) {
      const e = entity(pg.entity!);
      if (!hasRoute(e, 'list')) continue;
      const res = await call(srv.app, { ...admin, modulename: pg.module, pagename: pg.page }, 'GET', `${apiPath(e)}?size=1`);
      expect(res.statusCode, `${pg.module}/${pg.page}: ${res.body}`).toBe(200);
      if (res.json<{ total: number }>().total === 0) empty.push(`${pg.module}/${pg.page}`);
    }
    expect(empty).toEqual([]);
  });

  it('holds what the README promises', async () => {
    const db = srv.database.db;
    const inSchool = sql`inst_cd = ${school}`;
    const inCollege = sql`inst_cd <> ${school}`;
    expect(await count(db, 'class', inSchool)).toBe(10);
    expect(await count(db, 'section', inSchool)).toBe(20);
    expect(await count(db, 'student', sql`${inSchool} AND ${running}`)).toBe(600);
    // The seed's ADMIN is the 41st.
    expect(await count(db, 'employee', inSchool)).toBe(41);
    expect(await count(db, 'class', inCollege)).toBe(4);
    expect(await count(db, 'student', sql`${inCollege} AND ${running}`)).toBe(204);
    // Cash, UPI, Card, Cheque, Bank Transfer, Demand Draft, and Wallet and Online for their workflows.
    expect(await count(db, 'tender_type', inSchool)).toBe(8);
    expect(await count(db, 'tender_type', sql`${inSchool} AND NOT tnd_typ_sts`)).toBe(2);
    expect(await count(db, 'book', inSchool)).toBeGreaterThan(50);
    // Every issue and return slip names what moved: its first title is a book of the same library.
    for (const t of ['book_checkout', 'book_checkin']) {
      const slips = sql`${sql.identifier(t)} m`;
      expect(await count(db, t)).toBeGreaterThan(0);
      const named = sql`EXISTS (SELECT 1 FROM book b WHERE b.inst_cd = m.inst_cd AND m.bk_chk_bk_nms LIKE b.bk_nm || '%')`;
      const [r] = await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM ${slips} WHERE NOT ${named}`);
      expect(r.n, t).toBe(0);
    }
    expect(await count(db, 'holiday', sql`${inSchool} AND hly_nm IN ('Pongal', 'Deepavali', 'Independence Day', 'Christmas')`)).toBe(4);
    expect(await count(db, 'exam', inSchool)).toBe(5 * 20);
    // Every section has each of its subjects mapped to a teacher of its own institute.
    expect(await count(db, 'subject_detail', sql`usr_cd IS NULL`)).toBe(0);
    const stray = sql`EXISTS (SELECT 1 FROM employee e WHERE e.usr_cd = subject_detail.usr_cd AND e.inst_cd <> subject_detail.inst_cd)`;
    expect(await count(db, 'subject_detail', stray)).toBe(0);
    // A student's section belongs to the student's class.
    const wrongSection = sql`EXISTS (SELECT 1 FROM section x WHERE x.sec_cd = student.sec_cd AND x.cls_cd <> student.cls_cd)`;
    expect(await count(db, 'student', wrongSection)).toBe(0);
    // Every pupil has a birthday (a TC states it), born before joining; LKG children are 3 or 4 in the June the year starts,
    // class VIII 12 or 13; the admitted application of a child who joined this year gave the same date.
    expect(await count(db, 'student', sql`stud_dob IS NULL OR stud_dob >= stud_doj`)).toBe(0);
    const ages = await rows<{ cls_nm: string; lo: number; hi: number }>(
      db,
      sql`SELECT c.cls_nm, min(a.acdm_strt_yr - extract(year FROM s.stud_dob))::int AS lo, max(a.acdm_strt_yr - extract(year FROM s.stud_dob))::int AS hi
          FROM student s JOIN class c ON c.cls_cd = s.cls_cd JOIN academic a ON a.acdm_cd = s.acdm_cd
          WHERE s.inst_cd = ${school} AND c.cls_nm IN ('LKG', 'VIII') GROUP BY c.cls_nm ORDER BY c.cls_nm`,
    );
    expect(ages).toEqual([
      { cls_nm: 'LKG', lo: 3, hi: 4 },
      { cls_nm: 'VIII', lo: 12, hi: 13 },
    ]);
    const otherBirthday = sql`stud_admn_status = 'Admitted' AND NOT EXISTS (SELECT 1 FROM student s WHERE s.inst_cd = student_admission.inst_cd
      AND s.stud_fs_nm = student_admission.stud_admn_stud_nm AND s.stud_dob = student_admission.stud_admn_stud_dob)`;
    expect(await count(db, 'student_admission', sql`stud_admn_status = 'Admitted'`)).toBeGreaterThan(0);
    expect(await count(db, 'student_admission', otherBirthday)).toBe(0);
  });

  it("passes the entities' own validation (a sample of every entity it writes)", async () => {
    for (const name of Object.keys(srv.demo!.counts)) {
      const e = entity(name);
      const fields = writableFields(e);
      // Dates and money as the API sends them (text), not as the driver parses them.
      const cols = fields.map(([n, f]) => (f.kind === 'date' || f.kind === 'money' ? sql`${sql.identifier(n)}::text AS ${sql.identifier(n)}` : sql.identifier(n)));
      const sample = await rows<Row>(
        srv.database.db,
        sql`SELECT ${sql.join(cols, sql`, `)} FROM ${sql.identifier(e.table)} WHERE ${sql.identifier(e.key)} % 7 = 1 OR ${sql.identifier(e.key)} < 30 ORDER BY ${sql.identifier(e.key)} LIMIT 200`,
      );
      expect(sample.length, name).toBeGreaterThan(0);
      const schema = bodySchema(e, 'create');
      for (const r of sample) {
        const parsed = schema.safeParse(r);
        expect(parsed.success ? 'ok' : `${name} ${JSON.stringify(r)}: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`).toBe('ok');
      }
    }
  });

  it('gives the three demo accounts exactly their pages', async () => {
    const accounts = srv.demo!.accounts;
    expect(accounts.map((a) => a.login)).toEqual(['TEACHER', 'ACCOUNTANT', 'LIBRARIAN']);
    expect(new Set(accounts.map((a) => a.password)).size).toBe(3);
    for (const a of accounts) {
      const s = await login(srv.app, a.login, a.password);
      const res = await call(srv.app, s, 'GET', '/api/user_permission/userDetail');
      expect(res.statusCode).toBe(200);
      const perms = res.json<{ permissions: { usr_prms_mdl: string; usr_prms_page: string; usr_prms_btns: string; usr_need_data_chk: boolean }[] }>().permissions;
      expect(perms.map((p) => `${p.usr_prms_mdl}/${p.usr_prms_page}`).sort()).toEqual([...a.pages].sort());
      if (a.login === 'TEACHER') expect(perms).toMatchObject([{ usr_prms_btns: 'view,export', usr_need_data_chk: true }]);
    }
    // Every built page of their module, and only those: a fee page built later reaches the accountant too.
    const moduleOf = (m: string) => livePages().filter((pg) => pg.module === m).map((pg) => `${pg.module}/${pg.page}`);
    expect(accounts.find((a) => a.login === 'ACCOUNTANT')!.pages).toEqual(moduleOf('fee'));
    expect(accounts.find((a) => a.login === 'LIBRARIAN')!.pages).toEqual(moduleOf('library'));
    expect(moduleOf('fee')).toEqual(expect.arrayContaining(['fee/tender_type', 'fee/fee_type', 'fee/fee_group', 'fee/fee']));
  });

  it("shows the teacher only the students of the sections mapped to them, read-only", async () => {
    const a = srv.demo!.accounts.find((x) => x.login === 'TEACHER')!;
    const t = { ...(await login(srv.app, a.login, a.password)), pagename: 'profile', modulename: 'student' };
    const mine = await rows<{ n: number }>(
      srv.database.db,
      sql`SELECT count(*)::int AS n FROM student s WHERE ${running} AND EXISTS (SELECT 1 FROM subject_detail d WHERE d.sec_cd = s.sec_cd AND d.usr_cd = ${t.usr_cd})`,
    );
    const res = await call(srv.app, t, 'GET', '/api/student/?size=500');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ total: number; rows: { cls_nm: string; sec_nm: string }[] }>();
    expect(body.total).toBe(mine[0].n);
    expect(body.total).toBe(60);
    expect(new Set(body.rows.map((r) => `${r.cls_nm} ${r.sec_nm}`))).toEqual(new Set(['VI A', 'VI B']));
    const all = await call(srv.app, { ...admin, pagename: 'profile', modulename: 'student' }, 'GET', '/api/student/?size=1');
    expect(all.json<{ total: number }>().total).toBe(600);
    const create = await call(srv.app, t, 'POST', '/api/student/', { stud_fs_nm: 'New Child' });
    expect(create.statusCode).toBe(403);
    const fees = await call(srv.app, { ...t, pagename: 'fee_type', modulename: 'fee' }, 'GET', '/api/fee_type/');
    expect(fees.statusCode).toBe(403);
  });

  it('keeps the accountant to the fee pages and the librarian to the library', async () => {
    const acc = srv.demo!.accounts.find((x) => x.login === 'ACCOUNTANT')!;
    const lib = srv.demo!.accounts.find((x) => x.login === 'LIBRARIAN')!;
    const a = await login(srv.app, acc.login, acc.password);
    const l = await login(srv.app, lib.login, lib.password);
    expect((await call(srv.app, { ...a, pagename: 'fee_type', modulename: 'fee' }, 'GET', '/api/fee_type/')).json<{ total: number }>().total).toBe(9);
    expect((await call(srv.app, { ...a, pagename: 'book', modulename: 'library' }, 'GET', '/api/book/')).statusCode).toBe(403);
    expect((await call(srv.app, { ...l, pagename: 'book', modulename: 'library' }, 'GET', '/api/book/')).statusCode).toBe(200);
    expect((await call(srv.app, { ...l, pagename: 'fee_group', modulename: 'fee' }, 'GET', '/api/fee_group/')).statusCode).toBe(403);
  });

  it('has fee bills as the counter writes them, and summaries that agree with the counter', async () => {
    const db = srv.database.db;
    // Consecutive bill numbers from 1 per institute and year.
    const books = await rows<{ n: number; lo: number; hi: number }>(
      db,
      sql`SELECT count(*)::int AS n, min(fee_coll_bill_no)::int AS lo, max(fee_coll_bill_no)::int AS hi FROM fee_collection_bill GROUP BY inst_cd, acdm_cd`,
    );
    // School and college, this year and last.
    expect(books.length).toBe(4);
    for (const b of books) expect([b.lo, b.hi]).toEqual([1, b.n]);
    const bad = async (where: ReturnType<typeof sql>) => count(db, 'fee_collection_bill', where);
    // Lines share their bill's status and add up to it; dates between the term's start and today.
    expect(await bad(sql`EXISTS (SELECT 1 FROM fee_collection_line l WHERE l.fee_coll_cd = fee_collection_bill.fee_coll_cd AND l.fee_coll_dtl_sts <> fee_coll_sts)`)).toBe(0);
    expect(await bad(sql`fee_coll_amt <> (SELECT sum(l.fee_coll_dtl_amt) FROM fee_collection_line l WHERE l.fee_coll_cd = fee_collection_bill.fee_coll_cd)`)).toBe(0);
    expect(await bad(sql`fee_coll_crt_dt > current_date OR EXISTS (SELECT 1 FROM fee_collection_line l JOIN fee_group g ON g.fee_grp_cd = l.fee_grp_cd WHERE l.fee_coll_cd = fee_collection_bill.fee_coll_cd AND fee_coll_crt_dt < g.fee_grp_fee_str_dt)`)).toBe(0);
    // The tender is the institute's and on; a reference wherever the tender asks one.
    expect(await bad(sql`NOT EXISTS (SELECT 1 FROM tender_type t WHERE t.tnd_typ_cd = fee_collection_bill.tnd_typ_cd AND t.inst_cd = fee_collection_bill.inst_cd AND t.tnd_typ_sts AND (coalesce(t.tnd_typ_fld_val, '') = '') = (fee_coll_ref IS NULL))`)).toBe(0);
    // Cancelled bills each have their reason; a restored one keeps its cancellation as history.
    expect(await bad(sql`fee_coll_sts = 'Cancelled' AND NOT EXISTS (SELECT 1 FROM cancel_fee c WHERE c.fee_cncl_fee_cd = fee_collection_bill.fee_coll_cd AND c.fee_cncl_undo_dt IS NULL AND c.fee_cncl_rsn <> '')`)).toBe(0);
    expect(await bad(sql`inst_cd = ${school} AND fee_coll_sts = 'Cancelled'`)).toBeGreaterThanOrEqual(2);
    expect(await count(db, 'cancel_fee', sql`inst_cd = ${school} AND fee_cncl_undo_dt IS NOT NULL`)).toBe(1);
    // Some paid after the due date, with the late fee on the same bill.
    expect(await count(db, 'fee_collection_line', sql`inst_cd = ${school} AND fee_coll_dtl_kind = 'Late Fee'`)).toBeGreaterThan(5);
    // No mapping row is paid above what is owed on it (the promoted child's amount, less the discount).
    const over = await rows<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM (
            SELECT l.stud_cd, l.fee_cd, sum(l.fee_coll_dtl_amt) AS paid FROM fee_collection_line l
            WHERE l.fee_coll_dtl_kind = 'Fee' AND l.fee_coll_dtl_sts = 'Active' GROUP BY l.stud_cd, l.fee_cd) x
          JOIN student_fee_line_v v ON v.stud_cd = x.stud_cd AND v.fee_cd = x.fee_cd
          WHERE x.paid > v.amount - v.discount`,
    );
    expect(over[0].n).toBe(0);
    // About three in four paid, some paid nothing yet: the defaulters report has names.
    const payers = await rows<{ n: number }>(db, sql`SELECT count(DISTINCT stud_cd)::int AS n FROM fee_collection_bill WHERE inst_cd = ${school} AND ${running} AND fee_coll_sts = 'Active'`);
    expect(payers[0].n / 600).toBeGreaterThan(0.7);
    expect(payers[0].n / 600).toBeLessThan(0.95);

    // The summary's balance is the counter's dues (fees, not late fees), to the paisa, for a sample.
    const s = { ...admin, modulename: 'fee' };
    const sample = await rows<{ stud_cd: number }>(db, sql`SELECT stud_cd FROM student WHERE inst_cd = ${school} AND ${running} AND stud_cd % 40 = 3 ORDER BY stud_cd`);
    expect(sample.length).toBeGreaterThan(10);
    for (const { stud_cd } of sample) {
      const summary = await call(srv.app, { ...s, pagename: 'fee_management' }, 'GET', `/api/fee_collection/${stud_cd}`);
      expect(summary.statusCode, summary.body).toBe(200);
      const dues = await call(srv.app, { ...s, pagename: 'quick_fee_collection' }, 'GET', `/api/fee_collection/student/${stud_cd}/dues`);
      expect(dues.statusCode, dues.body).toBe(200);
      const lines = dues.json<{ lines: { kind: string; due: string }[] }>().lines;
      const due = lines.filter((l) => l.kind === 'Fee').reduce((a, l) => a + toPaise(l.due), 0);
      expect(due, `student ${stud_cd}`).toBe(toPaise(summary.json<{ balAmt: string }>().balAmt));
    }
  });

  it('carries last year: promoted children one class below with their old-student fees, some owing last year, promotions that add up', async () => {
    const db = srv.database.db;
    const one = async (q: ReturnType<typeof sql>): Promise<number> => (await rows<{ n: number }>(db, q))[0].n;
    // Each promoted child was in the class below last year (the college: the year below), section of the same name.
    const lastYear = sql`SELECT p.stud_cd AS old_cd, s.stud_cd, pc.cls_odr AS old_odr, sc.cls_odr, px.sec_nm AS old_sec, sx.sec_nm, p.inst_cd
      FROM student s JOIN academic sa ON sa.acdm_cd = s.acdm_cd AND sa.acdm_sts
      JOIN student p ON p.inst_cd = s.inst_cd AND p.stud_adm_cd = s.stud_adm_cd AND p.acdm_cd <> s.acdm_cd
      JOIN class pc ON pc.cls_cd = p.cls_cd JOIN class sc ON sc.cls_cd = s.cls_cd
      JOIN section px ON px.sec_cd = p.sec_cd JOIN section sx ON sx.sec_cd = s.sec_cd`;
    const promoted = await one(sql`SELECT count(*)::int AS n FROM (${lastYear}) x WHERE x.inst_cd = ${school}`);
    expect(promoted / 600).toBeGreaterThan(0.6);
    expect(await one(sql`SELECT count(*)::int AS n FROM (${lastYear}) x WHERE x.inst_cd = ${school} AND x.old_odr <> x.cls_odr - 1`)).toBe(0);
    // The sum of the promotion records is the number of children moved on.
    expect(await one(sql`SELECT sum(prmtn_stud_cnt)::int AS n FROM promotion WHERE inst_cd = ${school}`)).toBe(promoted);
    // They pay the old-student amount this year (no admission fee again).
    expect(await one(sql`SELECT count(DISTINCT stud_cd)::int AS n FROM student_fee_line_v WHERE inst_cd = ${school} AND ${running} AND promoted`)).toBe(promoted);
    // Most paid last year in full; a few still owe it, and Academic Fee Collect lists them.
    const owing = await call(srv.app, { ...admin, modulename: 'fee', pagename: 'academic_fee_collect' }, 'GET', '/api/academic_fee_collect/?size=1');
    expect(owing.statusCode, owing.body).toBe(200);
    const total = owing.json<{ total: number }>().total;
    expect(total / promoted).toBeGreaterThan(0.01);
    expect(total / promoted).toBeLessThan(0.1);
    // Discounts as the hook stores them: amount = percent of the child's amount, the child's section.
    const wrong = await one(sql`SELECT count(*)::int AS n FROM student_discount d JOIN student s ON s.stud_cd = d.stud_cd
      JOIN student_fee_line_v v ON v.stud_cd = d.stud_cd AND v.fee_cd = d.fee_cd
      WHERE d.sec_cd <> s.sec_cd OR d.disc_amt <> round(v.amount * d.disc_pct / 100, 2)`);
    expect(wrong).toBe(0);
    expect(await one(sql`SELECT count(DISTINCT disc_pct)::int AS n FROM student_discount WHERE inst_cd = ${school}`)).toBe(3);
    // Approved leave covers only days the register marks absent.
    const contradicted = await one(sql`SELECT count(*)::int AS n FROM student_leave l JOIN student_attendance a
      ON a.stud_cd = l.stud_cd AND a.stud_attn_dt BETWEEN l.stud_leav_frm_dt AND l.stud_leav_to_dt
      WHERE l.stud_leav_sts = 'Approved' AND a.stud_attn_sts <> 'Absent'`);
    expect(contradicted).toBe(0);
    // An accepted online payment is a bill of the same student, amount and day.
    const unbilled = await one(sql`SELECT count(*)::int AS n FROM online_payment_request o WHERE o.oln_pay_acpt_sts = 'Accepted' AND NOT EXISTS (
      SELECT 1 FROM fee_collection_bill b WHERE b.inst_cd = o.inst_cd AND b.acdm_cd = o.acdm_cd AND b.fee_coll_bill_no::text = o.oln_pay_bill_no
        AND b.stud_cd = o.stud_cd AND b.fee_coll_amt = o.oln_pay_tot_amt AND b.fee_coll_crt_dt = o.oln_pay_txn_dt)`);
    expect(unbilled).toBe(0);
  });

  if (backend === 'pglite') {
    it('gives the same names for the same seed', async () => {
      const again = await openDatabase({ dataDir: 'memory://' });
      try {
        await migrate(again.db);
        await seedIfEmpty(again.db, 'Another-Admin-Pass-1');
        const second = await generateDemo(again.db);
        expect(second.counts).toEqual(srv.demo!.counts);
        const [x, y] = [await names(srv.database.db), await names(again.db)];
        expect(y).toEqual(x);
        expect(new Set(x.students).size).toBe(x.students.length);
        // A second run on a filled database does nothing.
        expect((await generateDemo(again.db)).created).toBe(false);
      } finally {
        await again.close();
      }
    });
  }
});
