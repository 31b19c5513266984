import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiLogin, type ApiSession } from './api-client';
import { ADMIN_PASSWORD, browserAvailable, signIn, startE2e, typeInto, type E2eEnv } from './browser-harness';

/*
 * The office opens next year with this year's fee structure: as ADMIN, Migration -> New, this year -> next,
 * fee groups and fee mappings with a 10 % increase, preview, copy, the rows in the list; then one rolled back.
 * At 390 px the same screen fits the phone's width. The fee structure is typed in through the API first (the
 * minimal seed has none), so the test does not hang on the demo's other content.
 */

const SHOTS = mkdtempSync(join(tmpdir(), 'campus-rollover-shots-'));
const MIGRATION = { module: 'institute', page: 'migration' };
const ACADEMIC = { module: 'institute', page: 'academic' };

interface Year {
  acdm_cd: number;
  acdm_strt_yr: number;
  acdm_sts: boolean;
}
interface Migration {
  mgrtn_cd: number;
  mgrtn_tbl_cd: string;
  row_cnt: number;
  mgrtn_sts: string;
}

const grid = (page: Page) => page.getByTestId('entity-grid');

/** Migration -> New -> Next -> fee mappings ticked -> the % typed -> Preview. */
async function walkToPreview(page: Page, baseUrl: string, pct: string, groupsInTarget: boolean): Promise<void> {
  await page.goto(`${baseUrl}/sms/institute/migration/table`);
  await page.getByTestId('btn-create').click();
  await page.getByTestId('rollover-stepper').waitFor({ timeout: 15_000 });
  await page.getByRole('button', { name: 'Next', exact: true }).click();
  const fees = page.getByRole('checkbox', { name: 'Fee Mapping' });
  await fees.waitFor({ timeout: 15_000 });
  await fees.check();
  // The fee mappings need their fee groups: ticking them ticks those too, unless the target year has them already.
  await expect.poll(() => page.getByRole('checkbox', { name: 'Fee Group' }).isChecked()).toBe(!groupsInTarget);
  await typeInto(page.getByTestId('rollover-pct'), pct);
  await page.getByRole('button', { name: 'Preview', exact: true }).click();
  await page.getByTestId('rollover-preview').waitFor({ timeout: 20_000 });
}

describe.runIf(browserAvailable())('year rollover in the browser', () => {
  let env: E2eEnv;
  let s: ApiSession;
  let thisYear: Year;
  let nextYear: Year;

  beforeAll(async () => {
    env = await startE2e();
    s = await apiLogin(env.baseUrl, 'ADMIN', ADMIN_PASSWORD);
    const years = (await api<{ rows: Year[] }>(env.baseUrl, s, 'GET', '/api/academic/?size=50', ACADEMIC)).json.rows;
    thisYear = years.filter((y) => y.acdm_sts).sort((a, b) => b.acdm_strt_yr - a.acdm_strt_yr)[0];
    await feeStructure(env, s, thisYear.acdm_strt_yr);
    const existing = years.find((y) => y.acdm_strt_yr === thisYear.acdm_strt_yr + 1);
    if (existing) nextYear = existing;
    else {
      // Set up ahead and not yet active, as an office does before the year begins (the year switcher keeps this year).
      const made = await api<Year>(env.baseUrl, s, 'POST', '/api/academic/', ACADEMIC, {
        acdm_strt_yr: thisYear.acdm_strt_yr + 1,
        acdm_strt_mn: 'Jun',
        acdm_end_yr: thisYear.acdm_strt_yr + 2,
        acdm_end_mn: 'Apr',
        acdm_sts: false,
      });
      expect(made.status).toBe(201);
      nextYear = made.json;
    }
  }, 240_000);
  afterAll(async () => env?.close());

  it('copies fee groups and fee mappings with 10 % more, lists the run, and rolls the mappings back', async () => {
    const { page, baseUrl } = env;
    const before = await fetchFees(env, s, nextYear.acdm_cd);
    await signIn(env);
    await walkToPreview(page, baseUrl, '10', false);
    const feeCard = page.getByTestId('rollover-preview-fee');
    await feeCard.getByTestId('rollover-amounts').waitFor();
    // Before -> after, rounded to whole rupees: every 'after' ends in .00.
    const cells = await feeCard.getByTestId('rollover-amounts').locator('tbody td b').allInnerTexts();
    expect(cells.length).toBeGreaterThan(0);
    for (const c of cells) expect(c).toMatch(/\.00$/);
    await page.screenshot({ path: join(SHOTS, 'rollover-preview--1366.png'), fullPage: true });
    await page.getByTestId('rollover-run').click();
    await page.getByTestId('rollover-result').waitFor({ timeout: 60_000 });
    await page.screenshot({ path: join(SHOTS, 'rollover-result--1366.png'), fullPage: true });

    const runs = (await api<{ rows: Migration[] }>(env.baseUrl, s, 'GET', '/api/migration/?size=50', MIGRATION)).json.rows;
    const feeRun = runs.find((r) => r.mgrtn_tbl_cd === 'fee' && r.mgrtn_sts === 'Copied');
    const groupRun = runs.find((r) => r.mgrtn_tbl_cd === 'fee_group' && r.mgrtn_sts === 'Copied');
    expect(feeRun?.row_cnt).toBeGreaterThan(0);
    expect(groupRun?.row_cnt).toBeGreaterThan(0);
    expect(await fetchFees(env, s, nextYear.acdm_cd)).toBe(before + Number(feeRun?.row_cnt));

    await page.getByTestId('rollover-done').click();
    await page.waitForURL(/\/sms\/institute\/migration\/table/);
    const tableCells = grid(page).locator('.ag-row[row-index] .ag-cell[col-id="mgrtn_tbl_cd"]');
    await tableCells.first().waitFor({ timeout: 20_000 });
    await expect.poll(async () => (await tableCells.allInnerTexts()).map((x) => x.trim()).sort()).toEqual(['fee', 'fee_group']);
    await page.screenshot({ path: join(SHOTS, 'migration-list--1366.png') });

    // Roll Back the fee mappings' copy: confirm, and they are gone from next year.
    await tableCells.filter({ hasText: /^\s*fee\s*$/ }).first().click();
    await page.getByTestId('btn-rollback').click();
    await page.getByTestId('workflow-ok').click();
    await expect
      .poll(async () => (await api<Migration>(env.baseUrl, s, 'GET', `/api/migration/${feeRun?.mgrtn_cd}`, MIGRATION)).json.mgrtn_sts, { timeout: 15_000 })
      .toBe('Rolled Back');
    expect(await fetchFees(env, s, nextYear.acdm_cd)).toBe(before);
    await page.screenshot({ path: join(SHOTS, 'migration-rolled-back--1366.png') });
    expect(env.problems).toEqual([]);
  }, 240_000);

  it('fits a 390 px phone: years, tables and the preview without sideways scrolling', async () => {
    const { page, baseUrl } = env;
    await page.setViewportSize({ width: 390, height: 844 });
    // The fee groups copied before are still there (only the mappings were rolled back): the mappings find them.
    await walkToPreview(page, baseUrl, '5', true);
    expect(await page.getByTestId('rollover-blocked').count()).toBe(0);
    await page.getByTestId('rollover-preview-fee').getByTestId('rollover-amounts').waitFor();
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(wide).toBeLessThanOrEqual(391);
    await page.screenshot({ path: join(SHOTS, 'rollover-preview--390.png'), fullPage: true });
    console.log(`rollover screenshots: ${SHOTS}`);
    expect(env.problems).toEqual([]);
  }, 120_000);
});

/** The fee mappings of a year, counted through the API as the Fee Mapping page lists them. */
async function fetchFees(env: E2eEnv, s: ApiSession, acdmCd: number): Promise<number> {
  const res = await fetch(`${env.baseUrl}/api/fee/?size=1`, {
    headers: { username: s.usrNm, usercode: String(s.usrCd), auth_token: s.token, inst_cd: String(s.instCd), acdm_cd: String(acdmCd), platform: 'web', pagename: 'fee' },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { total: number }).total;
}

/** This year's fee structure, typed in through the API as the office would: two classes, two terms, two fee types. */
async function feeStructure(env: E2eEnv, s: ApiSession, startYear: number): Promise<void> {
  const made = async (path: string, where: { module: string; page: string }, body: Record<string, unknown>, key: string): Promise<number> => {
    const res = await api<Record<string, unknown>>(env.baseUrl, s, 'POST', path, where, body);
    expect(res.status, `${path}: ${JSON.stringify(res.json)}`).toBe(201);
    return Number(res.json[key]);
  };
  const classes = [await made('/api/class/', { module: 'class_section', page: 'class' }, { cls_nm: 'VI' }, 'cls_cd'), await made('/api/class/', { module: 'class_section', page: 'class' }, { cls_nm: 'VII' }, 'cls_cd')];
  const groups = { module: 'fee', page: 'fee_group' };
  const terms = [
    await made('/api/fee_group/', groups, { fee_grp_nm: 'Term 1', fee_grp_fee_str_dt: `${startYear}-06-01`, fee_grp_fee_exp_dt: `${startYear}-06-30`, fee_grp_fee_prid_amt: '100.00' }, 'fee_grp_cd'),
    await made('/api/fee_group/', groups, { fee_grp_nm: 'Term 2', fee_grp_fee_str_dt: `${startYear}-10-01`, fee_grp_fee_exp_dt: `${startYear}-10-31` }, 'fee_grp_cd'),
  ];
  const types = { module: 'fee', page: 'fee_type' };
  const feeTypes = [await made('/api/fee_type/', types, { feetyp_nm: 'Tuition Fee' }, 'feetyp_cd'), await made('/api/fee_type/', types, { feetyp_nm: 'Books' }, 'feetyp_cd')];
  const amounts = ['12500.00', '1234.50'];
  for (const cls of classes) {
    for (const term of terms) {
      for (const [i, typ] of feeTypes.entries()) {
        await made('/api/fee/', { module: 'fee', page: 'fee' }, { fee_grp_cd: term, feetyp_cd: typ, cls_cd: cls, fee_amt: amounts[i], fee_amt_aftr_prmtn: amounts[i] }, 'fee_cd');
      }
    }
  }
}
