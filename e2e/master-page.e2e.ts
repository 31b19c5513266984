import ExcelJS from 'exceljs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiLogin } from './api-client';
import { ADMIN_PASSWORD, browserAvailable, signIn, startE2e, typeInto, type E2eEnv } from './browser-harness';

/*
 * A school clerk's afternoon on one master page (Other Master > Religion), driven through Chromium: the
 * required-field rule, create / search / edit / clone / delete, Excel export of the selected rows, the saved
 * column layout, a restricted teacher, and sign-out. The tests run in order and share one browser.
 */

const RELIGION_TABLE = '/sms/master/religion/table';
const NAME = 'Zoroastrian';
const FIRST_DESC = 'Parsi community';
const NEW_DESC = 'Parsi and Irani communities';
const CLONE_NAME = 'Zoroastrian (Irani)';
const TEACHER_PWD = 'Teacher-Pass-77';
const SHOTS = mkdtempSync(join(tmpdir(), 'campus-master-page-shots-'));

/** Columns of the religion grid (the pinned selection column is AG Grid's own and left out). */
const isDataColumn = (colId: string): boolean => colId.startsWith('rgn_');

// ---------- grid helpers ----------

const grid = (page: Page): Locator => page.getByTestId('entity-grid');
/** Data rows of the grid (AG Grid 36 draws the pinned checkbox cell and the data cells in one row element). */
const rows = (page: Page): Locator => grid(page).locator('.ag-row[row-index]');
const rowByName = (page: Page, name: string): Locator =>
  rows(page).filter({ has: page.locator('.ag-cell[col-id="rgn_nm"]').getByText(name, { exact: true }) });
const cellOf = (row: Locator, colId: string): Locator => row.locator(`.ag-cell[col-id="${colId}"]`);

async function gridNames(page: Page): Promise<string[]> {
  return (await rows(page).locator('.ag-cell[col-id="rgn_nm"]').allTextContents()).map((s) => s.trim());
}

/** Visible data columns in on-screen order (aria-colindex: AG Grid does not reorder header DOM nodes on a move). */
async function headerOrder(page: Page): Promise<string[]> {
  const cells: { id: string; index: number }[] = [];
  for (const cell of await grid(page).locator('.ag-header-cell[col-id]').all()) {
    const id = (await cell.getAttribute('col-id')) ?? '';
    if (isDataColumn(id)) cells.push({ id, index: Number(await cell.getAttribute('aria-colindex')) });
  }
  return cells.sort((a, b) => a.index - b.index).map((c) => c.id);
}

async function headerLabels(page: Page): Promise<string[]> {
  const labels: string[] = [];
  for (const id of await headerOrder(page)) {
    labels.push(((await grid(page).locator(`.ag-header-cell[col-id="${id}"] .ag-header-cell-text`).textContent()) ?? '').trim());
  }
  return labels;
}

async function waitForGrid(page: Page): Promise<void> {
  await rows(page).first().waitFor({ timeout: 15_000 });
}

/** A real drag of one header onto another with the mouse, in small steps as a hand would move. */
async function dragHeader(page: Page, fromCol: string, toCol: string, side: 'before' | 'after'): Promise<void> {
  const src = await grid(page).locator(`.ag-header-cell[col-id="${fromCol}"]`).boundingBox();
  const dst = await grid(page).locator(`.ag-header-cell[col-id="${toCol}"]`).boundingBox();
  if (!src || !dst) throw new Error(`header ${fromCol} or ${toCol} is not on screen`);
  const y = src.y + src.height / 2;
  const startX = src.x + src.width / 2;
  const endX = side === 'before' ? dst.x + 4 : dst.x + dst.width - 4;
  await page.mouse.move(startX, y);
  await page.mouse.down();
  await page.mouse.move(startX + (endX > startX ? 12 : -12), y, { steps: 4 });
  await page.mouse.move(endX, y, { steps: 20 });
  await page.mouse.move(endX + (side === 'before' ? -2 : 2), y, { steps: 2 });
  await page.mouse.up();
}

interface ExportedSheet {
  fileName: string;
  sheetName: string;
  header: unknown[];
  rows: unknown[][];
}

/** Selects the named rows (click, then Ctrl+click), presses Export and reads the downloaded workbook. */
async function exportSelected(env: E2eEnv, names: readonly string[]): Promise<ExportedSheet> {
  const { page } = env;
  await cellOf(rowByName(page, names[0]), 'rgn_nm').click();
  for (const name of names.slice(1)) await cellOf(rowByName(page, name), 'rgn_nm').click({ modifiers: ['Control'] });
  await expect.poll(() => rows(page).and(page.locator('.ag-row-selected')).count()).toBe(names.length);
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), page.getByTestId('btn-export').click()]);
  const path = join(env.downloadsDir, `export-${Date.now()}.xlsx`);
  await download.saveAs(path);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(path);
  expect(wb.worksheets).toHaveLength(1);
  const ws = wb.worksheets[0];
  const values = (r: number): unknown[] => (ws.getRow(r).values as unknown[]).slice(1);
  return {
    fileName: download.suggestedFilename(),
    sheetName: ws.name,
    header: values(1),
    rows: Array.from({ length: ws.actualRowCount - 1 }, (_, i) => values(i + 2)),
  };
}

const toast = (page: Page, text: string): Locator => page.locator('.mantine-Notifications-root').getByText(text, { exact: true });

/** document.activeElement: the element that has the keyboard focus. */
async function focused(page: Page): Promise<{ tag: string | null; name: string | null; id: string | null }> {
  const [tag, name, id] = (await page.evaluate(
    '[document.activeElement?.tagName ?? null, document.activeElement?.getAttribute("name") ?? null, document.activeElement?.id ?? null]',
  )) as [string | null, string | null, string | null];
  return { tag, name, id };
}

async function signOutThroughUi(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'My Profile' }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await page.waitForURL((u) => u.pathname === '/login', { timeout: 15_000 });
}

// ---------- the test ----------

describe.runIf(browserAvailable())('religion master page, as a clerk would use it (Chromium)', () => {
  let env: E2eEnv;
  /** Every religion write the browser sends, so a refused form can be shown to have sent nothing. */
  const writes: string[] = [];

  beforeAll(async () => {
    env = await startE2e();
    env.page.on('request', (r) => {
      if (r.method() !== 'GET' && new URL(r.url()).pathname.startsWith('/api/religion')) writes.push(`${r.method()} ${r.url()}`);
    });
    console.log(`master-page screenshots: ${SHOTS}`);
  });
  afterAll(async () => env?.close());

  it('signs in as ADMIN and opens Other Master > Religion from the side menu', async () => {
    const { page } = env;
    await signIn(env);
    // The landing page leads into the signed-in area; the side menu lives there.
    await page.getByRole('link', { name: 'Open dashboard' }).click();
    await page.waitForURL((u) => u.pathname === '/sms/dashboard');
    const menu = page.locator('.mantine-AppShell-navbar');
    await menu.getByText('Other Master', { exact: true }).click();
    // The admin holds every master page: Role sits next to Religion (the teacher below must not see it).
    await expect.poll(() => menu.getByRole('link', { name: 'Role', exact: true }).isVisible()).toBe(true);
    await menu.getByRole('link', { name: 'Religion', exact: true }).click();
    await page.waitForURL((u) => u.pathname === RELIGION_TABLE);
    await waitForGrid(page);
    expect(await gridNames(page)).toEqual(expect.arrayContaining(['Hindu', 'Muslim', 'Christian', 'Sikh']));
    expect(await page.getByRole('heading', { name: 'Religion', exact: true }).isVisible()).toBe(true);
    expect(env.problems).toEqual([]);
  });

  it('refuses to save without the religion name: the exact toast, and the focus goes to the name', async () => {
    const { page } = env;
    await page.getByTestId('btn-create').click();
    await page.waitForURL((u) => u.pathname === '/sms/master/religion/create');
    await typeInto(page.locator('#rgn_desc'), FIRST_DESC); // something typed, but not the required name
    await page.getByTestId('btn-save').click();
    await toast(page, "Please enter the 'Religion Name'.").waitFor();
    await expect.poll(() => focused(page)).toEqual({ tag: 'INPUT', name: 'rgn_nm', id: 'rgn_nm' });
    expect(new URL(page.url()).pathname).toBe('/sms/master/religion/create');
    expect(writes).toEqual([]);
  });

  it('creates a religion, lists it, and finds it with the quick search (server side)', async () => {
    const { page } = env;
    await typeInto(page.locator('#rgn_nm'), NAME);
    await page.getByTestId('btn-save').click();
    await toast(page, 'RELIGION Created Successfully.').waitFor();
    await page.waitForURL((u) => u.pathname === RELIGION_TABLE);
    await rowByName(page, NAME).waitFor();
    expect(await cellOf(rowByName(page, NAME), 'rgn_desc').textContent()).toBe(FIRST_DESC);
    expect(writes.filter((w) => w.startsWith('POST'))).toHaveLength(1);

    const search = page.getByTestId('grid-search');
    const asked = page.waitForResponse((r) => {
      const u = new URL(r.url());
      return u.pathname === '/api/religion/' && u.searchParams.get('q') === 'zoroas';
    });
    await typeInto(search, 'zoroas'); // partial and lower case
    const answer = (await (await asked).json()) as { rows: { rgn_nm: string }[]; total: number };
    expect(answer.rows.map((r) => r.rgn_nm)).toEqual([NAME]);
    await expect.poll(() => gridNames(page)).toEqual([NAME]);
    expect(new URL(page.url()).searchParams.get('q')).toBe('zoroas');

    const none = page.waitForResponse((r) => new URL(r.url()).searchParams.get('q') === 'qqxzv-no-such-faith');
    await typeInto(search, 'qqxzv-no-such-faith');
    expect(((await (await none).json()) as { total: number }).total).toBe(0);
    await expect.poll(() => rows(page).count()).toBe(0);
    await grid(page).getByText('No Rows To Show').waitFor();

    await page.getByRole('button', { name: 'Clear search' }).click();
    await expect.poll(() => gridNames(page)).toEqual(expect.arrayContaining(['Hindu', NAME]));
    expect(env.problems).toEqual([]);
  });

  it('edits the description of the selected row (and asks for exactly one row first)', async () => {
    const { page } = env;
    await page.getByTestId('btn-edit').click();
    await toast(page, 'Please select the Religion records').waitFor();
    await cellOf(rowByName(page, 'Hindu'), 'rgn_nm').click();
    await cellOf(rowByName(page, NAME), 'rgn_nm').click({ modifiers: ['Control'] });
    await page.getByTestId('btn-edit').click();
    await toast(page, 'Please select exactly one Religion record').waitFor();
    expect(new URL(page.url()).pathname).toBe(RELIGION_TABLE);

    await cellOf(rowByName(page, NAME), 'rgn_nm').click(); // a plain click keeps only this row
    await expect.poll(() => rows(page).and(page.locator('.ag-row-selected')).count()).toBe(1);
    await expect.poll(() => rowByName(page, NAME).getAttribute('class')).toContain('ag-row-selected');
    await page.getByTestId('btn-edit').click();
    await page.waitForURL((u) => /^\/sms\/master\/religion\/update\/\d+$/.test(u.pathname));
    // The form starts from the saved row.
    await expect.poll(() => page.locator('#rgn_nm').inputValue()).toBe(NAME);
    await expect.poll(() => page.locator('#rgn_desc').inputValue()).toBe(FIRST_DESC);
    await typeInto(page.locator('#rgn_desc'), NEW_DESC);
    await page.getByTestId('btn-save').click();
    await toast(page, 'RELIGION Updated Successfully.').waitFor();
    await page.waitForURL((u) => u.pathname === RELIGION_TABLE);
    await expect.poll(() => cellOf(rowByName(page, NAME), 'rgn_desc').textContent()).toBe(NEW_DESC);
    expect(env.problems).toEqual([]);
  });

  it('clones the row: refused under the same name, saved under a new one; both exist', async () => {
    const { page } = env;
    await cellOf(rowByName(page, NAME), 'rgn_nm').click();
    await page.getByTestId('btn-clone').click();
    await page.waitForURL((u) => /^\/sms\/master\/religion\/clone\/\d+$/.test(u.pathname));
    await expect.poll(() => page.locator('#rgn_nm').inputValue()).toBe(NAME);
    expect(await page.locator('#rgn_desc').inputValue()).toBe(NEW_DESC);
    // Saved unchanged, the copy would take a name that is in use: the server refuses and the form says why.
    await page.getByTestId('btn-save').click();
    await page.getByTestId('entity-form').getByText(`Religion Name '${NAME}' already exists.`, { exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/sms\/master\/religion\/clone\/\d+$/);
    // The browser logs the refused request (409) to the console; that one is expected.
    const isConflict = (p: string): boolean => p.includes('status of 409');
    await expect.poll(() => env.problems.filter(isConflict).length).toBe(1);
    env.problems.splice(env.problems.findIndex(isConflict), 1);

    await typeInto(page.locator('#rgn_nm'), CLONE_NAME);
    await page.getByTestId('btn-save').click();
    await toast(page, 'RELIGION Created Successfully.').waitFor();
    await page.waitForURL((u) => u.pathname === RELIGION_TABLE);
    await rowByName(page, CLONE_NAME).waitFor();
    expect(await rowByName(page, NAME).count()).toBe(1);
    expect(await cellOf(rowByName(page, CLONE_NAME), 'rgn_desc').textContent()).toBe(NEW_DESC);
    expect(await cellOf(rowByName(page, CLONE_NAME), 'rgn_cd').textContent()).not.toBe(await cellOf(rowByName(page, NAME), 'rgn_cd').textContent());
    expect(env.problems).toEqual([]);
  });

  it('deletes the clone after the confirm dialog; it stays gone after a refresh and a reload', async () => {
    const { page } = env;
    await cellOf(rowByName(page, CLONE_NAME), 'rgn_nm').click();
    await page.getByTestId('btn-delete').click();
    const dialog = page.getByRole('dialog', { name: 'Delete records' });
    await dialog.getByText('Delete 1 Religion record? This cannot be undone.', { exact: true }).waitFor();
    await dialog.getByTestId('confirm-delete').click();
    await toast(page, '1 Religion record deleted.').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByTestId('btn-refresh').click();
    await expect.poll(() => rowByName(page, CLONE_NAME).count()).toBe(0);
    expect(await rowByName(page, NAME).count()).toBe(1);
    await page.reload();
    await waitForGrid(page);
    expect(await gridNames(page)).toContain(NAME);
    expect(await gridNames(page)).not.toContain(CLONE_NAME);
    expect(env.problems).toEqual([]);
  });

  it('looks right on a desktop and on a phone (screenshots of the table and the create form)', async () => {
    const { page, baseUrl } = env;
    for (const [label, size] of [
      ['desktop', { width: 1366, height: 800 }],
      ['phone', { width: 375, height: 800 }],
    ] as const) {
      await page.setViewportSize(size);
      await page.goto(`${baseUrl}${RELIGION_TABLE}`);
      await waitForGrid(page);
      await page.getByTestId('btn-create').waitFor();
      await page.screenshot({ path: join(SHOTS, `religion-table-${label}.png`) });
      await page.getByTestId('btn-create').click();
      await page.waitForURL((u) => u.pathname === '/sms/master/religion/create');
      await page.locator('#rgn_nm').waitFor();
      await page.screenshot({ path: join(SHOTS, `religion-create-${label}.png`) });
      // Nothing may stick out sideways on a phone: the page scrolls vertically only.
      if (label === 'phone') {
        const overflow = await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth');
        expect(overflow).toBe(0);
      }
    }
    await page.setViewportSize({ width: 1366, height: 800 });
    await page.goto(`${baseUrl}${RELIGION_TABLE}`);
    await waitForGrid(page);
    expect(env.problems).toEqual([]);
  });

  it('exports exactly the selected rows to Excel, with the grid headers and a dated file name', async () => {
    const { page } = env;
    const picked = [NAME, 'Hindu', 'Sikh'];
    const labels = await headerLabels(page);
    expect(labels).toEqual(['Code', 'Religion Name', 'Description']);
    const before = new Date();
    const sheet = await exportSelected(env, picked);
    const after = new Date();

    // 'Religion_DD_MM_YYYY hh:mm:ss A.xlsx'; Chrome may write ':' as '_'.
    const m = /^Religion_(\d{2})_(\d{2})_(\d{4}) (\d{2})[:_](\d{2})[:_](\d{2}) (AM|PM)\.xlsx$/.exec(sheet.fileName);
    expect(m, sheet.fileName).not.toBeNull();
    const dayOf = (d: Date) => `${String(d.getDate()).padStart(2, '0')}_${String(d.getMonth() + 1).padStart(2, '0')}_${d.getFullYear()}`;
    expect([dayOf(before), dayOf(after)]).toContain(`${m?.[1]}_${m?.[2]}_${m?.[3]}`);
    expect(Number(m?.[4])).toBeGreaterThanOrEqual(1);
    expect(Number(m?.[4])).toBeLessThanOrEqual(12);

    expect(sheet.sheetName).toBe('Religion');
    expect(sheet.header).toEqual(labels);
    const nameCol = labels.indexOf('Religion Name');
    expect(sheet.rows).toHaveLength(picked.length);
    expect(sheet.rows.map((r) => r[nameCol]).sort()).toEqual([...picked].sort());
    const ours = sheet.rows.find((r) => r[nameCol] === NAME);
    expect(ours?.[labels.indexOf('Description')]).toBe(NEW_DESC);
    expect(typeof ours?.[labels.indexOf('Code')]).toBe('number');
    expect(env.problems).toEqual([]);
  });

  it('keeps a moved column after Update State and a reload, and Reset State brings the saved order back', async () => {
    const { page } = env;
    expect(await headerOrder(page)).toEqual(['rgn_cd', 'rgn_nm', 'rgn_desc']);
    // The layout buttons are offered only once a column has moved.
    expect(await page.getByRole('button', { name: 'Update State' }).count()).toBe(0);

    await dragHeader(page, 'rgn_desc', 'rgn_cd', 'before');
    const saved = ['rgn_desc', 'rgn_cd', 'rgn_nm'];
    await expect.poll(() => headerOrder(page)).toEqual(saved);
    await page.getByRole('button', { name: 'Update State' }).click();
    await toast(page, 'Column layout saved.').waitFor();
    await page.getByRole('button', { name: 'Update State' }).waitFor({ state: 'detached' });

    await page.reload();
    await waitForGrid(page);
    await expect.poll(() => headerOrder(page)).toEqual(saved);
    // The cells follow their headers: a row now starts with the description.
    expect(await rows(page).first().locator('.ag-cell[aria-colindex="2"]').getAttribute('col-id')).toBe('rgn_desc');

    await dragHeader(page, 'rgn_nm', 'rgn_desc', 'before');
    await expect.poll(() => headerOrder(page)).toEqual(['rgn_nm', 'rgn_desc', 'rgn_cd']);
    await page.getByRole('button', { name: 'Reset State' }).click();
    await expect.poll(() => headerOrder(page)).toEqual(saved);
    await page.getByRole('button', { name: 'Reset State' }).waitFor({ state: 'detached' });

    // The export follows the columns as they stand on screen.
    const sheet = await exportSelected(env, ['Jain', 'Muslim']);
    expect(sheet.header).toEqual(['Description', 'Code', 'Religion Name']);
    expect(sheet.rows.map((r) => r[2]).sort()).toEqual(['Jain', 'Muslim']);
    expect(env.problems).toEqual([]);
  });

  it('shows a view-only teacher the Religion page only, without Create, Edit or Delete', async () => {
    const { page, baseUrl } = env;
    // Set up through the API, as an administrator's tools would: a teacher who may only view religions.
    const admin = await apiLogin(baseUrl, 'ADMIN', ADMIN_PASSWORD);
    const roles = await api<{ rows: { rl_cd: number; rl_nm: string }[] }>(baseUrl, admin, 'GET', '/api/role/?f_rl_nm=TEACHER', { module: 'master', page: 'role' });
    expect(roles.status).toBe(200);
    const teacherRole = roles.json.rows.find((r) => r.rl_nm === 'TEACHER')?.rl_cd;
    expect(teacherRole).toBeTypeOf('number');
    const usrNm = `TEACHER${Date.now().toString(36).toUpperCase()}`;
    const created = await api<{ usr_cd: number }>(baseUrl, admin, 'POST', '/api/employee/', { module: 'employee', page: 'profile' }, {
      usr_nm: usrNm,
      usr_full_nm: 'Meena Teacher',
      usr_typ: teacherRole,
      usr_is_lgn: true,
      usr_pwd: TEACHER_PWD,
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const granted = await api<{ saved: number }>(baseUrl, admin, 'POST', '/api/user_permission/?usrNeedDataChk=0', { module: 'user_permission', page: 'permission' }, [
      {
        usr_prms_usr_cd: created.json.usr_cd,
        usr_prms_mdl: 'master',
        usr_prms_page: 'religion',
        usr_prms_is_alw: 1,
        usr_prms_btns: 'view',
        usr_prms_dscr: 'e2e: view religions only',
      },
    ]);
    expect(granted.status, JSON.stringify(granted.json)).toBe(200);

    await signOutThroughUi(page);
    await signIn(env, usrNm, TEACHER_PWD);
    // One institute with one active year: nothing to choose, straight on to the dashboard, whose menu holds
    // the one group with the one page.
    await page.waitForURL((u) => u.pathname === '/sms/dashboard');
    const nav = page.locator('.mantine-AppShell-navbar');
    await nav.getByRole('button', { name: 'Other Master', exact: true }).click();
    await nav.getByRole('link', { name: 'Religion', exact: true }).click();
    await page.waitForURL((u) => u.pathname === RELIGION_TABLE);
    await waitForGrid(page);

    const menu = page.locator('.mantine-AppShell-navbar');
    await menu.getByRole('link', { name: 'Religion', exact: true }).waitFor();
    expect(await menu.getByRole('link', { name: 'Role', exact: true }).count()).toBe(0);
    for (const other of ['Community', 'Designation', 'Employee', 'Student', 'User Persmissions']) {
      expect(await menu.getByText(other, { exact: true }).count(), other).toBe(0);
    }

    // View is granted and shown; nothing that writes is.
    await page.getByTestId('btn-view').waitFor();
    for (const button of ['btn-create', 'btn-edit', 'btn-delete', 'btn-clone', 'btn-export', 'btn-import']) {
      expect(await page.getByTestId(button).count(), button).toBe(0);
    }
    expect(await gridNames(page)).toContain(NAME);

    await page.goto(`${baseUrl}/sms/master/role/table`);
    await page.waitForURL((u) => u.pathname === '/page_not_autherised', { timeout: 15_000 });
    await page.getByRole('heading', { name: 'Not authorised' }).waitFor();
    // A write mode of the allowed page is refused as well.
    await page.goto(`${baseUrl}/sms/master/religion/create`);
    await page.waitForURL((u) => u.pathname === '/page_not_autherised', { timeout: 15_000 });
    expect(env.problems).toEqual([]);
  });

  it('lets the teacher keep their own profile (phone, password) through My Profile, without the employee page', async () => {
    const { page } = env;
    await page.goto(`${env.baseUrl}${RELIGION_TABLE}`);
    await waitForGrid(page);
    await page.getByRole('button', { name: 'My Profile' }).click();
    await page.getByRole('menuitem', { name: 'My Profile' }).click();
    await page.waitForURL((u) => /^\/sms\/employee\/profile\/update\/\d+$/.test(u.pathname), { timeout: 15_000 });
    await page.getByRole('heading', { name: 'My Profile' }).waitFor();
    // Personal details only: no role, login id or allow-login on this form.
    const phone = page.locator('input[name="usr_ph"]');
    await phone.waitFor();
    expect(await page.locator('[name="usr_typ"], [name="usr_nm"], [name="usr_is_lgn"]').count()).toBe(0);
    await typeInto(phone, '+91 94430 56789');
    await page.getByTestId('btn-save').click();
    await toast(page, 'EMPLOYEE Updated Successfully.').waitFor();
    // Back on the profile's view, with the new number.
    await page.waitForURL((u) => /^\/sms\/employee\/profile\/view\/\d+$/.test(u.pathname), { timeout: 15_000 });
    await page.getByText('+91 94430 56789').waitFor();
    await page.screenshot({ path: join(SHOTS, 'teacher-my-profile.png') });
    // Someone else's profile stays closed.
    await page.goto(`${env.baseUrl}/sms/employee/profile/update/1`);
    await page.waitForURL((u) => u.pathname === '/page_not_autherised', { timeout: 15_000 });
    expect(env.problems).toEqual([]);
  });

  it('signs out to the login page, after which the religion page sends the visitor to sign in', async () => {
    const { page, baseUrl } = env;
    await page.goto(`${baseUrl}${RELIGION_TABLE}`);
    await waitForGrid(page);
    await signOutThroughUi(page);
    await page.locator('input[name="usr_nm"]').waitFor();
    await page.goto(`${baseUrl}${RELIGION_TABLE}`);
    await page.waitForURL((u) => u.pathname === '/login', { timeout: 15_000 });
    await page.locator('input[name="usr_pwd"]').waitFor();
    expect(await rows(page).count()).toBe(0);
    expect(env.problems).toEqual([]);
  });
});
