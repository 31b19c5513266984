import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiLogin, type ApiSession } from './api-client';
import { ADMIN_PASSWORD, browserAvailable, signIn, startE2e, typeInto, type E2eEnv } from './browser-harness';

/*
 * The library desk, once through: the administrator opens Book Issue > New, finds a child by name, scans a
 * book's barcode (typed key by key and Enter, as a scanner does), issues it and sees it in the child's list;
 * the Stock page shows it; then Book Return > New takes it back by the same scan, and Stock follows.
 */

const SHOTS = process.env.SHOTS_DIR ?? mkdtempSync(join(tmpdir(), 'campus-library-desk-shots-'));
const ISSUE = { module: 'library', page: 'book_checkout' };
const STOCK = { module: 'library', page: 'book_checkinout_summary' };

interface Hit {
  usr_cd: number;
  name: string;
  detail: string;
}
interface HolderBooks {
  held: number;
  limit: number;
  books: { bk_cd: number; bk_nm: string; qty: number; days_overdue: number }[];
}
interface Book {
  bk_cd: number;
  bk_nm: string;
  bk_barcd: string | null;
  available: number;
}

const toasts = (page: Page): Locator => page.locator('.mantine-Notifications-root .mantine-Notification-description');

async function settleGrid(page: Page): Promise<void> {
  await page.getByTestId('entity-grid').locator('.ag-row[row-index]').first().waitFor({ timeout: 15_000 });
  await page.getByTestId('entity-grid').locator('.ag-overlay-loading-center').waitFor({ state: 'hidden' });
}

/** Types the holder's name into the finder and picks them, as a librarian does. */
async function pickHolder(page: Page, who: Hit): Promise<void> {
  const input = page.getByTestId('lend-holder');
  await typeInto(input, who.name);
  const label = who.detail ? `${who.name} - ${who.detail}` : who.name;
  await page.getByRole('option', { name: label, exact: true }).first().click();
  await page.getByTestId('lend-held').waitFor({ timeout: 15_000 });
}

/** A barcode scanner: the code typed key by key, then Enter. */
async function scan(page: Page, code: string): Promise<void> {
  const box = page.getByTestId('lend-barcode');
  await box.pressSequentially(code, { delay: 15 });
  await box.press('Enter');
}

describe.skipIf(!browserAvailable())('the library desk, as the administrator (Chromium)', () => {
  let env: E2eEnv;
  let s: ApiSession;
  let reader: Hit;
  let overdueReader: Hit | undefined;
  let book: Book & { bk_barcd: string };

  beforeAll(async () => {
    env = await startE2e({ demo: {} });
    s = await apiLogin(env.baseUrl, 'ADMIN', ADMIN_PASSWORD);
    const holders = (await api<Hit[]>(env.baseUrl, s, 'GET', '/api/bookcheckout/holders?usr_typ=Student&q=', ISSUE)).json;
    const stockOf = async (h: Hit) => (await api<HolderBooks>(env.baseUrl, s, 'GET', `/api/bookcheckinoutsummary/holder?usr_typ=Student&usr_cd=${h.usr_cd}`, ISSUE)).json;
    for (const h of holders) {
      const st = await stockOf(h);
      if (!reader && st.held === 0) reader = h;
      if (!overdueReader && st.books.some((b) => b.days_overdue > 0)) overdueReader = h;
    }
    // The demo leaves some copies overdue; the finder's first twenty may not hold one, so ask the Stock page.
    if (!overdueReader) {
      const late = await api<{ rows: { usr_bk_stk_usr_cd: number; usr_bk_stk_usr_nm: string }[] }>(env.baseUrl, s, 'GET', '/api/bookcheckinoutsummary/?f_usr_bk_stk_usr_typ=Student&size=1', STOCK);
      const first = late.json.rows[0];
      const found = (await api<Hit[]>(env.baseUrl, s, 'GET', `/api/bookcheckout/holders?usr_typ=Student&q=${encodeURIComponent(first.usr_bk_stk_usr_nm)}`, ISSUE)).json;
      overdueReader = found.find((h) => h.usr_cd === Number(first.usr_bk_stk_usr_cd));
    }
    expect(reader, 'a student with no book out').toBeDefined();
    const books = (await api<Book[]>(env.baseUrl, s, 'GET', '/api/bookcheckout/books?q=', ISSUE)).json;
    book = books.find((b): b is Book & { bk_barcd: string } => b.available > 0 && !!b.bk_barcd)!;
    expect(book, 'a book on the shelf with a barcode').toBeDefined();
    await signIn(env);
  }, 240_000);
  afterAll(async () => env?.close());

  it('issues a book by scanning its barcode, lists it with the holder and on Stock, and takes it back by the same scan', async () => {
    const { page, baseUrl } = env;
    await page.goto(`${baseUrl}/sms/library/book_checkout/table`);
    await settleGrid(page);
    await page.getByTestId('btn-create').click();
    await page.waitForURL(/\/sms\/library\/book_checkout\/create/, { timeout: 15_000 });
    await pickHolder(page, reader);
    expect(await page.getByTestId('lend-held').textContent()).toContain('No book out.');

    // An unknown code is named, the field is ready for the next scan.
    await scan(page, 'NO-SUCH-BOOK-1');
    await expect.poll(() => page.getByText("No book has the barcode 'NO-SUCH-BOOK-1'.").count(), { timeout: 10_000 }).toBe(1);
    expect(await page.getByTestId('lend-barcode').inputValue()).toBe('');

    // The scanner's case need not match the stored code.
    await scan(page, book.bk_barcd.toLowerCase());
    const cart = page.getByTestId('lend-cart');
    await cart.getByText(book.bk_nm, { exact: true }).waitFor({ timeout: 10_000 });
    await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid ?? document.activeElement?.closest('[data-testid]')?.getAttribute('data-testid'))).toBe('lend-barcode');
    expect(await page.getByTestId('lend-barcode').inputValue()).toBe('');
    await page.screenshot({ path: join(SHOTS, 'issue-desk-1366.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(SHOTS, 'issue-desk-390.png'), fullPage: true });
    await page.setViewportSize({ width: 1366, height: 800 });

    await page.getByTestId('lend-submit').click();
    await expect.poll(async () => (await toasts(page).allTextContents()).join(' | '), { timeout: 15_000 }).toContain(`1 book(s) issued to ${reader.name}.`);
    await page.getByTestId('lend-held-table').getByText(book.bk_nm, { exact: true }).waitFor({ timeout: 10_000 });
    expect(await page.getByTestId('lend-cart').count()).toBe(0);
    const held = (await api<HolderBooks>(env.baseUrl, s, 'GET', `/api/bookcheckinoutsummary/holder?usr_typ=Student&usr_cd=${reader.usr_cd}`, ISSUE)).json;
    expect(held.books.map((b) => [b.bk_cd, b.qty])).toEqual([[book.bk_cd, 1]]);

    // The Stock page lists the child's copy.
    await page.goto(`${baseUrl}/sms/library/book_checkinout_summary/table`);
    await settleGrid(page);
    await typeInto(page.getByTestId('grid-search'), reader.name);
    await page.getByTestId('entity-grid').getByText(book.bk_nm, { exact: true }).first().waitFor({ timeout: 15_000 });

    // Book Return > New: the same child, the same scan.
    await page.goto(`${baseUrl}/sms/library/book_checkin/table`);
    await settleGrid(page);
    await page.getByTestId('btn-create').click();
    await page.waitForURL(/\/sms\/library\/book_checkin\/create/, { timeout: 15_000 });
    await pickHolder(page, reader);
    await page.getByTestId('lend-held-table').getByText(book.bk_nm, { exact: true }).waitFor({ timeout: 10_000 });
    await scan(page, book.bk_barcd);
    await page.getByTestId('lend-cart').getByText(book.bk_nm, { exact: true }).waitFor({ timeout: 10_000 });
    await page.screenshot({ path: join(SHOTS, 'return-desk-1366.png'), fullPage: true });
    const sent = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/api/bookcheckin/return'));
    await page.getByTestId('lend-submit').click();
    await expect.poll(async () => (await toasts(page).allTextContents()).join(' | '), { timeout: 15_000 }).toContain(`1 book(s) returned by ${reader.name}.`);
    await expect.poll(async () => page.getByTestId('lend-held').textContent(), { timeout: 10_000 }).toContain('No book out.');
    // The desk's return carries its attempt key: the same request again (a lost answer retried) is the first return.
    const body = JSON.parse((await sent).postData() ?? '{}') as { idempotency_key?: string };
    expect(body.idempotency_key).toMatch(/^[0-9a-f-]{36}$/);
    const replay = await api<{ repeated: boolean }>(env.baseUrl, s, 'POST', '/api/bookcheckin/return', { module: 'library', page: 'book_checkin' }, body);
    expect(replay.status).toBe(200);
    expect(replay.json.repeated).toBe(true);

    const stock = await api<{ rows: { bk_cd: number }[] }>(env.baseUrl, s, 'GET', `/api/bookcheckinoutsummary/?f_usr_bk_stk_usr_cd=${reader.usr_cd}&f_usr_bk_stk_usr_typ=Student`, STOCK);
    expect(stock.json.rows).toEqual([]);
    await page.goto(`${baseUrl}/sms/library/book_checkinout_summary/table`);
    await settleGrid(page);
    await typeInto(page.getByTestId('grid-search'), reader.name);
    await expect.poll(() => page.getByTestId('entity-grid').getByText(book.bk_nm, { exact: true }).count(), { timeout: 15_000 }).toBe(0);
    expect(env.problems).toEqual([]);
  });

  it("shows a holder's overdue copies in red on the desk", async () => {
    const { page, baseUrl } = env;
    const from = env.problems.length;
    expect(overdueReader, 'the demo leaves a student with an overdue copy').toBeDefined();
    await page.goto(`${baseUrl}/sms/library/book_checkin/create`);
    await pickHolder(page, overdueReader!);
    const late = page.getByTestId('lend-held-table').locator('tr[data-overdue="yes"]');
    await late.first().waitFor({ timeout: 10_000 });
    expect(await late.first().textContent()).toMatch(/Overdue \d+ d/);
    const color = await late.first().locator('p').last().evaluate((el) => getComputedStyle(el).color);
    expect(color).toMatch(/rgb\((2[0-5]\d|1[5-9]\d), \d{1,2}, \d{1,2}\)/);
    await page.screenshot({ path: join(SHOTS, 'return-overdue-1366.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(SHOTS, 'return-overdue-390.png'), fullPage: true });
    await page.setViewportSize({ width: 1366, height: 800 });
    expect(env.problems.slice(from)).toEqual([]);
  });
});
