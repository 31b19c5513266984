import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, signIn, startE2e, typeInto, type E2eEnv } from './browser-harness';

/*
 * The wallet ledger as the office uses it: ADMIN opens Wallet, selects a child's wallet, tops it up (the
 * amount typed key by key, a reason, Enter), sees the new balance in the grid, tries to spend more than is
 * left (the server's refusal stays in the dialog, nothing is taken), and opens the wallet's statement.
 */

const SHOTS = mkdtempSync(join(tmpdir(), 'campus-wallet-shots-'));
const grid = (page: Page): Locator => page.getByTestId('entity-grid');
/** '1,250.50' -> 125050 paise. */
const paiseOf = (shown: string): number => Math.round(Number(shown.replace(/,/g, '')) * 100);
const shownOf = (paise: number): string => `${Math.trunc(paise / 100)}.${String(paise % 100).padStart(2, '0')}`;

describe.runIf(browserAvailable())('wallet: top up, refused spend, statement', () => {
  let env: E2eEnv;

  beforeAll(async () => {
    env = await startE2e({ demo: {} });
    await signIn(env);
  }, 240_000);
  afterAll(async () => env?.close());

  it('tops up a wallet, refuses a spend over the balance and opens the statement', async () => {
    const { page, baseUrl } = env;
    console.log(`wallet screenshots: ${SHOTS}`);
    await page.goto(`${baseUrl}/sms/student/wallet/table`);
    const first = grid(page).locator('.ag-row[row-index="0"]');
    await first.waitFor({ timeout: 30_000 });
    const wlt = await first.getAttribute('row-id');
    expect(wlt).toMatch(/^\d+$/);
    const balanceCell = grid(page).locator(`.ag-row[row-id="${wlt}"] .ag-cell[col-id="wlt_amt"]`).first();
    const before = paiseOf((await balanceCell.textContent()) ?? '');
    await grid(page).locator(`.ag-row[row-id="${wlt}"] .ag-cell[col-id="wlt_cd"]`).first().click();

    // Top up: typed as a clerk types it, confirmed with Enter.
    await page.getByTestId('btn-topup').click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByTestId('workflow-confirm').textContent()).toBe(`Add money to wallet no. ${wlt}.`);
    await typeInto(dialog.locator('#amount'), '125.50');
    await typeInto(dialog.locator('#reason'), 'Pocket money for the term');
    await page.screenshot({ path: join(SHOTS, 'topup-1366.png') });
    await dialog.locator('#reason').press('Enter');
    await page.getByText(`Wallet no. ${wlt} topped up.`).first().waitFor({ timeout: 15_000 });
    await dialog.waitFor({ state: 'hidden' });
    const after = before + 12_550;
    await expect.poll(async () => paiseOf((await balanceCell.textContent()) ?? ''), { timeout: 15_000 }).toBe(after);
    expect(env.problems).toEqual([]);

    // Spend more than is there: the ledger's sentence, in the dialog; the balance stays.
    await grid(page).locator(`.ag-row[row-id="${wlt}"] .ag-cell[col-id="wlt_cd"]`).first().click();
    await page.getByTestId('btn-spend').click();
    await dialog.getByTestId('workflow-confirm').waitFor();
    const over = after + 100;
    await typeInto(dialog.locator('#amount'), shownOf(over));
    await typeInto(dialog.locator('#reason'), 'Canteen');
    await dialog.getByTestId('workflow-ok').click();
    const refusal = `Wallet no. ${wlt} has only ${shownOf(after)}; ${shownOf(over)} cannot be taken from it.`;
    await expect.poll(() => dialog.getByTestId('workflow-error').textContent().catch(() => ''), { timeout: 15_000 }).toBe(refusal);
    await page.screenshot({ path: join(SHOTS, 'spend-refused-1366.png') });
    await page.setViewportSize({ width: 390, height: 800 });
    await page.screenshot({ path: join(SHOTS, 'spend-refused-390.png') });
    await page.setViewportSize({ width: 1366, height: 800 });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(paiseOf((await balanceCell.textContent()) ?? '')).toBe(after);
    // The browser logs the refused request itself; that one 409 is the point of this step, anything else is not.
    const expected = /Failed to load resource: the server responded with a status of 409/;
    expect(env.problems.filter((p) => !expected.test(p))).toEqual([]);
    env.problems.length = 0;

    // The statement: this wallet's movements, newest first, the top-up on top.
    await grid(page).locator(`.ag-row[row-id="${wlt}"] .ag-cell[col-id="wlt_cd"]`).first().click();
    await page.getByTestId('btn-related-wallet_transaction').click();
    await page.waitForURL((u) => u.pathname === '/sms/student/wallet_transaction/table' && u.searchParams.get('f_wlt_cd') === wlt);
    await grid(page).locator('.ag-row[row-index="0"]').waitFor({ timeout: 20_000 });
    await expect.poll(() => page.getByTestId('grid-filters').textContent()).toContain(`Wallet: ${wlt}`);
    const top = grid(page).locator('.ag-row[row-index="0"]');
    expect(await top.locator('.ag-cell[col-id="wlt_txn_typ"]').textContent()).toBe('Top-up');
    expect(paiseOf((await top.locator('.ag-cell[col-id="wlt_txn_amt"]').textContent()) ?? '')).toBe(12_550);
    expect(paiseOf((await top.locator('.ag-cell[col-id="wlt_txn_bal"]').textContent()) ?? '')).toBe(after);
    const wallets = await grid(page).locator('.ag-row[row-index] .ag-cell[col-id="wlt_cd"]').allTextContents();
    expect(new Set(wallets)).toEqual(new Set([wlt]));
    await page.screenshot({ path: join(SHOTS, 'statement-1366.png') });
    await page.setViewportSize({ width: 390, height: 800 });
    await page.screenshot({ path: join(SHOTS, 'statement-390.png') });
    await page.setViewportSize({ width: 1366, height: 800 });
    expect(env.problems).toEqual([]);
  }, 180_000);
});
