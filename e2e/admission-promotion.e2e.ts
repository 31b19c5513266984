import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiLogin, type ApiSession } from './api-client';
import { ADMIN_PASSWORD, browserAvailable, signIn, startE2e, typeInto, type E2eEnv } from './browser-harness';

/*
 * A school year's two verbs for children, as the ADMIN office does them: an application is admitted through
 * the Admission grid's Admit dialog (the section picked from its dropdown, Enter) and the new student opens;
 * then next year is set up, a section is promoted into it on the Promotion screen with one child held back,
 * and the promotion is undone from the Promotion grid. At 390 px the promotion screen fits a phone.
 */

const SHOTS = mkdtempSync(join(tmpdir(), 'campus-promotion-shots-'));
const ADMISSION = { module: 'student', page: 'admission' };
const PROMOTION = { module: 'student', page: 'promotion' };
const ACADEMIC = { module: 'institute', page: 'academic' };
const PROFILE = { module: 'student', page: 'profile' };

type Row = Record<string, unknown>;
interface Year {
  acdm_cd: number;
  acdm_strt_yr: number;
  acdm_sts: boolean;
}
interface Choices {
  sections: { sec_cd: number; sec_nm: string; cls_cd: number; cls_nm: string }[];
}

const grid = (page: Page) => page.getByTestId('entity-grid');

async function findInGrid(page: Page, search: string, column: string, text: string): Promise<void> {
  await grid(page).locator('.ag-row[row-index]').first().waitFor({ timeout: 20_000 });
  await typeInto(page.getByTestId('grid-search'), search);
  const cells = grid(page).locator(`.ag-row[row-index] .ag-cell[col-id="${column}"]`);
  await expect.poll(async () => (await cells.allTextContents()).map((c) => c.trim()), { timeout: 20_000 }).toEqual([text]);
  await cells.first().click();
}

describe.runIf(browserAvailable())('admission and promotion in the browser', () => {
  let env: E2eEnv;
  let s: ApiSession;
  let thisYear: Year;

  beforeAll(async () => {
    env = await startE2e({ demo: {} });
    s = await apiLogin(env.baseUrl, 'ADMIN', ADMIN_PASSWORD);
    const years = (await api<{ rows: Year[] }>(env.baseUrl, s, 'GET', '/api/academic/?size=50', ACADEMIC)).json.rows;
    thisYear = years.filter((y) => y.acdm_sts).sort((a, b) => b.acdm_strt_yr - a.acdm_strt_yr)[0];
  }, 240_000);
  afterAll(async () => env?.close());

  it('admits an application through the Admit dialog and opens the new student', async () => {
    const { page, baseUrl } = env;
    const apps = (await api<{ rows: Row[] }>(env.baseUrl, s, 'GET', '/api/student_admission/?size=200', ADMISSION)).json.rows;
    const unique = (a: Row) => apps.filter((b) => b.stud_admn_stud_nm === a.stud_admn_stud_nm).length === 1;
    const app = apps.find((a) => (a.stud_admn_status === 'Applied' || a.stud_admn_status === 'Shortlisted') && a.cls_cd !== null && unique(a))!;
    expect(app, 'the demo has an open application with a class').toBeTruthy();
    const name = String(app.stud_admn_stud_nm);
    await signIn(env);
    await page.goto(`${baseUrl}/sms/student/admission/table`);
    await findInGrid(page, name, 'stud_admn_stud_nm', name);
    await page.getByTestId('btn-admit').click();
    await page.getByTestId('workflow-confirm').waitFor();
    // The class applied for is filled in; the section is picked from that class's sections.
    const section = page.locator('input#sec_cd');
    await section.click();
    const option = page.locator('[data-combobox-option]:visible').first();
    await option.waitFor({ timeout: 15_000 });
    const sectionName = (await option.textContent())?.trim() ?? '';
    await option.click();
    await page.screenshot({ path: join(SHOTS, 'admit-dialog--1366.png') });
    await section.press('Enter');
    await page.waitForURL(/\/sms\/student\/profile\/view\/\d+/, { timeout: 20_000 });
    const studCd = Number(/view\/(\d+)/.exec(page.url())![1]);
    const student = (await api<Row>(env.baseUrl, s, 'GET', `/api/student/${studCd}`, PROFILE)).json;
    expect(student).toMatchObject({ stud_fs_nm: name, cls_cd: app.cls_cd, sec_nm: sectionName });
    // The demo school's own series: SMS/{year of joining}/{five digits}.
    expect(String(student.stud_adm_cd)).toMatch(/^SMS\/\d{4}\/\d{5}$/);
    const after = (await api<Row>(env.baseUrl, s, 'GET', `/api/student_admission/${String(app.stud_admn_cd)}`, ADMISSION)).json;
    expect(after).toMatchObject({ stud_admn_status: 'Admitted', stud_cd: studCd });
    await page.getByText(name).first().waitFor();
    expect(env.problems).toEqual([]);
  });

  it('promotes a section into next year with one child held back, then undoes it from the grid', async () => {
    const { page, baseUrl } = env;
    // Next year set up ahead and not yet active, as an office does before it begins (the switcher keeps this year).
    const made = await api<Year>(env.baseUrl, s, 'POST', '/api/academic/', ACADEMIC, {
      acdm_strt_yr: thisYear.acdm_strt_yr + 1,
      acdm_strt_mn: 'Jun',
      acdm_end_yr: thisYear.acdm_strt_yr + 2,
      acdm_end_mn: 'Apr',
      acdm_sts: false,
    });
    expect(made.status).toBe(201);
    const nextYear = made.json;
    const choices = (await api<Choices>(env.baseUrl, s, 'GET', '/api/promotion/choices', PROMOTION)).json;
    // A section of the second class (its children move to the same section of the third).
    const classes = [...new Set(choices.sections.map((x) => x.cls_cd))];
    const from = choices.sections.find((x) => x.cls_cd === classes[1])!;
    const kids = (await api<{ rows: Row[] }>(env.baseUrl, s, 'GET', `/api/student/?size=200&f_sec_cd=${from.sec_cd}`, PROFILE)).json.rows;
    expect(kids.length).toBeGreaterThan(1);

    await page.goto(`${baseUrl}/sms/student/promotion/table`);
    await page.getByTestId('btn-create').click();
    const tick = page.getByTestId(`promote-section-${from.sec_cd}`);
    await tick.waitFor({ timeout: 15_000 });
    await tick.click();
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    const preview = page.getByTestId('promotion-preview');
    await preview.waitFor({ timeout: 20_000 });
    const children = preview.locator('input[type="checkbox"]');
    await expect.poll(() => children.count()).toBe(kids.length);
    // The top class leaves: the screen says so.
    await expect.poll(() => preview.getByText(/leaves the school \(TC\)/).count()).toBeGreaterThan(0);
    await children.first().click();
    await expect.poll(() => preview.getByText('held back').count()).toBe(1);
    await page.screenshot({ path: join(SHOTS, 'promotion-preview--1366.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(SHOTS, 'promotion-preview--390.png'), fullPage: true });
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1366, height: 800 });
    await page.getByTestId('promotion-run').click();
    await page.waitForURL(/\/sms\/student\/promotion\/table/, { timeout: 30_000 });

    const list = (await api<{ rows: Row[] }>(env.baseUrl, s, 'GET', '/api/promotion/?size=10', PROMOTION)).json.rows;
    const done = list[0];
    expect(done).toMatchObject({ frm_sec_cd: from.sec_cd, prmtn_stud_cnt: kids.length - 1, prmtn_sts: 'Promoted', to_acdm_cd: nextYear.acdm_cd });
    // The newest promotion heads the grid.
    const firstCode = grid(page).locator('.ag-row[row-index="0"] .ag-cell[col-id="prmtn_cd"]');
    await expect.poll(async () => (await firstCode.textContent())?.trim(), { timeout: 20_000 }).toBe(String(done.prmtn_cd));
    await firstCode.click();
    await page.getByTestId('btn-undo').click();
    await page.getByTestId('workflow-confirm').waitFor();
    await page.getByTestId('workflow-ok').click();
    await expect
      .poll(async () => (await api<Row>(env.baseUrl, s, 'GET', `/api/promotion/${String(done.prmtn_cd)}`, PROMOTION)).json.prmtn_sts, { timeout: 20_000 })
      .toBe('Undone');
    await page.screenshot({ path: join(SHOTS, 'promotion-undone--1366.png') });
    console.log(`promotion screenshots: ${SHOTS}`);
    expect(env.problems).toEqual([]);
  });
});
