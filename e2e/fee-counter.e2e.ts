import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiLogin, type ApiSession } from './api-client';
import { browserAvailable, signIn, startE2e, type E2eEnv } from './browser-harness';

/*
 * The fee counter, once through (the money workflow's journey): the demo accountant finds a child with fees
 * overdue in Quick Fee Collection, collects part of one fee with cash, gets the receipt, and finds the bill
 * on Fee Collected, where he cancels it with a reason. The dues and the summaries behind the screens must
 * follow every step to the paisa.
 */

const PASSWORD = 'Demo-Counter-Pass-7';
const SHOTS = mkdtempSync(join(tmpdir(), 'campus-fee-counter-shots-'));
const COUNTER = { module: 'fee', page: 'quick_fee_collection' };
const BILLS = { module: 'fee', page: 'fee_collected' };

interface Finder {
  stud_cd: number;
  stud_fs_nm: string;
  stud_adm_cd: string;
  pendingAmt: string;
  balAmt: string;
}
interface DueLine {
  kind: string;
  fee_cd: number | null;
  feetyp_nm: string | null;
  fee_grp_nm: string;
  paid: string;
  due: string;
}
interface Bill {
  fee_coll_cd: number;
  fee_coll_bill_no: number;
  stud_cd: number;
  fee_coll_amt: string;
  fee_coll_sts: string;
}

const paise = (s: string): number => Math.round(Number(s) * 100);

async function settleGrid(page: Page): Promise<void> {
  await page.getByTestId('entity-grid').locator('.ag-row[row-index]').first().waitFor({ timeout: 15_000 });
  await page.getByTestId('entity-grid').locator('.ag-overlay-loading-center').waitFor({ state: 'hidden' });
}

/** Types into the grid's search and picks the one row it leaves. */
async function findRow(page: Page, text: string): Promise<void> {
  await page.getByTestId('grid-search').fill(text);
  await expect.poll(() => page.getByTestId('entity-grid').locator('.ag-row[row-index]').count(), { timeout: 15_000 }).toBe(1);
  await page.getByTestId('entity-grid').locator('.ag-row[row-index="0"] .ag-cell[col-id="stud_fs_nm"]').click();
}

describe.skipIf(!browserAvailable())('the fee counter, as the demo accountant (Chromium)', () => {
  let env: E2eEnv;
  let s: ApiSession;
  let child: Finder;

  beforeAll(async () => {
    env = await startE2e({ demo: { password: PASSWORD } });
    s = await apiLogin(env.baseUrl, 'ACCOUNTANT', PASSWORD);
    // The child owing the most right now: the counter's own finder, sorted by what is overdue.
    const found = await api<{ rows: Finder[] }>(env.baseUrl, s, 'GET', '/api/student/detail/?sort=pendingAmt&dir=desc&size=1', COUNTER);
    expect(found.status).toBe(200);
    child = found.json.rows[0];
    expect(paise(child.pendingAmt)).toBeGreaterThan(0);
    await signIn(env, 'ACCOUNTANT', PASSWORD);
  }, 240_000);
  afterAll(async () => env?.close());

  const dues = async (): Promise<DueLine[]> =>
    (await api<{ lines: DueLine[] }>(env.baseUrl, s, 'GET', `/api/fee_collection/student/${child.stud_cd}/dues`, COUNTER)).json.lines;

  it('collects part of a fee in cash, prints the receipt, and the dues, the finder and the bills follow; then the bill is cancelled', async () => {
    const { page, baseUrl } = env;
    const before = await dues();
    const line = before.find((l) => l.kind === 'Fee' && paise(l.due) > 20_000)!;
    expect(line, 'a fee with more than 200.00 due').toBeDefined();

    await page.goto(`${baseUrl}/sms/fee/quick_fee_collection/table`);
    await settleGrid(page);
    await findRow(page, child.stud_adm_cd);
    // The page's View button reads 'Collect': it opens the counter on the chosen child.
    await page.getByTestId('btn-view').click();
    const table = page.getByTestId('collect-dues');
    await table.waitFor({ timeout: 15_000 });
    await expect.poll(() => page.getByTestId('collect-chosen').textContent()).toContain(child.stud_adm_cd);

    const input = page.getByLabel(`Pay Now ${line.feetyp_nm ?? ''} ${line.fee_grp_nm}`, { exact: true });
    // Letters are ignored; the amount keeps digits and one decimal point.
    await input.fill('1a00.5');
    await expect.poll(() => input.inputValue()).toBe('100.5');
    await expect.poll(() => page.getByTestId('collect-total').textContent()).toContain('100.50');
    await page.getByTestId('collect-tender').click();
    await page.getByRole('option', { name: 'Cash', exact: true }).click();
    await page.setViewportSize({ width: 375, height: 800 });
    await page.screenshot({ path: join(SHOTS, 'counter-phone.png'), fullPage: true });
    await page.setViewportSize({ width: 1366, height: 800 });
    await page.getByTestId('collect-save').click();

    const receipt = page.getByTestId('fee-receipt');
    await receipt.waitFor({ timeout: 15_000 });
    await expect.poll(() => page.getByTestId('receipt-total').textContent()).toContain('100.50');
    await page.screenshot({ path: join(SHOTS, 'receipt.png') });

    const after = await dues();
    const paidNow = after.find((l) => l.fee_cd === line.fee_cd)!;
    expect(paise(paidNow.paid) - paise(line.paid)).toBe(10_050);
    expect(paise(line.due) - paise(paidNow.due)).toBe(10_050);
    const finder = (await api<{ rows: Finder[] }>(env.baseUrl, s, 'GET', `/api/student/detail/${child.stud_cd}`, COUNTER)).json as unknown as Finder;
    expect(paise(child.balAmt) - paise(finder.balAmt)).toBe(10_050);
    const bills = (await api<{ rows: Bill[] }>(env.baseUrl, s, 'GET', `/api/fee/CollectedFee?f_stud_cd=${child.stud_cd}&size=50`, BILLS)).json.rows;
    const bill = bills[0];
    expect(bill).toMatchObject({ stud_cd: child.stud_cd, fee_coll_amt: '100.50', fee_coll_sts: 'Active' });

    // On Fee Collected the clerk finds the bill and cancels it, giving the reason.
    await page.goto(`${baseUrl}/sms/fee/fee_collected/table`);
    await settleGrid(page);
    await page.getByTestId('grid-search').fill(String(child.stud_adm_cd));
    await expect.poll(() => page.getByTestId('entity-grid').locator(`.ag-row .ag-cell[col-id="fee_coll_bill_no"]`).allTextContents(), { timeout: 15_000 }).toContain(
      String(bill.fee_coll_bill_no),
    );
    await page.getByTestId('entity-grid').locator('.ag-row[row-index="0"] .ag-cell[col-id="fee_coll_bill_no"]').click();
    await page.getByTestId('btn-cancel_bill').click();
    await page.getByTestId('workflow-reason').fill('Parent paid by mistake; refunded at the counter.');
    await page.getByTestId('workflow-ok').click();
    await expect
      .poll(async () => (await api<Bill>(env.baseUrl, s, 'GET', `/api/fee/CollectedFee/${bill.fee_coll_cd}`, BILLS)).json.fee_coll_sts, { timeout: 15_000 })
      .toBe('Cancelled');
    expect((await dues()).find((l) => l.fee_cd === line.fee_cd)).toMatchObject({ paid: line.paid, due: line.due });
    await page.screenshot({ path: join(SHOTS, 'fee-collected-after-cancel.png') });

    // The counter's own search (create mode) finds the child by admission number through the finder's list.
    await page.goto(`${baseUrl}/sms/fee/quick_fee_collection/create`);
    await page.getByTestId('collect-student').fill(child.stud_adm_cd);
    await page.getByRole('option', { name: new RegExp(child.stud_adm_cd.replace(/[/]/g, '\\/')) }).click();
    await page.getByTestId('collect-dues').waitFor({ timeout: 15_000 });
    console.log(`fee counter screenshots: ${SHOTS}`);
    expect(env.problems).toEqual([]);
  });
});
