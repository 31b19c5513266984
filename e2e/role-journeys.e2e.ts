import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiLogin, type ApiSession } from './api-client';
import { ADMIN_PASSWORD, browserAvailable, signIn, startE2e, typeInto, type E2eEnv } from './browser-harness';
import { examLabel } from '../apps/web/src/workflows/enter-marks/marks-model';

/*
 * A working day of two demo staff, typed the way they type: the TEACHER marks today's attendance of one of
 * his sections (a child absent, with a remark) and enters one subject's marks of an exam, key by key, Enter
 * to the next child; the LIBRARIAN adds a book, typing every field. What they saved is read back through the
 * API, and any uncaught page error or console error on the way fails the journey.
 */

const PASSWORD = 'Demo-Journeys-Pass-5';
const SHOTS = mkdtempSync(join(tmpdir(), 'campus-role-journey-shots-'));
const ATTENDANCE = { module: 'student', page: 'attendance' };
const MARKS = { module: 'exam', page: 'mark_list' };
const PERMISSIONS = { module: 'user_permission', page: 'permission' };
const BOOKS = { module: 'library', page: 'book' };
const CATEGORIES = { module: 'library', page: 'category' };

interface SectionChoice {
  sec_cd: number;
  sec_nm: string;
  cls_cd: number;
  cls_nm: string;
}
interface AttendanceSheet {
  today: string;
  refusal: string | null;
  rows: { stud_cd: number; stud_fs_nm: string; status: string; remarks: string; on_leave: boolean }[];
}
interface ExamChoice {
  exm_cd: number;
  exm_nm: string;
  cls_nm: string;
  sec_nm: string;
}
interface SubjectChoice {
  mrk_cd: number;
  sub_nm: string;
  mrk_max_mrk: number;
  mrk_min_mrk: number;
}
interface MarksSheet {
  mrk_max_mrk: number;
  rows: { stud_cd: number; stud_fs_nm: string; marks: string | null; absent: boolean; remarks: string | null }[];
}

/** Picks an option of an open Mantine dropdown by its exact text. */
async function pickOption(page: Page, name: string): Promise<void> {
  await page.getByRole('option', { name, exact: true }).click();
}

/** A Mantine Select: typed into when it searches, otherwise opened; then the option is picked. */
async function choose(page: Page, select: Locator, option: string, typed?: string): Promise<void> {
  if (typed !== undefined) await typeInto(select, typed);
  else await select.click();
  await pickOption(page, option);
  await expect.poll(() => select.inputValue()).toBe(option);
}

describe.skipIf(!browserAvailable())('role journeys on the demo school, typed key by key (Chromium)', () => {
  let env: E2eEnv;
  let admin: ApiSession;
  let teacher: ApiSession;

  beforeAll(async () => {
    env = await startE2e({ demo: { password: PASSWORD } });
    admin = await apiLogin(env.baseUrl, 'ADMIN', ADMIN_PASSWORD);
    teacher = await apiLogin(env.baseUrl, 'TEACHER', PASSWORD);
    /*
     * The demo gives the teacher the Student page only; the office gives a class teacher attendance and
     * marks, for his own sections ('access his students only'), as it would in User Permission.
     */
    for (const [module, page] of [
      ['student', 'attendance'],
      ['exam', 'mark_list'],
    ] as const) {
      const granted = await api(env.baseUrl, admin, 'POST', '/api/user_permission/?usrNeedDataChk=1', PERMISSIONS, [
        { usr_prms_usr_cd: teacher.usrCd, usr_prms_mdl: module, usr_prms_page: page, usr_prms_is_alw: 1, usr_prms_btns: 'view,create,edit' },
      ]);
      expect(granted.status, JSON.stringify(granted.json)).toBe(200);
    }
  }, 240_000);
  afterAll(async () => env?.close());

  it("TEACHER marks today's attendance of his section: one child absent, with a typed remark", async () => {
    const { page, baseUrl } = env;
    await signIn(env, 'TEACHER', PASSWORD);
    const sections = (await api<SectionChoice[]>(baseUrl, teacher, 'GET', '/api/student_attendance/sections', ATTENDANCE)).json;
    expect(sections.length).toBeGreaterThan(0);
    const section = sections[sections.length - 1];

    await page.goto(`${baseUrl}/sms/student/attendance/create`);
    const classBox = page.getByRole('combobox', { name: 'Class' });
    await classBox.waitFor({ timeout: 15_000 });
    // One class taught: it is chosen already. Otherwise he types it and picks it.
    if ((await classBox.inputValue()) !== section.cls_nm) await choose(page, classBox, section.cls_nm, section.cls_nm);
    await choose(page, page.getByRole('combobox', { name: 'Section' }), section.sec_nm);
    await page.getByTestId('attendance-counts').waitFor({ timeout: 15_000 });

    // The screen opens on today (server and browser share this machine's clock).
    const now = new Date();
    const day = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
    const before = (
      await api<AttendanceSheet>(baseUrl, teacher, 'GET', `/api/student_attendance/sheet?cls_cd=${section.cls_cd}&sec_cd=${section.sec_cd}&date=${day}`, ATTENDANCE)
    ).json;
    expect(before.refusal, JSON.stringify(before).slice(0, 300)).toBeNull();
    const child = before.rows.find((r) => !r.on_leave && r.status === 'Present') ?? before.rows[0];
    // On the child's line he presses A (the screen's key for Absent), then types why.
    const line = page.getByRole('radiogroup', { name: child.stud_fs_nm, exact: true });
    await line.getByRole('radio').first().focus();
    await page.keyboard.press('a');
    const remark = page.getByRole('textbox', { name: 'Remarks' }).first();
    await remark.waitFor();
    const why = 'Fever, mother phoned at 8:10';
    await typeInto(remark, why);
    await expect.poll(() => remark.inputValue()).toBe(why);
    await page.screenshot({ path: join(SHOTS, 'teacher-attendance.png'), fullPage: true });
    await page.getByRole('button', { name: 'Save' }).last().click();
    await page.getByText(/Attendance saved:/).waitFor({ timeout: 15_000 });

    const after = (
      await api<AttendanceSheet>(baseUrl, teacher, 'GET', `/api/student_attendance/sheet?cls_cd=${section.cls_cd}&sec_cd=${section.sec_cd}&date=${day}`, ATTENDANCE)
    ).json;
    expect(after.rows.find((r) => r.stud_cd === child.stud_cd)).toMatchObject({ status: 'Absent', remarks: why });
    expect(env.problems).toEqual([]);
  });

  it("TEACHER enters one subject's marks of an exam, typing each child's mark and pressing Enter", async () => {
    const { page, baseUrl } = env;
    const exams = (await api<ExamChoice[]>(baseUrl, teacher, 'GET', '/api/student_mark/exams', MARKS)).json;
    let exam: ExamChoice | undefined;
    let subjects: SubjectChoice[] = [];
    for (const e of exams) {
      subjects = (await api<SubjectChoice[]>(baseUrl, teacher, 'GET', `/api/student_mark/subjects?exm_cd=${e.exm_cd}`, MARKS)).json;
      if (subjects.length > 0) {
        exam = e;
        break;
      }
    }
    expect(exam, 'an exam of his sections with a subject he teaches').toBeDefined();
    const subject = subjects[0];

    await page.goto(`${baseUrl}/sms/exam/mark_list/create`);
    const examBox = page.getByRole('combobox', { name: 'Exam' });
    await examBox.waitFor({ timeout: 15_000 });
    await choose(page, examBox, examLabel(exam!), exam!.exm_nm);
    const subjectBox = page.getByRole('combobox', { name: 'Subject' });
    const subjectLabel = `${subject.sub_nm} (${subject.mrk_min_mrk}/${subject.mrk_max_mrk})`;
    await expect.poll(() => subjectBox.isEnabled()).toBe(true);
    if ((await subjectBox.inputValue()) !== subjectLabel) await choose(page, subjectBox, subjectLabel);

    const markBoxes = page.getByRole('textbox', { name: /^Marks Obtained: / });
    await markBoxes.first().waitFor({ timeout: 15_000 });
    const count = await markBoxes.count();
    expect(count).toBeGreaterThan(0);
    const max = subject.mrk_max_mrk;
    const typed = new Map<string, string>();
    for (let i = 0; i < count; i++) {
      const box = markBoxes.nth(i);
      if (!(await box.isEnabled())) continue;
      // Whole and half marks within the maximum, a different one for each child.
      const mark = String(Math.min(max, Math.round(max * 0.35) + ((i * 7) % Math.max(1, Math.round(max * 0.6)))) + (i % 3 === 0 ? '.5' : ''));
      const value = Number(mark) > max ? String(max) : mark;
      await typeInto(box, value);
      await box.press('Enter');
      typed.set(((await box.getAttribute('aria-label')) ?? '').replace(/^Marks Obtained: /, ''), value);
    }
    expect(typed.size).toBeGreaterThan(0);
    const firstName = [...typed.keys()][0];
    const remark = page.getByRole('textbox', { name: `Remarks: ${firstName}`, exact: true });
    await typeInto(remark, 'Careless in section B; revise fractions');
    await page.screenshot({ path: join(SHOTS, 'teacher-marks.png'), fullPage: true });
    await page.getByRole('button', { name: 'Save' }).last().click();
    await page.getByText(/Marks saved for \d+ students/).waitFor({ timeout: 15_000 });

    const sheet = (await api<MarksSheet>(baseUrl, teacher, 'GET', `/api/student_mark/sheet?mrk_cd=${subject.mrk_cd}`, MARKS)).json;
    for (const [name, value] of typed) {
      const row = sheet.rows.find((r) => r.stud_fs_nm === name);
      expect(row, name).toBeDefined();
      expect(Number(row!.marks), name).toBe(Number(value));
    }
    expect(sheet.rows.find((r) => r.stud_fs_nm === firstName)?.remarks).toBe('Careless in section B; revise fractions');
    expect(env.problems).toEqual([]);
  });

  it('LIBRARIAN adds a book, typing every field and picking its category', async () => {
    const { page, baseUrl } = env;
    const librarian = await apiLogin(baseUrl, 'LIBRARIAN', PASSWORD);
    const categories = (await api<{ rows: { ctgy_cd: number; ctgy_nm: string }[] }>(baseUrl, librarian, 'GET', '/api/category/?size=50', CATEGORIES)).json.rows;
    expect(categories.length).toBeGreaterThan(0);
    const category = categories[0];
    // The teacher signs out from the user menu; the librarian signs in at the same desk.
    await page.goto(`${baseUrl}/sms/dashboard`);
    await page.getByRole('button', { name: 'My Profile' }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL((u) => u.pathname === '/login', { timeout: 15_000 });
    await signIn(env, 'LIBRARIAN', PASSWORD);

    await page.goto(`${baseUrl}/sms/library/book/create`);
    const form = page.getByTestId('entity-form');
    await form.waitFor({ timeout: 15_000 });
    const book = {
      bk_nm: 'Wings of Fire: An Autobiography',
      bk_qty: '4',
      bk_barcd: '978-8173711466',
      bk_ser_nmb: 'LIB/2026/0412',
      bk_dscr: 'A. P. J. Abdul Kalam with Arun Tiwari; donated by the Class X parents.',
    };
    await typeInto(form.locator('#bk_nm'), book.bk_nm);
    await choose(page, form.locator('#ctgy_cd'), category.ctgy_nm, category.ctgy_nm);
    await typeInto(form.locator('#bk_qty'), book.bk_qty);
    await typeInto(form.locator('#bk_barcd'), book.bk_barcd);
    await typeInto(form.locator('#bk_ser_nmb'), book.bk_ser_nmb);
    await typeInto(form.locator('#bk_dscr'), book.bk_dscr);
    for (const [id, value] of Object.entries(book)) expect(await form.locator(`#${id}`).inputValue(), id).toBe(value);
    await page.screenshot({ path: join(SHOTS, 'librarian-book.png'), fullPage: true });
    await page.getByTestId('btn-save').click();

    // The demo library already holds a 'Wings of Fire': the new title is the one with the typed name.
    await expect
      .poll(
        async () =>
          (await api<{ rows: Record<string, unknown>[] }>(baseUrl, librarian, 'GET', `/api/book/?q=${encodeURIComponent('Wings of Fire')}`, BOOKS)).json.rows.find(
            (r) => r.bk_nm === book.bk_nm,
          ),
        { timeout: 15_000 },
      )
      .toMatchObject({
        bk_nm: book.bk_nm,
        ctgy_cd: category.ctgy_cd,
        bk_qty: 4,
        bk_barcd: book.bk_barcd,
        bk_ser_nmb: book.bk_ser_nmb,
        bk_dscr: book.bk_dscr,
      });
    console.log(`role journey screenshots: ${SHOTS}`);
    expect(env.problems).toEqual([]);
  });
});
