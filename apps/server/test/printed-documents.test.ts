import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows, sql } from '../src/db/client';
import { makeExams, type ExamFixture } from './exam-fixture';
import { A4, A5, firstPageInk, pdfInfo, pdfOf, pdfText } from './pdf-check';
import { makeFixture, type Fixture } from './student-workflow-fixture';
import { backends, call, startTestServer, type Session, type TestServer } from './test-server';

/*
 * The printed exam documents and certificates, read back as a person reads paper: pdftotext for the words
 * and figures, pdfinfo for the page size, pdftoppm for a first page with ink on it. Who may print what is
 * the screens' own rule: the mark list page (and under data_chk one's own sections), the certificate page's
 * 'print' button (and under data_chk one's own students).
 */

/** Where the first pages are written as PNG (CI keeps them as artefacts; a person can look at them). */
const SHOTS = process.env.PDF_SHOTS_DIR;
const shot = (name: string): string | undefined => (SHOTS ? `${SHOTS}/${name}.png` : undefined);

/** The text's line that names `who`, spaces squeezed: one table row of the mark sheet. */
const lineOf = (text: string, who: string): string => (text.split('\n').find((l) => l.includes(who)) ?? '').replace(/\s+/g, ' ');

describe.each(backends)('printed documents on %s', (backend) => {
  let srv: TestServer;
  let f: Fixture;
  let x: ExamFixture;
  let admin: Session;
  let instName = '';
  let s: number[] = [];
  let halfYearly = 0;
  const tag = `P${Date.now().toString(36).toUpperCase()}`;

  const markPage = (u: Session) => f.as(u, 'exam', 'mark_list');
  const certPage = (u: Session) => f.as(u, 'student', 'certificate');
  const get = (u: Session, url: string) => call(srv.app, u, 'GET', url);
  const save = async (mrk: number, entries: { stud_cd: number; marks?: number | null; absent?: boolean }[]) => {
    const res = await call(srv.app, markPage(admin), 'POST', '/api/student_mark/sheet', { mrk_cd: mrk, rows: entries });
    expect(res.statusCode, res.body).toBe(200);
  };

  beforeAll(async () => {
    srv = await startTestServer(backend);
    f = await makeFixture(srv);
    admin = f.admin;
    x = await makeExams(f, tag);
    s = f.studA;
    await save(x.marksA[0], [
      { stud_cd: s[0], marks: 90 },
      { stud_cd: s[1], marks: 30 },
      { stud_cd: s[2], marks: 80 },
    ]);
    await save(x.marksA[1], [
      { stud_cd: s[0], marks: 45.5 },
      { stud_cd: s[1], marks: 40 },
      { stud_cd: s[2], absent: true },
    ]);
    // A second exam of section A later in the year, Maths only: the report card has two columns.
    const typ = await f.created(f.as(admin, 'exam', 'examtype'), '/api/examtype/', { exmtyp_nm: `Half-yearly ${tag}`, exmtyp_sts: 'Draft' }, 'exmtyp_cd');
    halfYearly = await f.created(f.as(admin, 'exam', 'exam'), '/api/exam/', { exm_nm: `Half-yearly ${tag}`, exmtyp_cd: typ, cls_cd: f.cls1, sec_cd: f.secA, exm_strt_dt: '2025-12-10', exm_end_dt: '2025-12-15' }, 'exm_cd');
    const hyMaths = await f.created(f.as(admin, 'exam', 'mark'), '/api/mark/', { exm_cd: halfYearly, sub_cd: x.maths, mrk_max_mrk: 100, mrk_min_mrk: 35 }, 'mrk_cd');
    await save(hyMaths, [{ stud_cd: s[0], marks: 77.5 }]);
    const [inst] = await rows<{ inst_nm: string }>(srv.database.db, sql`SELECT inst_nm FROM institute WHERE inst_cd = ${admin.instCd}`);
    instName = inst.inst_nm;
  });
  afterAll(async () => srv?.close());

  it("prints an exam's mark sheet: every student with marks as written, total, percentage, result and rank", async () => {
    const pdf = pdfOf(await get(markPage(admin), `/api/mark/list/pdf?exm_cd=${x.examA}`));
    const text = pdfText(pdf);
    expect(text).toContain(instName);
    expect(text).toContain('Mark Sheet');
    expect(text).toContain(`Quarterly A ${tag}`);
    expect(text).toMatch(/Maths P\w+\s/);
    // Meena: 90 + 45.5 = 135.5 of 150 = 90.33 %, passed, first.
    expect(lineOf(text, f.names.get(s[0])!)).toMatch(/ 90 45\.5 135\.5 90\.33 % Pass 1$/);
    // Arun: Maths 30 is below 35: failed, no rank.
    expect(lineOf(text, f.names.get(s[1])!)).toMatch(/ 30 40 70 46\.67 % Fail$/);
    // Zara: absent in Science.
    expect(lineOf(text, f.names.get(s[2])!)).toMatch(/ 80 AB 80 53\.33 % Fail$/);
    expect(text).toMatch(/Students: 3\s+Passed: 1\s+Failed: 2/);
    expect(pdfInfo(pdf)).toMatchObject(A4);
    expect(firstPageInk(pdf, shot('mark-sheet'))).toBeGreaterThan(0.01);
    expect(pdfInfo(pdfOf(await get(markPage(admin), `/api/mark/list/pdf?exm_cd=${x.examA}&size=A5`)))).toMatchObject(A5);
  });

  it("prints a student's report card with each exam of the year and that exam's figures", async () => {
    const pdf = pdfOf(await get(markPage(admin), `/api/mark/report_card/${s[0]}/pdf`));
    const text = pdfText(pdf);
    expect(text).toContain('Report Card');
    expect(text).toContain(f.names.get(s[0])!);
    expect(text).toContain(instName);
    // Oldest exam first, one column each (a long exam name wraps inside its column).
    expect(lineOf(text, 'Subject')).toMatch(/Subject Quarterly A Half-yearly$/);
    expect(text).not.toContain('Quarterly B');
    expect(lineOf(text, `Maths ${tag}`)).toMatch(/90 \/ 100 77\.5 \/ 100/);
    expect(lineOf(text, `Science ${tag}`)).toMatch(/45\.5 \/ 50 -/);
    expect(lineOf(text, 'Total')).toMatch(/135\.5 \/ 150 77\.5 \/ 100/);
    expect(lineOf(text, 'Percentage')).toMatch(/90\.33 % 77\.50 %/);
    expect(lineOf(text, 'Rank')).toMatch(/1 1/);
    expect(pdfInfo(pdf)).toMatchObject(A5);
    expect(firstPageInk(pdf, shot('report-card'))).toBeGreaterThan(0.01);
  });

  it('keeps a teacher with his students only to his sections, and a user without the mark list out', async () => {
    const teacher = await f.employee([{ module: 'exam', page: 'mark_list', buttons: 'view' }], true, [f.secA]);
    expect(pdfText(pdfOf(await get(markPage(teacher), `/api/mark/list/pdf?exm_cd=${x.examA}`)))).toContain(f.names.get(s[0])!);
    const otherExam = await get(markPage(teacher), `/api/mark/list/pdf?exm_cd=${x.examB}`);
    expect(otherExam.statusCode).toBe(403);
    expect(otherExam.json<{ message: string }>().message).toBe('You can only see the marks of your own sections.');
    expect((await get(markPage(teacher), `/api/mark/report_card/${f.studB[0]}/pdf`)).statusCode).toBe(403);
    expect((await get(markPage(teacher), `/api/mark/report_card/${s[0]}/pdf`)).statusCode).toBe(200);
    const outsider = await f.employee([{ module: 'exam', page: 'mark', buttons: 'view' }], false);
    expect((await get(markPage(outsider), `/api/mark/list/pdf?exm_cd=${x.examA}`)).statusCode).toBe(403);
    expect((await get(markPage(outsider), `/api/mark/report_card/${s[0]}/pdf`)).statusCode).toBe(403);
    const bad = await get(markPage(admin), `/api/mark/list/pdf?exm_cd=${x.examA}&size=Letter`);
    expect(bad.statusCode).toBe(400);
    expect((await get(markPage(admin), '/api/mark/list/pdf')).json<{ message: string }>().message).toBe("Please select the 'Exam'.");
  });

  it('answers a code past the database range with a 400, not a 500', async () => {
    const huge = 99999999999;
    const asked = [
      await get(certPage(admin), `/api/certificate/${huge}/pdf`),
      await get(f.as(admin, 'fee', 'quick_fee_collection'), `/api/fee_collection/bill/${huge}/pdf`),
      await get(markPage(admin), `/api/mark/report_card/${huge}/pdf`),
      await get(markPage(admin), `/api/mark/list/pdf?exm_cd=${huge}`),
      await get(markPage(admin), `/api/mark/list?exm_cd=${huge}`),
      await get(f.as(admin, 'student', 'profile'), `/api/section/options?f_cls_cd=${huge}`),
    ];
    expect(asked.map((r) => r.statusCode)).toEqual([400, 400, 400, 400, 400, 400]);
    expect(asked[0].json<{ message: string }>().message).toBe('The record code must be a whole number from 1 to 2147483647.');
  });

  describe('certificates', () => {
    const issue = (u: Session, body: Record<string, unknown>) => call(srv.app, certPage(u), 'POST', '/api/certificate/', body);
    const tc = () => ({ stud_cd: s[0], cert_fct_typ: 'Transfer Certificate', cert_fct_lvng_dt: '2026-04-30', cert_fct_lvng_rsn: "Parent's transfer to Madurai", cert_fct_cndct: 'Very Good' });

    it('numbers each certificate of the institute in turn and asks a TC for what it states', async () => {
      const missing = await issue(admin, { ...tc(), cert_fct_lvng_rsn: '' });
      expect(missing.statusCode).toBe(400);
      // The refusal names the field, so the form can point at it.
      expect(missing.json<{ message: string; details: { field: string }[] }>()).toMatchObject({
        message: "Please enter the 'Reason for Leaving' of a transfer certificate.",
        details: [{ field: 'cert_fct_lvng_rsn' }],
      });
      const noConduct = await issue(admin, { stud_cd: s[1], cert_fct_typ: 'Conduct' });
      expect(noConduct.json<{ message: string; details: { field: string }[] }>()).toMatchObject({
        message: "Please select the 'Conduct and Character' the certificate states.",
        details: [{ field: 'cert_fct_cndct' }],
      });
      const a = await issue(admin, { stud_cd: s[1], cert_fct_typ: 'Bonafide', cert_fct_prps: 'To open a savings bank account' });
      const b = await issue(admin, tc());
      expect(a.statusCode, a.body).toBe(201);
      expect(b.statusCode, b.body).toBe(201);
      const [na, nb] = [a.json<{ cert_fct_nmb: number; cert_fct_nm: string }>(), b.json<{ cert_fct_nmb: number; cert_fct_nm: string }>()];
      expect(nb.cert_fct_nmb).toBe(na.cert_fct_nmb + 1);
      // A number may already be on paper: certificates are corrected, never deleted (which would reuse it).
      expect((await call(srv.app, certPage(admin), 'DELETE', '/api/certificate/', { primids: [b.json<{ cert_fct_cd: number }>().cert_fct_cd] })).statusCode).toBe(404);
      expect([na.cert_fct_nm, nb.cert_fct_nm]).toEqual(['Bonafide Certificate', 'Transfer Certificate']);
      // The number is the server's: a typed one is refused, not taken.
      expect((await issue(admin, { ...tc(), cert_fct_nmb: 1 })).statusCode).toBe(400);
    });

    it("prints a TC with its number, the institute and the student's particulars, in English and in Tamil", async () => {
      // The register's date of birth, which a TC must state; a child cannot join before being born.
      const profile = f.as(admin, 'student', 'profile');
      const { row_ver } = (await call(srv.app, profile, 'GET', `/api/student/${s[0]}`)).json<{ row_ver: number }>();
      const early = await call(srv.app, profile, 'PUT', `/api/student/${s[0]}`, { stud_dob: '2012-03-25', stud_doj: '2011-06-01', row_ver });
      expect(early.statusCode).toBe(400);
      expect(early.json<{ message: string }>().message).toContain("'Date of Joining' cannot be before 'Date of Birth'.");
      expect((await call(srv.app, profile, 'PUT', `/api/student/${s[0]}`, { stud_dob: '2012-03-25', row_ver })).statusCode).toBe(200);
      const made = (await issue(admin, tc())).json<{ cert_fct_cd: number; cert_fct_nmb: number }>();
      const pdf = pdfOf(await get(certPage(admin), `/api/certificate/${made.cert_fct_cd}/pdf`));
      const text = pdfText(pdf);
      expect(text).toContain(instName);
      expect(text).toContain('Transfer Certificate');
      expect(text).toMatch(new RegExp(`Certificate No: ${made.cert_fct_nmb}\\b`));
      expect(lineOf(text, 'Name of the student')).toContain(f.names.get(s[0])!);
      expect(lineOf(text, 'Date of birth')).toContain('2012/Mar/25');
      expect(lineOf(text, 'Class and section last studied')).toMatch(/Class W\w+ - A/);
      expect(lineOf(text, 'Date of leaving')).toContain('2026/Apr/30');
      expect(lineOf(text, 'Reason for leaving')).toContain("Parent's transfer to Madurai");
      expect(lineOf(text, 'Conduct and character')).toContain('Very Good');
      // Signed off by the issuer's name, not the login id the row stamps.
      expect(text).toMatch(/Prepared by: Administrator/);
      expect(pdfInfo(pdf)).toMatchObject(A4);
      expect(firstPageInk(pdf, shot('transfer-certificate'))).toBeGreaterThan(0.01);
      const tamil = pdfText(pdfOf(await get(certPage(admin), `/api/certificate/${made.cert_fct_cd}/pdf?lang=tamil`)));
      expect(tamil).toContain('மாற்றுச் சான்றிதழ்');
      expect(tamil).toContain('மிக நன்று');
      expect(tamil).toContain(f.names.get(s[0])!);
    });

    it('prints a bonafide certificate as its paragraph with the purpose', async () => {
      const made = (await issue(admin, { stud_cd: s[1], cert_fct_typ: 'Bonafide', cert_fct_prps: 'For the scholarship application' })).json<{ cert_fct_cd: number }>();
      const text = pdfText(pdfOf(await get(certPage(admin), `/api/certificate/${made.cert_fct_cd}/pdf?size=A5`))).replace(/\s+/g, ' ');
      expect(text).toContain('Bonafide Certificate');
      expect(text).toContain(`This is to certify that ${f.names.get(s[1])!}`);
      expect(text).toContain('For the scholarship application');
    });

    it("needs the page's print button, and keeps a teacher with his students only to his own students", async () => {
      const made = (await issue(admin, tc())).json<{ cert_fct_cd: number }>();
      const url = `/api/certificate/${made.cert_fct_cd}/pdf`;
      const viewer = await f.employee([{ module: 'student', page: 'certificate', buttons: 'view' }], false);
      const refused = await get(certPage(viewer), url);
      expect(refused.statusCode).toBe(403);
      const printer = await f.employee([{ module: 'student', page: 'certificate', buttons: 'view,print' }], false);
      expect((await get(certPage(printer), url)).statusCode).toBe(200);
      const otherTeacher = await f.employee([{ module: 'student', page: 'certificate', buttons: 'view,print' }], true, [f.secB]);
      expect((await get(certPage(otherTeacher), url)).statusCode).toBe(404);
      const ownTeacher = await f.employee([{ module: 'student', page: 'certificate', buttons: 'view,print' }], true, [f.secA]);
      expect((await get(certPage(ownTeacher), url)).statusCode).toBe(200);
    });
  });
});
