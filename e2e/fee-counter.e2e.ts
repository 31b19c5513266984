import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiLogin, type ApiSession } from './api-client';
import { A4, A5, firstPageInk, pdfInfo, pdfLetters, pdfText } from '../apps/server/test/pdf-check';
import { printCounts, printedPdf, WATCH_PRINTING } from './print-watch';
import { browserAvailable, signIn, startE2e, typeInto, type E2eEnv } from './browser-harness';

/*
 * The fee counter, once through (the money workflow's journey): the demo accountant finds a child with fees
 * overdue in Quick Fee Collection, types the amount key by key, collects part of one fee with cash, prints
 * the receipt (the server's PDF, never the page with its menu), and finds the bill on Fee Collected, where
 * he reprints it and then cancels it with a reason. The dues and the summaries behind the screens must
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

// Test-side reading of the API's 2-decimal strings ('4475.50'): exact for these sizes.
const paise = (s: string): number => Math.round(Number(s) * 100);
const WORDS = 'Rupees Four Thousand Four Hundred Seventy Five and Fifty Paise Only';

/**
 * Clicks Print and returns the document it handed to the printer: the PDF the page fetched from the server,
 * read back from the Blob behind the hidden frame's blob: URL once the frame has asked its viewer to print.
 */
async function printReceipt(page: Page): Promise<Buffer> {
  const [res] = await Promise.all([
    page.waitForResponse((r) => /\/api\/fee_collection\/bill\/\d+\/pdf\b/.test(r.url()), { timeout: 20_000 }),
    page.getByTestId('receipt-print').click(),
  ]);
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toBe('application/pdf');
  return (await printedPdf(page)).pdf;
}

async function settleGrid(page: Page): Promise<void> {
  await page.getByTestId('entity-grid').locator('.ag-row[row-index]').first().waitFor({ timeout: 15_000 });
  await page.getByTestId('entity-grid').locator('.ag-overlay-loading-center').waitFor({ state: 'hidden' });
}

/** Types into the grid's search and picks the one row it leaves. */
async function findRow(page: Page, text: string): Promise<void> {
  await typeInto(page.getByTestId('grid-search'), text);
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
    await env.context.addInitScript(WATCH_PRINTING);
    await signIn(env, 'ACCOUNTANT', PASSWORD);
  }, 240_000);
  afterAll(async () => env?.close());

  const dues = async (): Promise<DueLine[]> =>
    (await api<{ lines: DueLine[] }>(env.baseUrl, s, 'GET', `/api/fee_collection/student/${child.stud_cd}/dues`, COUNTER)).json.lines;

  it('types Pay Now key by key, collects in cash, prints the receipt as a PDF (not the page), and the dues, the finder and the bills follow; then the bill is reprinted and cancelled', async () => {
    const { page, baseUrl } = env;
    const before = await dues();
    // 4475.50 is collected, so the line must owe at least that.
    const line = before.find((l) => l.kind === 'Fee' && paise(l.due) >= 500_000)!;
    expect(line, 'a fee with at least 5000.00 due').toBeDefined();

    await page.goto(`${baseUrl}/sms/fee/quick_fee_collection/table`);
    await settleGrid(page);
    await findRow(page, child.stud_adm_cd);
    // The page's View button reads 'Collect': it opens the counter on the chosen child.
    await page.getByTestId('btn-view').click();
    const table = page.getByTestId('collect-dues');
    await table.waitFor({ timeout: 15_000 });
    await expect.poll(() => page.getByTestId('collect-chosen').textContent()).toContain(child.stud_adm_cd);

    const input = page.getByLabel(`Pay Now ${line.feetyp_nm ?? ''} ${line.fee_grp_nm}`, { exact: true });
    // Typed one key at a time, as a clerk does: the second key used to crash the counter.
    for (const [typed, total] of [
      ['100', '100.00'],
      ['5000', '5,000.00'],
      ['4475.50', '4,475.50'],
    ]) {
      await typeInto(input, typed);
      // A crashed counter has no box left: say what the page reported instead of waiting.
      await expect.poll(() => input.inputValue({ timeout: 1_000 }).catch(() => `no Pay Now box; page problems: ${env.problems.join(' | ')}`), { timeout: 10_000 }).toBe(typed);
      await expect.poll(() => page.getByTestId('collect-total').textContent()).toContain(total);
      expect(env.problems, `after typing ${typed}`).toEqual([]);
    }
    // Letters are ignored; the amount keeps digits and one decimal point.
    await typeInto(input, '1a00.5');
    await expect.poll(() => input.inputValue()).toBe('100.5');
    await typeInto(input, '4475.50');
    await page.getByTestId('collect-tender').click();
    await page.getByRole('option', { name: 'Cash', exact: true }).click();
    await page.screenshot({ path: join(SHOTS, 'counter-1366.png'), fullPage: true });
    await page.setViewportSize({ width: 375, height: 800 });
    await page.screenshot({ path: join(SHOTS, 'counter-375.png'), fullPage: true });
    await page.setViewportSize({ width: 1366, height: 800 });
    await page.getByTestId('collect-save').click();

    const receipt = page.getByTestId('fee-receipt');
    await receipt.waitFor({ timeout: 15_000 });
    await expect.poll(() => page.getByTestId('receipt-total').textContent()).toBe('4,475.50');
    expect(await page.getByTestId('receipt-words').textContent()).toBe(WORDS);
    const balanceAfter = before.reduce((a, l) => a + paise(l.due), 0) - 447_550;
    const balanceText = await page.getByTestId('receipt-balance').textContent();
    expect(paise((balanceText ?? '').replace(/,/g, ''))).toBe(balanceAfter);
    expect(await page.getByTestId('receipt-cashier').textContent()).toBeTruthy();
    await page.screenshot({ path: join(SHOTS, 'receipt-1366.png'), fullPage: true });

    // Print at the counter, right after collecting: the server's A5 PDF in a hidden frame, not the app page.
    const a5 = await printReceipt(page);
    expect(await printCounts(page)).toEqual({ page: 0, frame: 1 });
    expect(pdfInfo(a5)).toMatchObject({ ...A5, pages: 1 });
    const paper = pdfText(a5);
    expect(paper).toContain('Fee Receipt');
    expect(paper).toContain(child.stud_fs_nm);
    expect(paper).toMatch(/Total Paid\s+4,475\.50/);
    expect(paper).toContain(WORDS);
    expect(paper).toContain(`Balance Due: ${(balanceText ?? '').trim()}`);
    // The page's chrome is not on paper: no menu, no toast, no header bar.
    expect(paper).not.toMatch(/Quick Fee Collection|Fee Master|Sign out|Saved/i);
    expect(firstPageInk(a5, join(SHOTS, 'receipt-a5.png'))).toBeGreaterThan(0.01);
    // Ctrl+P on the page itself: the print stylesheet leaves the header bar and side menu off the paper.
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('.mantine-AppShell-header').isVisible()).toBe(false);
    expect(await page.locator('.mantine-AppShell-navbar').isVisible()).toBe(false);
    expect(await page.getByTestId('fee-receipt').isVisible()).toBe(true);
    await page.emulateMedia({ media: 'screen' });
    expect(await page.locator('.mantine-AppShell-header').isVisible()).toBe(true);

    const after = await dues();
    const paidNow = after.find((l) => l.fee_cd === line.fee_cd)!;
    expect(paise(paidNow.paid) - paise(line.paid)).toBe(447_550);
    expect(paise(line.due) - paise(paidNow.due)).toBe(447_550);
    const finder = (await api<{ rows: Finder[] }>(env.baseUrl, s, 'GET', `/api/student/detail/${child.stud_cd}`, COUNTER)).json as unknown as Finder;
    expect(paise(child.balAmt) - paise(finder.balAmt)).toBe(447_550);
    const bills = (await api<{ rows: Bill[] }>(env.baseUrl, s, 'GET', `/api/fee/CollectedFee?f_stud_cd=${child.stud_cd}&size=50`, BILLS)).json.rows;
    const bill = bills[0];
    expect(bill).toMatchObject({ stud_cd: child.stud_cd, fee_coll_amt: '4475.50', fee_coll_sts: 'Active' });

    // Fee Collected: the bill's view is the same receipt; it reprints on A4 when the clerk picks A4.
    await page.goto(`${baseUrl}/sms/fee/fee_collected/view/${bill.fee_coll_cd}`);
    await expect.poll(() => page.getByTestId('receipt-total').textContent(), { timeout: 30_000 }).toBe('4,475.50');
    await page.getByTestId('receipt-size').getByText('A4', { exact: true }).click();
    const a4 = await printReceipt(page);
    expect(pdfInfo(a4)).toMatchObject({ ...A4, pages: 1 });
    expect(pdfText(a4)).toContain(WORDS);
    expect(firstPageInk(a4, join(SHOTS, 'receipt-a4.png'))).toBeGreaterThan(0.005);
    expect(await printCounts(page)).toEqual({ page: 0, frame: 1 });
    await page.setViewportSize({ width: 375, height: 800 });
    await page.screenshot({ path: join(SHOTS, 'receipt-375.png'), fullPage: true });
    await page.setViewportSize({ width: 1366, height: 800 });

    // On Fee Collected the clerk finds the bill and cancels it, giving the reason.
    await page.goto(`${baseUrl}/sms/fee/fee_collected/table`);
    await settleGrid(page);
    await typeInto(page.getByTestId('grid-search'), String(child.stud_adm_cd));
    // Wait for the search to have filtered the grid (a click on a row the reload then replaces selects nothing).
    const admissionCells = page.getByTestId('entity-grid').locator('.ag-row[row-index] .ag-cell[col-id="stud_adm_cd"]');
    await expect
      .poll(async () => {
        const adm = await admissionCells.allTextContents();
        return adm.length > 0 && adm.every((a) => a.trim() === child.stud_adm_cd);
      }, { timeout: 20_000 })
      .toBe(true);
    const billCell = page
      .getByTestId('entity-grid')
      .locator('.ag-row[row-index] .ag-cell[col-id="fee_coll_bill_no"]')
      .filter({ hasText: new RegExp(`^\\s*${bill.fee_coll_bill_no}\\s*$`) });
    await billCell.first().click();
    await page.getByTestId('btn-cancel_bill').click();
    await typeInto(page.getByTestId('workflow-reason'), 'Parent paid by mistake; refunded at the counter.');
    await page.getByTestId('workflow-ok').click();
    await expect
      .poll(async () => (await api<Bill>(env.baseUrl, s, 'GET', `/api/fee/CollectedFee/${bill.fee_coll_cd}`, BILLS)).json.fee_coll_sts, { timeout: 15_000 })
      .toBe('Cancelled');
    expect((await dues()).find((l) => l.fee_cd === line.fee_cd)).toMatchObject({ paid: line.paid, due: line.due });
    await page.screenshot({ path: join(SHOTS, 'fee-collected-after-cancel.png') });
    // A reprint of the cancelled bill says so across the paper.
    await page.goto(`${baseUrl}/sms/fee/fee_collected/view/${bill.fee_coll_cd}`);
    await page.getByTestId('receipt-cancelled').waitFor({ timeout: 15_000 });
    const cancelledPaper = await printReceipt(page);
    expect(pdfLetters(cancelledPaper)).toContain('CANCELLED');
    expect(pdfText(cancelledPaper)).toContain('Parent paid by mistake; refunded at the counter.');
    firstPageInk(cancelledPaper, join(SHOTS, 'receipt-cancelled.png'));

    // The counter's own search (create mode) finds the child by admission number through the finder's list.
    await page.goto(`${baseUrl}/sms/fee/quick_fee_collection/create`);
    await typeInto(page.getByTestId('collect-student'), child.stud_adm_cd);
    await page.getByRole('option', { name: new RegExp(child.stud_adm_cd.replace(/[/]/g, '\\/')) }).click();
    await page.getByTestId('collect-dues').waitFor({ timeout: 15_000 });
    console.log(`fee counter screenshots: ${SHOTS}`);
    expect(env.problems).toEqual([]);
  });
});
