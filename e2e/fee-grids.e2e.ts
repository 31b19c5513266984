import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, signIn, startE2e, type E2eEnv } from './browser-harness';

/*
 * The fee office's grids on a 1366 px laptop, as the demo accountant opens them: every heading and value
 * whole (none cut to 'Studen…'), the bill's status on Fee Collected and the undoing of a cancellation on
 * Fee Cancel in view without scrolling sideways, money written 8,000.00 (Indian grouping), and no machine
 * internal such as the bill's idempotency key offered in the Columns menu.
 */

const PASSWORD = 'Demo-Fee-Grids-Pass-3';
const SHOTS = mkdtempSync(join(tmpdir(), 'campus-fee-grid-shots-'));
/** 8,000.00 / 1,00,000.50 / 950.00: Indian grouping, 2 decimals. */
const INDIAN_MONEY = /^-?(\d{1,3}|\d{1,2}(,\d{2})*,\d{3})\.\d{2}$/;

const grid = (page: Page): Locator => page.getByTestId('entity-grid');

async function openGrid(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await grid(page).locator('.ag-row[row-index]').first().waitFor({ timeout: 20_000 });
  await grid(page).locator('.ag-overlay-loading-center').waitFor({ state: 'hidden' });
  // The columns are sized once the first rows are drawn; wait until the widths stop moving.
  let last = '';
  await expect
    .poll(
      async () => {
        const now = (await grid(page).locator('.ag-header-cell').evaluateAll((hs) => hs.map((h) => h.getBoundingClientRect().width))).join(',');
        const same = now === last;
        last = now;
        return same;
      },
      { interval: 300 },
    )
    .toBe(true);
}

interface HeaderSeen {
  colId: string;
  text: string;
  /** Right edge on screen, px. */
  right: number;
  cut: boolean;
}

/** Headings the grid shows, with where they end and whether their text is cut short. */
function headers(page: Page): Promise<HeaderSeen[]> {
  return grid(page)
    .locator('.ag-header-cell[col-id]')
    .evaluateAll((cells) =>
      cells.map((h) => {
        const text = h.querySelector<HTMLElement>('.ag-header-cell-text');
        return {
          colId: h.getAttribute('col-id') ?? '',
          text: text?.textContent ?? '',
          right: h.getBoundingClientRect().right,
          cut: !!text && text.scrollWidth > text.clientWidth,
        };
      }),
    );
}

/** Cells of the drawn rows whose text does not fit their width, as 'column: text'. */
function cutCells(page: Page): Promise<string[]> {
  return grid(page)
    .locator('.ag-row[row-index] .ag-cell[col-id]')
    .evaluateAll((cells) =>
      cells
        .filter((c) => {
          const v = (c.querySelector<HTMLElement>('.ag-cell-value') ?? c) as HTMLElement;
          return v.scrollWidth > v.clientWidth;
        })
        .map((c) => `${c.getAttribute('col-id')}: ${c.textContent}`),
    );
}

/** The right edge of what the grid shows without scrolling sideways. */
async function gridRight(page: Page): Promise<number> {
  const box = await grid(page).locator('.ag-root-wrapper').boundingBox();
  if (!box) throw new Error('the grid is not on screen');
  return Math.min(box.x + box.width, page.viewportSize()?.width ?? 0);
}

describe.skipIf(!browserAvailable())('fee grids at 1366 px, as the demo accountant (Chromium)', () => {
  let env: E2eEnv;

  beforeAll(async () => {
    env = await startE2e({ demo: { password: PASSWORD } });
    await env.page.setViewportSize({ width: 1366, height: 800 });
    await signIn(env, 'ACCOUNTANT', PASSWORD);
  }, 240_000);
  afterAll(async () => env?.close());

  it("Fee Collected shows each bill's status in view, headings and values whole, money as 8,000.00", async () => {
    const { page, baseUrl } = env;
    await openGrid(page, `${baseUrl}/sms/fee/fee_collected/table`);
    const seen = await headers(page);
    const right = await gridRight(page);
    const status = seen.find((h) => h.colId === 'fee_coll_sts');
    expect(status, `headings drawn: ${seen.map((h) => h.text).join(' | ')}`).toBeDefined();
    expect(status!.right).toBeLessThanOrEqual(right);
    for (const colId of ['fee_coll_bill_no', 'fee_coll_crt_dt', 'stud_cd', 'stud_adm_cd', 'fee_coll_amt']) {
      const h = seen.find((x) => x.colId === colId);
      expect(h, colId).toBeDefined();
      expect(h!.right, `${h!.text} in view`).toBeLessThanOrEqual(right);
    }
    expect(seen.filter((h) => h.cut).map((h) => h.text)).toEqual([]);
    expect(await cutCells(page)).toEqual([]);
    // No sideways scrolling needed: the columns fit the grid.
    const sideways = await grid(page).locator('.ag-body-horizontal-scroll-viewport').evaluate((v) => v.scrollWidth - v.clientWidth);
    expect(sideways).toBeLessThanOrEqual(0);

    const amounts = await grid(page).locator('.ag-row[row-index] .ag-cell[col-id="fee_coll_amt"]').allTextContents();
    expect(amounts.length).toBeGreaterThan(0);
    for (const a of amounts) expect(a).toMatch(INDIAN_MONEY);
    // A school's bills run to thousands: the grouping is really there, not just the pattern allowing it.
    expect(amounts.some((a) => a.includes(','))).toBe(true);
    expect((await grid(page).locator('.ag-row[row-index] .ag-cell[col-id="fee_coll_sts"]').allTextContents()).every((s) => s === 'Active' || s === 'Cancelled')).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'fee-collected-1366.png') });
    expect(env.problems).toEqual([]);
  });

  it('the Columns menu offers the hidden columns but never the idempotency key', async () => {
    const { page } = env;
    await page.getByRole('button', { name: 'Columns' }).click();
    const menu = page.getByRole('menu');
    await menu.waitFor();
    const offered = (await menu.getByRole('menuitem').allTextContents()).map((s) => s.trim());
    // What the grid opens without is still one click away...
    expect(offered).toEqual(expect.arrayContaining(['Bill No', 'Status', 'Tender Type', 'Collected By', 'Reference']));
    // ...but a machine internal is not a column at all.
    expect(offered).not.toContain('Idempotency Key');
    expect(offered.some((s) => /idempotency/i.test(s))).toBe(false);
    await page.keyboard.press('Escape');
    expect(env.problems).toEqual([]);
  });

  it('switched to Tamil, the restarted grid keeps the layout but no longer-worded heading or value is cut', async () => {
    const { page } = env;
    await page.locator('input[aria-label="Language"]:visible').click();
    await page.getByRole('option', { name: 'தமிழ்', exact: true }).click();
    await expect.poll(() => page.evaluate('document.documentElement.lang')).toBe('ta');
    // The headings are the Tamil ones now (the Status column's among them)...
    await expect.poll(async () => (await headers(page)).find((h) => h.colId === 'fee_coll_sts')?.text ?? 'Status').not.toBe('Status');
    // ...each shown whole, and so are the values (Tamil month names run longer).
    await expect.poll(async () => (await headers(page)).filter((h) => h.cut).map((h) => h.text)).toEqual([]);
    expect(await cutCells(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'fee-collected-tamil-1366.png') });
    await page.locator('input[aria-label="மொழி"]:visible').click();
    await page.getByRole('option', { name: 'English', exact: true }).click();
    await expect.poll(() => page.evaluate('document.documentElement.lang')).toBe('en');
    expect(env.problems).toEqual([]);
  });

  it("Fee Cancel shows when and by whom a cancellation was undone without scrolling sideways", async () => {
    const { page, baseUrl } = env;
    await openGrid(page, `${baseUrl}/sms/fee/fee_cancel/table`);
    const seen = await headers(page);
    const right = await gridRight(page);
    for (const colId of ['fee_cncl_undo_dt', 'fee_cncl_undo_by', 'fee_cncl_fee_cd', 'fee_cncl_stud_cd', 'fee_cncl_tot_amt', 'fee_cncl_dt', 'fee_cncl_rsn']) {
      const h = seen.find((x) => x.colId === colId);
      expect(h, `${colId} among ${seen.map((x) => x.text).join(' | ')}`).toBeDefined();
      expect(h!.right, `${h!.text} in view`).toBeLessThanOrEqual(right);
    }
    expect(seen.find((h) => h.colId === 'fee_cncl_undo_dt')?.text).toBe('Undone Date');
    expect(seen.filter((h) => h.cut).map((h) => h.text)).toEqual([]);
    // A long reason is the one value allowed to end in '…' (its whole text is in the View form); nothing else.
    expect((await cutCells(page)).filter((c) => !c.startsWith('fee_cncl_rsn'))).toEqual([]);
    for (const a of await grid(page).locator('.ag-row[row-index] .ag-cell[col-id="fee_cncl_tot_amt"]').allTextContents()) expect(a).toMatch(INDIAN_MONEY);
    await page.screenshot({ path: join(SHOTS, 'fee-cancel-1366.png') });
    expect(env.problems).toEqual([]);
  });

  it('Fee Management and the dashboard write money the same way; the narrow layout scrolls the grid, not the page', async () => {
    const { page, baseUrl } = env;
    await openGrid(page, `${baseUrl}/sms/fee/fee_management/table`);
    expect((await headers(page)).filter((h) => h.cut).map((h) => h.text)).toEqual([]);
    expect(await cutCells(page)).toEqual([]);
    const balances = await grid(page).locator('.ag-row[row-index] .ag-cell[col-id="needtopay"]').allTextContents();
    for (const b of balances) expect(b).toMatch(INDIAN_MONEY);
    await page.screenshot({ path: join(SHOTS, 'fee-management-1366.png') });

    await page.goto(`${baseUrl}/sms/dashboard`);
    const fees = page.getByTestId('dashboard-fees');
    await fees.waitFor({ timeout: 15_000 });
    await expect.poll(async () => (await fees.textContent()) ?? '', { timeout: 15_000 }).toMatch(/\d\.\d{2}/);
    const figure = /(-?[\d,]+\.\d{2})/.exec((await fees.textContent()) ?? '')?.[1] ?? '';
    expect(figure).toMatch(INDIAN_MONEY);
    await page.screenshot({ path: join(SHOTS, 'dashboard-1366.png') });

    await page.setViewportSize({ width: 375, height: 800 });
    for (const [name, path] of [
      ['fee-collected', '/sms/fee/fee_collected/table'],
      ['fee-cancel', '/sms/fee/fee_cancel/table'],
      ['fee-management', '/sms/fee/fee_management/table'],
    ] as const) {
      await openGrid(page, `${baseUrl}${path}`);
      // Columns keep their widths (headings whole) and the grid scrolls sideways inside the page.
      expect((await headers(page)).filter((h) => h.cut).map((h) => h.text), name).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), name).toBeLessThanOrEqual(375);
      await page.screenshot({ path: join(SHOTS, `${name}-375.png`), fullPage: true });
    }
    await page.goto(`${baseUrl}/sms/dashboard`);
    await page.getByTestId('dashboard-fees').waitFor({ timeout: 15_000 });
    await page.screenshot({ path: join(SHOTS, 'dashboard-375.png'), fullPage: true });
    await page.setViewportSize({ width: 1366, height: 800 });
    console.log(`fee grid screenshots: ${SHOTS}`);
    expect(env.problems).toEqual([]);
  });
});
