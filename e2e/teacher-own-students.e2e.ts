import { livePages } from '@campus/entities/pages';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiLogin, type ApiSession } from './api-client';
import { ADMIN_PASSWORD, browserAvailable, signIn, startE2e, typeInto, type E2eEnv } from './browser-harness';

/*
 * The teacher, on the demo school: TEACHER (the Mathematics teacher of VI A and VI B) holds the
 * Student page with 'access his students only'. Through the UI and through the API with his own token, he
 * sees the students of the sections subject mapping gives him and nothing of the others: not in the grid, not
 * in the quick search, not by typing another student's view or update URL. The accountant and the librarian
 * sign in next to him and find only their own pages in the menu. One browser and one server for all.
 */

/** Chosen by the test for the three demo accounts: the product has no fixed password. */
const DEMO_PASSWORD = 'Demo-Accounts-Pass-42';
const SHOTS = mkdtempSync(join(tmpdir(), 'campus-teacher-shots-'));
const STUDENT_TABLE = '/sms/student/profile/table';
const REFUSED = ['/page_not_autherised', '/page_not_found'];

/** The parts of english.json the menu reads (the demo school is a school: the app loads english.json). */
interface MenuTexts {
  menu: Record<string, string>;
  page: Record<string, Record<string, string>>;
  common: Record<string, string>;
  btn: Record<string, string>;
  form: Record<string, string | undefined>;
}
const texts = JSON.parse(readFileSync(join(import.meta.dirname, '../apps/web/public/assets/language/english.json'), 'utf8')) as MenuTexts;

// ---------- API answers ----------

interface StudentRow {
  stud_cd: number;
  stud_fs_nm: string;
  stud_adm_cd: string;
  cls_cd: number;
  cls_nm: string;
  sec_cd: number;
  sec_nm: string;
  row_ver: number;
}

interface MappingRow {
  sec_cd: number;
  sec_nm: string;
  cls_nm: string;
  usr_cd: number;
}

interface ListAnswer<T> {
  rows: T[];
  total: number;
}

const STUDENT_PAGE = { module: 'student', page: 'profile' };
const MAPPING_PAGE = { module: 'subject', page: 'subject_detail' };


/** Every row of a list, page by page (the API gives at most 500 a page; the school has 600 students). */
async function listAll<T>(baseUrl: string, s: ApiSession, path: string, where: { module: string; page: string }): Promise<ListAnswer<T>> {
  const all: T[] = [];
  for (let pageNo = 1; ; pageNo++) {
    const sep = path.includes('?') ? '&' : '?';
    const got = await api<ListAnswer<T>>(baseUrl, s, 'GET', `${path}${sep}size=500&page=${pageNo}`, where);
    expect(got.status, `GET ${path} as ${s.usrNm}`).toBe(200);
    all.push(...got.json.rows);
    if (all.length >= got.json.total || got.json.rows.length === 0) return { rows: all, total: got.json.total };
  }
}

// ---------- browser helpers ----------

const grid = (page: Page): Locator => page.getByTestId('entity-grid');
const rows = (page: Page): Locator => grid(page).locator('.ag-row[row-index]');
const menu = (page: Page): Locator => page.locator('.mantine-AppShell-navbar');
const sectionKey = (clsNm: string, secNm: string): string => `${clsNm} ${secNm}`;

/** Class and section of every rendered grid row, as the clerk reads them. */
async function gridSections(page: Page): Promise<string[]> {
  const out: string[] = [];
  for (const row of await rows(page).all()) {
    const cls = ((await row.locator('.ag-cell[col-id="cls_cd"]').textContent()) ?? '').trim();
    const sec = ((await row.locator('.ag-cell[col-id="sec_cd"]').textContent()) ?? '').trim();
    out.push(sectionKey(cls, sec));
  }
  return out;
}

async function signOutThroughUi(page: Page): Promise<void> {
  await page.getByRole('button', { name: texts.common.profile }).click();
  await page.getByRole('menuitem', { name: texts.btn.sign_out }).click();
  await page.waitForURL((u) => u.pathname === '/login', { timeout: 15_000 });
}

/** Opens every group of the side menu and reads its group titles and page links (Dashboard and Schedule are everyone's). */
async function menuContents(page: Page): Promise<{ groups: string[]; links: string[] }> {
  const nav = menu(page);
  // Group headers are anchors without href; page links have one.
  const headers = nav.locator('a.mantine-NavLink-root:not([href])');
  await headers.first().waitFor({ timeout: 15_000 });
  const groups: string[] = [];
  for (const header of await headers.all()) {
    groups.push(((await header.textContent()) ?? '').trim());
    if ((await header.getAttribute('data-expanded')) === null) await header.click();
  }
  const everyone = [texts.common.dashboard, texts.common.schedule];
  await expect.poll(async () => (await nav.locator('a.mantine-NavLink-root[href]').allTextContents()).length).toBeGreaterThan(everyone.length);
  const links = (await nav.locator('a.mantine-NavLink-root[href]').allTextContents()).map((s) => s.trim()).filter((s) => !everyone.includes(s));
  return { groups, links };
}

/** Labels of a module's live pages, in declaration order, from english.json. */
/** Labels of a module's live pages: those in the side menu, or all of them (some are reached by URL only). */
const labelsOf = (module: string, menuOnly = true): string[] =>
  livePages()
    .filter((pg) => pg.module === module && (pg.menu || !menuOnly))
    .map((pg) => texts.page[module]?.[pg.page] ?? `(no page.${module}.${pg.page} in english.json)`);

// ---------- the tests ----------

describe.runIf(browserAvailable())("the demo teacher sees his own students only; the accountant and librarian their own pages (Chromium)", () => {
  let env: E2eEnv;
  let admin: ApiSession;
  let teacher: ApiSession;
  /** 'VI A', 'VI B': the sections subject mapping gives the teacher. */
  let ownSections: Set<string>;
  let ownSecCds: Set<number>;
  let schoolStudents: StudentRow[];
  let teacherStudents: ListAnswer<StudentRow>;
  /** A student of another section whose name no student of the teacher's shares (the search is partial). */
  let stranger: StudentRow;

  beforeAll(async () => {
    console.log(`teacher-own-students screenshots: ${SHOTS}`);
    env = await startE2e({ demo: { password: DEMO_PASSWORD } });
    const { page } = env;
    // An answered 4xx/5xx or an uncaught exception is a failure too; the expected refusals are taken out below.
    page.on('response', (r) => {
      if (r.status() >= 400) env.problems.push(`HTTP ${r.status()}: ${r.request().method()} ${r.url()}`);
    });
    page.on('pageerror', (e) => env.problems.push(`uncaught: ${e.message}`));

    expect(env.demo?.accounts.map((a) => a.login).sort()).toEqual(['ACCOUNTANT', 'LIBRARIAN', 'TEACHER']);
    admin = await apiLogin(env.baseUrl, 'ADMIN', ADMIN_PASSWORD);
    teacher = await apiLogin(env.baseUrl, 'TEACHER', DEMO_PASSWORD);
    const mapping = await listAll<MappingRow>(env.baseUrl, admin, `/api/subjectDetail/?f_usr_cd=${teacher.usrCd}`, MAPPING_PAGE);
    ownSections = new Set(mapping.rows.map((m) => sectionKey(m.cls_nm, m.sec_nm)));
    ownSecCds = new Set(mapping.rows.map((m) => m.sec_cd));
    schoolStudents = (await listAll<StudentRow>(env.baseUrl, admin, '/api/student/', STUDENT_PAGE)).rows;
    teacherStudents = await listAll<StudentRow>(env.baseUrl, teacher, '/api/student/', STUDENT_PAGE);
    const ownNames = teacherStudents.rows.map((r) => r.stud_fs_nm.toLowerCase());
    const candidate = schoolStudents.find((s) => !ownSecCds.has(s.sec_cd) && !ownNames.some((n) => n.includes(s.stud_fs_nm.toLowerCase())));
    if (!candidate) throw new Error('the demo school has no student outside the teacher sections with a name of his own');
    stranger = candidate;
  });
  afterAll(async () => env?.close());

  it('API: the teacher lists exactly the students of his mapped sections, fewer than the school holds', () => {
    // The README's teacher: Mathematics in VI A and VI B.
    expect([...ownSections].sort()).toEqual(['VI A', 'VI B']);
    expect(teacherStudents.total).toBe(teacherStudents.rows.length);
    expect(teacherStudents.total).toBeGreaterThan(0);
    const outside = teacherStudents.rows.filter((r) => !ownSecCds.has(r.sec_cd)).map((r) => `${r.stud_fs_nm} (${r.cls_nm} ${r.sec_nm})`);
    expect(outside, 'students of sections the teacher is not mapped to').toEqual([]);
    // All of them, not a part: every student of his sections as ADMIN sees the school.
    const expected = schoolStudents.filter((s) => ownSecCds.has(s.sec_cd)).map((s) => s.stud_cd).sort((a, b) => a - b);
    expect(teacherStudents.rows.map((r) => r.stud_cd).sort((a, b) => a - b)).toEqual(expected);
    expect(teacherStudents.total).toBeLessThan(schoolStudents.length);
  });

  it("API: another section's student is out of the teacher's reach by GET and by PUT", async () => {
    const { baseUrl } = env;
    const asAdmin = await api<StudentRow>(baseUrl, admin, 'GET', `/api/student/${stranger.stud_cd}`, STUDENT_PAGE);
    expect(asAdmin.status).toBe(200);
    const get = await api<{ message: string }>(baseUrl, teacher, 'GET', `/api/student/${stranger.stud_cd}`, STUDENT_PAGE);
    expect([403, 404], JSON.stringify(get.json)).toContain(get.status);
    const put = await api<{ message: string }>(baseUrl, teacher, 'PUT', `/api/student/${stranger.stud_cd}`, STUDENT_PAGE, {
      stud_ph: '+91 90000 12345',
      row_ver: asAdmin.json.row_ver,
    });
    expect([403, 404], JSON.stringify(put.json)).toContain(put.status);
    // Nothing changed behind the refusal.
    const after = await api<StudentRow & { stud_ph: string | null }>(baseUrl, admin, 'GET', `/api/student/${stranger.stud_cd}`, STUDENT_PAGE);
    expect(after.json.row_ver).toBe(asAdmin.json.row_ver);
    // The search finds the stranger for ADMIN (so an empty answer for the teacher below means something).
    const q = encodeURIComponent(stranger.stud_fs_nm);
    const found = await api<ListAnswer<StudentRow>>(baseUrl, admin, 'GET', `/api/student/?q=${q}`, STUDENT_PAGE);
    expect(found.json.rows.map((r) => r.stud_cd)).toContain(stranger.stud_cd);
    const hidden = await api<ListAnswer<StudentRow>>(baseUrl, teacher, 'GET', `/api/student/?q=${q}`, STUDENT_PAGE);
    expect(hidden.json.total).toBe(0);
  });

  it('UI: the teacher opens Student > Student Profile from the side menu and the grid holds his sections only', async () => {
    const { page } = env;
    await signIn(env, 'TEACHER', DEMO_PASSWORD);
    await page.goto(`${env.baseUrl}/sms/dashboard`);
    await menu(page).getByText(texts.menu.student, { exact: true }).click();
    const link = menu(page).getByRole('link', { name: texts.page.student.profile, exact: true });
    await link.waitFor({ timeout: 15_000 });
    const listed = page.waitForResponse((r) => {
      const u = new URL(r.url());
      return r.request().method() === 'GET' && u.pathname === '/api/student/' && !u.searchParams.get('q');
    });
    await link.click();
    await page.waitForURL((u) => u.pathname === STUDENT_TABLE);
    const answer = (await (await listed).json()) as ListAnswer<StudentRow>;
    await rows(page).first().waitFor({ timeout: 15_000 });

    // What the browser was given is what the teacher's token gets from the API.
    expect(answer.total).toBe(teacherStudents.total);
    expect(answer.rows.filter((r) => !ownSecCds.has(r.sec_cd))).toEqual([]);
    // And what is on screen: class and section of every rendered row are his.
    const shown = await gridSections(page);
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.filter((s) => !ownSections.has(s))).toEqual([]);
    // View and export only: nothing that writes is offered.
    await page.getByTestId('btn-view').waitFor();
    for (const button of ['btn-create', 'btn-edit', 'btn-delete', 'btn-clone', 'btn-import']) {
      expect(await page.getByTestId(button).count(), button).toBe(0);
    }
    await page.screenshot({ path: join(SHOTS, 'teacher-students--desktop.png') });
    expect(env.problems).toEqual([]);
  });

  it("UI: the quick search for another section's student finds nothing", async () => {
    const { page } = env;
    const asked = page.waitForResponse((r) => new URL(r.url()).searchParams.get('q') === stranger.stud_fs_nm);
    await typeInto(page.getByTestId('grid-search'), stranger.stud_fs_nm);
    expect(((await (await asked).json()) as ListAnswer<StudentRow>).total).toBe(0);
    await expect.poll(() => rows(page).count()).toBe(0);
    await grid(page).locator('.ag-overlay-no-rows-center').waitFor();
    await typeInto(page.getByTestId('grid-search'), '');
    await rows(page).first().waitFor({ timeout: 15_000 });
    expect(env.problems).toEqual([]);
  });

  it("UI: typing another section's student's view and update URLs shows a refusal", async () => {
    const { page, baseUrl } = env;
    const from = env.problems.length;
    await page.goto(`${baseUrl}/sms/student/profile/view/${stranger.stud_cd}`);
    // Either the guard refuses the page or the form shows its not-found state (the API answers 404).
    // english.json has no form.not_found_title yet: the form then shows its own default wording.
    const notFound = page.getByText(texts.form.not_found_title ?? 'Record not found', { exact: true });
    await expect.poll(async () => REFUSED.includes(new URL(page.url()).pathname) || (await notFound.isVisible()), { timeout: 15_000 }).toBe(true);
    // The stranger's name must not leak onto the screen.
    expect(await page.getByText(stranger.stud_fs_nm).count()).toBe(0);
    await page.screenshot({ path: join(SHOTS, 'teacher-other-student-view.png') });

    await page.goto(`${baseUrl}/sms/student/profile/update/${stranger.stud_cd}`);
    await expect.poll(async () => REFUSED.includes(new URL(page.url()).pathname) || (await notFound.isVisible()), { timeout: 15_000 }).toBe(true);
    expect(await page.getByText(stranger.stud_fs_nm).count()).toBe(0);
    await page.screenshot({ path: join(SHOTS, 'teacher-other-student-update.png') });

    // The only problems allowed here are the refusals themselves: 403/404 answers for that one student.
    const expected = (p: string): boolean =>
      (/^HTTP 40[34]: GET /.test(p) && p.includes(`/api/student/${stranger.stud_cd}`)) ||
      /^console: Failed to load resource: the server responded with a status of 40[34]/.test(p);
    const raised = env.problems.splice(from);
    expect(raised.filter((p) => !expected(p))).toEqual([]);
  });

  it("UI: the teacher's student grid fits a phone (375 px), nothing sticking out sideways", async () => {
    const { page, baseUrl } = env;
    await page.setViewportSize({ width: 375, height: 800 });
    try {
      const listed = page.waitForResponse((r) => r.request().method() === 'GET' && new URL(r.url()).pathname === '/api/student/');
      await page.goto(`${baseUrl}${STUDENT_TABLE}`);
      const answer = (await (await listed).json()) as ListAnswer<StudentRow>;
      await rows(page).first().waitFor({ timeout: 15_000 });
      await page.screenshot({ path: join(SHOTS, 'teacher-students--phone.png') });
      expect(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')).toBe(0);
      // AG Grid draws only the columns in view on a phone, so the rows are checked from what the browser got.
      expect(answer.total).toBe(teacherStudents.total);
      expect(answer.rows.filter((r) => !ownSecCds.has(r.sec_cd))).toEqual([]);
    } finally {
      await page.setViewportSize({ width: 1366, height: 800 });
    }
    expect(env.problems).toEqual([]);
  });

  it("UI: the teacher's menu holds the Student Profile page only", async () => {
    const { page, baseUrl } = env;
    await page.goto(`${baseUrl}/sms/dashboard`);
    expect(await menuContents(page)).toEqual({ groups: [texts.menu.student], links: [texts.page.student.profile] });
    expect(env.problems).toEqual([]);
  });

  for (const [login, module] of [
    ['ACCOUNTANT', 'fee'],
    ['LIBRARIAN', 'library'],
  ] as const) {
    it(`UI: ${login} finds exactly the ${module} pages in the menu, and the student page is closed`, async () => {
      const { page, baseUrl } = env;
      const expected = labelsOf(module);
      expect(expected.length).toBeGreaterThan(0);
      // The demo grants each account every live page of its module, the off-menu ones too (reached by URL).
      expect(env.demo?.accounts.find((a) => a.login === login)?.pages.map((p) => texts.page[module]?.[p.split('/')[1]])).toEqual(labelsOf(module, false));
      // Signed out from inside the app: the error page the previous test ended on has no user menu.
      await page.goto(`${baseUrl}/sms/dashboard`);
      await signOutThroughUi(page);
      await signIn(env, login, DEMO_PASSWORD);
      await page.goto(`${baseUrl}/sms/dashboard`);
      expect(await menuContents(page)).toEqual({ groups: [texts.menu[module]], links: expected });
      // The dashboard's cards, not its spinner, in the picture.
      await page.locator('[data-testid^="dashboard-"]').first().waitFor({ timeout: 15_000 });
      await page.screenshot({ path: join(SHOTS, `${login.toLowerCase()}-menu.png`) });
      await page.goto(`${baseUrl}${STUDENT_TABLE}`);
      await page.waitForURL((u) => u.pathname === '/page_not_autherised', { timeout: 15_000 });
      expect(env.problems).toEqual([]);
    });
  }
});
