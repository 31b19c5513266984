import ExcelJS from 'exceljs';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstPageInk, pdfText } from '../apps/server/test/pdf-check';
import { ADMIN_PASSWORD, browserAvailable, signIn, startE2e, typeInto, type E2eEnv } from './browser-harness';

/*
 * The class result sheet and the certificates, as the demo school's ADMIN prints them. The mark list opens on
 * the latest exam that has ended; Export downloads an .xlsx with a row per student of the grid (it held
 * none while AG Grid's row-model API module was missing); Print and Report Card hand the server's PDF to a
 * hidden frame and never print the app page; the certificate page prints the selected transfer certificate.
 * Screenshots of the page (1366 and 375 px) and of the first pages go to SHOTS_DIR when set.
 */

const SHOTS = process.env.SHOTS_DIR;
if (SHOTS) mkdirSync(SHOTS, { recursive: true });

/**
 * Counts calls of the app page's own window.print() (printing the page would put the app's chrome on paper)
 * and the print frame's, and keeps the last Blob the page turned into an object URL: the document handed to
 * the print frame (the app's CSP does not let a script fetch a blob: URL back). The frame's print is counted
 * instead of run: headless Chromium's PDF viewer crashes its tab when asked to print, a real one opens the
 * print dialog.
 */
const COUNT_PAGE_PRINTS = `(() => {
  if (window !== window.top) return;
  window.__pagePrints = 0;
  window.__framePrints = 0;
  window.print = () => { window.__pagePrints += 1; };
  const make = URL.createObjectURL.bind(URL);
  URL.createObjectURL = (b) => { window.__lastBlob = b; return make(b); };
  const own = Object.getOwnPropertyDescriptor(HTMLIFrameElement.prototype, 'contentWindow');
  Object.defineProperty(HTMLIFrameElement.prototype, 'contentWindow', {
    configurable: true,
    get() {
      const w = own.get.call(this);
      if (w && this.id === 'campus-print-frame') w.print = () => { window.__framePrints += 1; };
      return w;
    },
  });
})();`;
const pagePrints = (page: Page) => page.evaluate(() => (window as unknown as { __pagePrints: number }).__pagePrints);
const framePrints = (page: Page) => page.evaluate(() => (window as unknown as { __framePrints: number }).__framePrints);

/** The PDF the last print handed to the hidden frame (after its viewer was asked to print), read back. */
async function printedPdf(page: Page, previous = ''): Promise<{ pdf: Buffer; src: string }> {
  const frame = page.locator('iframe#campus-print-frame[data-printed="true"]');
  await expect.poll(async () => ((await frame.count()) > 0 ? await frame.getAttribute('src') : ''), { timeout: 20_000 }).not.toBe(previous);
  const src = (await frame.getAttribute('src')) ?? '';
  expect(src).toMatch(/^blob:/);
  const b64 = await page.evaluate(async () => {
    const blob = (window as unknown as { __lastBlob: Blob }).__lastBlob;
    const bytes = new Uint8Array(await blob.arrayBuffer());
    let bin = '';
    for (const b of bytes) bin += String.fromCharCode(b);
    return btoa(bin);
  });
  return { pdf: Buffer.from(b64, 'base64'), src };
}

const grid = (page: Page) => page.getByTestId('entity-grid');
const cellText = (page: Page, row: number, col: string) => grid(page).locator(`.ag-row[row-index="${row}"] .ag-cell[col-id="${col}"]`).first().innerText();

describe.skipIf(!browserAvailable())('mark list export and print, report card and TC (Chromium, demo school)', () => {
  let env: E2eEnv;

  beforeAll(async () => {
    env = await startE2e({ demo: {} });
    await env.context.addInitScript(COUNT_PAGE_PRINTS);
    await signIn(env, 'ADMIN', ADMIN_PASSWORD);
  }, 240_000);
  afterAll(async () => env?.close());

  it('exports the mark list with its rows, prints the mark sheet and a report card as PDFs, not the page', async () => {
    const { page, baseUrl } = env;
    await page.goto(`${baseUrl}/sms/exam/mark_list/table`);
    await grid(page).locator('.ag-row[row-index="0"]').waitFor({ timeout: 20_000 });
    // The page's own count of the exam's students: what the export and the sheet must both hold.
    const students = Number(/(\d+)/.exec(await page.getByText(/^Students: \d+$/).innerText())?.[1]);
    expect(students).toBeGreaterThan(0);
    const firstName = (await cellText(page, 0, 'stud_fs_nm')).trim();
    expect(firstName).not.toBe('');
    if (SHOTS) await page.screenshot({ path: join(SHOTS, 'mark-list-1366.png'), fullPage: true });

    // Export: the workbook holds a row per student, in the grid's order, with the figures as numbers.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export' }).click()]);
    const file = join(env.downloadsDir, download.suggestedFilename());
    await download.saveAs(file);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(readFileSync(file) as unknown as ArrayBuffer);
    const ws = wb.worksheets[0];
    const header = (ws.getRow(1).values as unknown[]).slice(1).map(String);
    expect(header.slice(0, 3)).toEqual(['Roll No', 'Student Name', 'Admission No']);
    expect(header).toEqual(expect.arrayContaining(['Total', 'Percentage', 'Result', 'Rank']));
    expect(ws.actualRowCount - 1).toBe(students);
    expect(String(ws.getRow(2).getCell(2).value)).toBe(firstName);
    const totalCol = header.indexOf('Total') + 1;
    expect(typeof ws.getRow(2).getCell(totalCol).value).toBe('number');

    // Print: the server's mark sheet, in a hidden frame; the page itself never goes to the printer.
    await page.getByTestId('btn-print').click();
    const sheet = await printedPdf(page);
    const sheetText = pdfText(sheet.pdf);
    expect(sheetText).toContain('Mark Sheet');
    expect(sheetText).toContain(firstName);
    expect(sheetText).toMatch(/\d+\.\d{2} %/);
    expect(sheetText.split('\n').filter((l) => /\d+\.\d{2} %/.test(l))).toHaveLength(students);
    expect(firstPageInk(sheet.pdf, SHOTS ? join(SHOTS, 'mark-sheet-pdf.png') : undefined)).toBeGreaterThan(0.01);
    expect(await pagePrints(page)).toBe(0);
    expect(await framePrints(page)).toBe(1);

    // Report card of the first student: every exam of the year with its figures.
    await grid(page).locator('.ag-row[row-index="0"] .ag-cell[col-id="stud_fs_nm"]').first().click();
    await page.getByTestId('btn-report-card').click();
    const card = await printedPdf(page, sheet.src);
    const cardText = pdfText(card.pdf);
    expect(cardText).toContain('Report Card');
    expect(cardText).toContain(firstName);
    expect(cardText).toMatch(/Percentage\s+\d+\.\d{2} %/);
    if (SHOTS) firstPageInk(card.pdf, join(SHOTS, 'report-card-pdf.png'));
    expect(await pagePrints(page)).toBe(0);
    expect(await framePrints(page)).toBe(2);

    await page.setViewportSize({ width: 375, height: 800 });
    await page.waitForTimeout(300);
    if (SHOTS) await page.screenshot({ path: join(SHOTS, 'mark-list-375.png'), fullPage: true });
    await page.setViewportSize({ width: 1366, height: 800 });
    expect(env.problems).toEqual([]);
  });

  it("prints the selected transfer certificate from the certificate page with its number and the student's particulars", async () => {
    const { page, baseUrl } = env;
    await page.goto(`${baseUrl}/sms/student/certificate/table`);
    await grid(page).locator('.ag-row[row-index="0"]').waitFor({ timeout: 20_000 });
    await typeInto(page.getByTestId('grid-search'), 'Transfer');
    await expect.poll(async () => (await cellText(page, 0, 'cert_fct_typ')).trim(), { timeout: 15_000 }).toBe('Transfer Certificate');
    const student = (await cellText(page, 0, 'stud_cd')).trim();
    const number = (await cellText(page, 0, 'cert_fct_nmb')).trim();
    expect(number).toMatch(/^\d+$/);
    await grid(page).locator('.ag-row[row-index="0"] .ag-cell[col-id="cert_fct_typ"]').first().click();
    await page.getByTestId('btn-print').click();
    const { pdf } = await printedPdf(page);
    const text = pdfText(pdf);
    expect(text).toContain('Transfer Certificate');
    expect(text).toMatch(new RegExp(`Certificate No: ${number}\\b`));
    expect(text).toContain(student);
    expect(text).toMatch(/Date of leaving\s+\d{4}\/\w+\/\d{2}/);
    expect(text).toMatch(/Conduct and character\s+\w+/);
    expect(firstPageInk(pdf, SHOTS ? join(SHOTS, 'tc-pdf.png') : undefined)).toBeGreaterThan(0.01);
    expect(await pagePrints(page)).toBe(0);
    expect(await framePrints(page)).toBe(1);
    if (SHOTS) await page.screenshot({ path: join(SHOTS, 'certificate-1366.png') });
    expect(env.problems).toEqual([]);
  });
});
