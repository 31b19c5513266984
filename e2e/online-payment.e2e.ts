import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiLogin, type ApiSession } from './api-client';
import { ADMIN_PASSWORD, browserAvailable, signIn, startE2e, typeInto, type E2eEnv } from './browser-harness';

/*
 * Online payments and the wallet at the fee counter, as the office does them: ADMIN opens Fee Master >
 * Online Pay Request, selects a pending payment, takes action 'Accepted', sees it Accepted with its bill
 * number, finds that bill on Fee Collected by the transaction id and reads its receipt (tender Online, the
 * transaction id as reference). Then at Quick Fee Collection a child's fee is paid from the wallet: the
 * counter shows the balance when Wallet is chosen, and after the bill it shows the balance less the fee.
 * Last, the demo ACCOUNTANT collects a child's arrears of last year from Academic Fee Collect: the year is
 * not open to him, but that page's counter is.
 */

const ACCOUNTANT_PASSWORD = 'Demo-Arrears-Pass-9';
const SHOTS = mkdtempSync(join(tmpdir(), 'campus-online-payment-shots-'));
const REQUESTS = { module: 'fee', page: 'request' };
const COUNTER = { module: 'fee', page: 'quick_fee_collection' };
const WALLET = { module: 'student', page: 'wallet' };
const grid = (page: Page): Locator => page.getByTestId('entity-grid');
/** '1,250.50' -> 125050 paise. */
const paiseOf = (shown: string): number => Math.round(Number(shown.replace(/[^\d.]/g, '')) * 100);
const shownOf = (paise: number): string => `${Math.trunc(paise / 100)}.${String(paise % 100).padStart(2, '0')}`;

interface Request {
  oln_pay_cd: number;
  oln_pay_txn_id: string;
  oln_pay_tot_amt: string;
  oln_pay_acpt_sts: string;
  oln_pay_bill_no: string | null;
  fee_coll_cd: number | null;
  stud_fs_nm: string;
}

/** Types into the grid's search and waits until only rows holding the text are left. */
async function searchGrid(page: Page, text: string, column: string): Promise<void> {
  await grid(page).locator('.ag-row[row-index]').first().waitFor({ timeout: 30_000 });
  await typeInto(page.getByTestId('grid-search'), text);
  const cells = grid(page).locator(`.ag-row[row-index] .ag-cell[col-id="${column}"]`);
  await expect
    .poll(async () => {
      const all = await cells.allTextContents();
      return all.length === 1 && all[0].trim() === text;
    }, { timeout: 20_000 })
    .toBe(true);
}

describe.runIf(browserAvailable())('online payment accepted into a bill, and a fee paid from the wallet', () => {
  let env: E2eEnv;
  let s: ApiSession;

  beforeAll(async () => {
    env = await startE2e({ demo: { password: ACCOUNTANT_PASSWORD } });
    s = await apiLogin(env.baseUrl, 'ADMIN', ADMIN_PASSWORD);
    await signIn(env);
  }, 240_000);
  afterAll(async () => env?.close());

  it('accepts a pending online payment and opens the receipt of its bill', async () => {
    const { page, baseUrl } = env;
    console.log(`online payment screenshots: ${SHOTS}`);
    const pending = await api<{ rows: Request[] }>(baseUrl, s, 'GET', '/api/online_payment_request/?f_oln_pay_acpt_sts=Pending&size=1', REQUESTS);
    expect(pending.status).toBe(200);
    const req = pending.json.rows[0];
    expect(req, 'the demo has a pending online payment').toBeDefined();

    await page.goto(`${baseUrl}/sms/fee/request/table`);
    await searchGrid(page, req.oln_pay_txn_id, 'oln_pay_txn_id');
    const row = grid(page).locator(`.ag-row[row-id="${req.oln_pay_cd}"]`);
    await row.locator('.ag-cell[col-id="oln_pay_txn_id"]').first().click();
    await page.getByTestId('btn-take_action').click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByTestId('workflow-confirm').textContent()).toBe(`Accept or reject the payment ${req.oln_pay_txn_id}.`);
    await dialog.locator('#oln_pay_acpt_sts').click();
    await page.getByRole('option', { name: 'Accepted', exact: true }).click();
    await page.screenshot({ path: join(SHOTS, 'take-action-1366.png') });
    await page.setViewportSize({ width: 390, height: 800 });
    await page.screenshot({ path: join(SHOTS, 'take-action-390.png') });
    await page.setViewportSize({ width: 1366, height: 800 });
    await dialog.getByTestId('workflow-ok').click();
    await page.getByText(`Payment ${req.oln_pay_txn_id} updated.`).first().waitFor({ timeout: 15_000 });
    await dialog.waitFor({ state: 'hidden' });

    // The grid shows it Accepted with the bill's number.
    const after = (await api<Request>(baseUrl, s, 'GET', `/api/online_payment_request/${req.oln_pay_cd}`, REQUESTS)).json;
    expect(after).toMatchObject({ oln_pay_acpt_sts: 'Accepted', oln_pay_bill_no: expect.stringMatching(/^\d+$/) });
    await expect.poll(() => row.locator('.ag-cell[col-id="oln_pay_acpt_sts"]').first().textContent(), { timeout: 15_000 }).toBe('Accepted');
    await expect.poll(() => row.locator('.ag-cell[col-id="oln_pay_bill_no"]').first().textContent()).toBe(after.oln_pay_bill_no);
    await page.screenshot({ path: join(SHOTS, 'request-accepted-1366.png') });
    expect(env.problems).toEqual([]);

    // Fee Collected: the bill found by its reference (the transaction id), its receipt opened with View.
    await page.goto(`${baseUrl}/sms/fee/fee_collected/table`);
    await grid(page).locator('.ag-row[row-index]').first().waitFor({ timeout: 30_000 });
    // The search finds a bill by its reference, here the gateway's transaction id.
    await typeInto(page.getByTestId('grid-search'), req.oln_pay_txn_id);
    await expect
      .poll(async () => grid(page).locator('.ag-row[row-index]').evaluateAll((rows) => rows.map((r) => r.getAttribute('row-id')).join(',')), { timeout: 20_000 })
      .toBe(String(after.fee_coll_cd));
    await grid(page).locator(`.ag-row[row-id="${after.fee_coll_cd}"] .ag-cell[col-id="fee_coll_bill_no"]`).first().click();
    await page.getByTestId('btn-view').click();
    await page.getByTestId('fee-receipt').waitFor({ timeout: 15_000 });
    await expect.poll(async () => paiseOf((await page.getByTestId('receipt-total').textContent()) ?? '')).toBe(paiseOf(req.oln_pay_tot_amt));
    const receiptText = (await page.getByTestId('fee-receipt').textContent()) ?? '';
    expect(receiptText).toContain('Online');
    expect(receiptText).toContain(req.oln_pay_txn_id);
    expect(receiptText).toContain(String(after.oln_pay_bill_no));
    await page.screenshot({ path: join(SHOTS, 'online-receipt-1366.png'), fullPage: true });
    expect(env.problems).toEqual([]);
  });

  it('pays a fee from the wallet at the counter and the balance drops by it', async () => {
    const { page, baseUrl } = env;
    // A child whose wallet holds money and who still owes a fee.
    const wallets = (await api<{ rows: { wlt_cd: number; stud_cd: number; wlt_amt: string }[] }>(baseUrl, s, 'GET', '/api/wallet/?sort=wlt_amt&dir=desc&size=50', WALLET)).json.rows;
    let chosen: { stud_cd: number; wlt_cd: number; balance: number; line: { feetyp_nm: string | null; fee_grp_nm: string; due: string } } | null = null;
    for (const wl of wallets) {
      const d = (await api<{ lines: { kind: string; feetyp_nm: string | null; fee_grp_nm: string; due: string }[] }>(baseUrl, s, 'GET', `/api/fee_collection/student/${wl.stud_cd}/dues`, COUNTER)).json;
      const line = d.lines.find((l) => l.kind === 'Fee' && paiseOf(l.due) >= 10_000);
      if (line && paiseOf(wl.wlt_amt) >= 10_000) {
        chosen = { stud_cd: wl.stud_cd, wlt_cd: wl.wlt_cd, balance: paiseOf(wl.wlt_amt), line };
        break;
      }
    }
    expect(chosen, 'a demo child with money in the wallet and a fee due').not.toBeNull();
    const c = chosen!;
    const pay = Math.min(c.balance, paiseOf(c.line.due), 50_000);

    await page.goto(`${baseUrl}/sms/fee/quick_fee_collection/view/${c.stud_cd}`);
    await page.getByTestId('collect-dues').waitFor({ timeout: 20_000 });
    await typeInto(page.getByLabel(`Pay Now ${c.line.feetyp_nm ?? ''} ${c.line.fee_grp_nm}`, { exact: true }), shownOf(pay));
    await page.getByTestId('collect-tender').click();
    await page.getByRole('option', { name: 'Wallet', exact: true }).click();
    const shown = page.getByTestId('collect-wallet-balance');
    await expect.poll(async () => (await shown.textContent()) ?? '').toMatch(/^Wallet balance: /);
    expect(paiseOf((await shown.textContent()) ?? '')).toBe(c.balance);
    await page.screenshot({ path: join(SHOTS, 'counter-wallet-1366.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 800 });
    await page.screenshot({ path: join(SHOTS, 'counter-wallet-390.png'), fullPage: true });
    await page.setViewportSize({ width: 1366, height: 800 });
    await page.getByTestId('collect-save').click();
    await page.getByTestId('fee-receipt').waitFor({ timeout: 15_000 });
    expect(paiseOf((await page.getByTestId('receipt-total').textContent()) ?? '')).toBe(pay);

    const wallet = (await api<{ wlt_amt: string }>(baseUrl, s, 'GET', `/api/wallet/${c.wlt_cd}`, WALLET)).json;
    expect(paiseOf(wallet.wlt_amt)).toBe(c.balance - pay);
    // Back at the counter for the same child: Wallet shows what is left.
    await page.goto(`${baseUrl}/sms/fee/quick_fee_collection/view/${c.stud_cd}`);
    await page.getByTestId('collect-dues').waitFor({ timeout: 20_000 });
    await page.getByTestId('collect-tender').click();
    await page.getByRole('option', { name: 'Wallet', exact: true }).click();
    await expect.poll(async () => paiseOf((await shown.textContent()) ?? ''), { timeout: 15_000 }).toBe(c.balance - pay);
    expect(env.problems).toEqual([]);
  });

  it("lets the accountant collect last year's arrears from Academic Fee Collect and read the receipt", async () => {
    const { page, baseUrl } = env;
    await page.getByRole('button', { name: 'My Profile' }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL((u) => u.pathname === '/login', { timeout: 15_000 });
    await signIn(env, 'ACCOUNTANT', ACCOUNTANT_PASSWORD);
    const acc = await apiLogin(baseUrl, 'ACCOUNTANT', ACCOUNTANT_PASSWORD);
    const ARREARS = { module: 'fee', page: 'academic_fee_collect' };
    const owing = (await api<{ rows: { acdm_fee_stud_cd: number; stud_fs_nm: string; acdm_label: string; balAmt: string }[] }>(baseUrl, acc, 'GET', '/api/academic_fee_collect/?size=1', ARREARS)).json.rows;
    expect(owing.length, 'the demo lists children owing last year').toBe(1);
    const child = owing[0];

    await page.goto(`${baseUrl}/sms/fee/academic_fee_collect/table`);
    const row = grid(page).locator(`.ag-row[row-id="${child.acdm_fee_stud_cd}"]`);
    await row.first().waitFor({ timeout: 30_000 });
    await row.locator('.ag-cell[col-id="stud_fs_nm"]').first().click();
    await page.getByTestId('btn-view').click();
    await expect.poll(() => page.getByTestId('collect-year').textContent(), { timeout: 20_000 }).toBe(`Collecting dues of academic year ${child.acdm_label}`);
    await page.getByTestId('collect-dues').waitFor({ timeout: 20_000 });
    await page.getByTestId('collect-pay-all').click();
    // All of that year's dues: the list's balance, plus a late fee the counter charges where a term ran late.
    await expect.poll(async () => paiseOf((await page.getByTestId('collect-total').textContent()) ?? '')).toBeGreaterThanOrEqual(paiseOf(child.balAmt));
    const total = paiseOf((await page.getByTestId('collect-total').textContent()) ?? '');
    await page.getByTestId('collect-tender').click();
    await page.getByRole('option', { name: 'Cash', exact: true }).click();
    await page.screenshot({ path: join(SHOTS, 'arrears-counter-1366.png'), fullPage: true });
    await page.getByTestId('collect-save').click();
    await page.getByTestId('fee-receipt').waitFor({ timeout: 15_000 });
    expect(paiseOf((await page.getByTestId('receipt-total').textContent()) ?? '')).toBe(total);
    expect((await page.getByTestId('fee-receipt').textContent()) ?? '').toContain(child.acdm_label);
    await page.setViewportSize({ width: 390, height: 800 });
    await page.screenshot({ path: join(SHOTS, 'arrears-receipt-390.png'), fullPage: true });
    await page.setViewportSize({ width: 1366, height: 800 });
    // Paid up: the child leaves the list of last year's arrears.
    const after = (await api<{ rows: { acdm_fee_stud_cd: number }[] }>(baseUrl, acc, 'GET', '/api/academic_fee_collect/?size=500', ARREARS)).json.rows;
    expect(after.map((r) => r.acdm_fee_stud_cd)).not.toContain(child.acdm_fee_stud_cd);
    expect(env.problems).toEqual([]);
  });
});
