import ExcelJS from 'exceljs';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstPageInk, pdfText } from '../apps/server/test/pdf-check';
import { ADMIN_PASSWORD, browserAvailable, signIn, startE2e, typeInto, type E2eEnv } from './browser-harness';
import { printCounts, printedPdf, WATCH_PRINTING } from './print-watch';

/*
 * The class result sheet and the certificates, as the demo school's ADMIN prints them. The mark list opens on
 * the latest exam that has ended; Export downloads an .xlsx with a row per student of the grid (it held
 * none while AG Grid's row-model API module was missing); Print and Report Card hand the server's PDF to a
 * hidden frame and never print the app page; the certificate page prints the selected transfer certificate.
 * Screenshots of the page (1366 and 375 px) and of the first pages go to SHOTS_DIR when set.
 */

const SHOTS = process.env.SHOTS_DIR;
if (SHOTS) mkdirSync(SHOTS, { recursive: true });

const grid = (page: Page) => page.getByTestId('entity-grid');
const cellText = (page: Page, row: number, col: string) => grid(page).locator(`.ag-row[row-index="${row}"] .ag-cell[col-id="${col}"]`).first().innerText();

describe.skipIf(!browserAvailable())('mark list export and print, report card and TC (Chromium, demo school)', () => {
  let env: E2eEnv;

  beforeAll(async () => {
    env = await startE2e({ demo: {} });
    await env.context.addInitScript(WATCH_PRINTING);
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
    expect(await printCounts(page)).toEqual({ page: 0, frame: 1 });

    // Report card of the first student: every exam of the year with its figures.
    await grid(page).locator('.ag-row[row-index="0"] .ag-cell[col-id="stud_fs_nm"]').first().click();
    await page.getByTestId('btn-report-card').click();
    const card = await printedPdf(page, sheet.src);
    const cardText = pdfText(card.pdf);
    expect(cardText).toContain('Report Card');
    expect(cardText).toContain(firstName);
    expect(cardText).toMatch(/Percentage\s+\d+\.\d{2} %/);
    if (SHOTS) firstPageInk(card.pdf, join(SHOTS, 'report-card-pdf.png'));
    expect(await printCounts(page)).toEqual({ page: 0, frame: 2 });

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
    expect(await printCounts(page)).toEqual({ page: 0, frame: 1 });
    if (SHOTS) await page.screenshot({ path: join(SHOTS, 'certificate-1366.png') });
    expect(env.problems).toEqual([]);
  });
});
