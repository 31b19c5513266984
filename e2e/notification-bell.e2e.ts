import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localDateTime } from '../apps/server/src/lib/clock';
import { attachRealtime, type Realtime } from '../apps/server/src/realtime';
import { runDailyNotifications } from '../apps/server/src/workflows/notification-rules/notification-rule.service';
import { startTestServer, type TestServer } from '../apps/server/test/test-server';
import { api, apiLogin, type ApiSession } from './api-client';
import { ADMIN_PASSWORD, browserAvailable, CHROMIUM, typeInto } from './browser-harness';

/*
 * The header's bell, as the administrator: two rules are mapped to him and the daily job runs (the same
 * function the 06:00 job runs); the bell shows 2 unread, marking one read lowers it to 1, and a click on the
 * other opens the Class page filtered by the rule (only the class the rule names), marking it read too.
 * Screenshots wide and at 375 px. Its own server rather than startE2e's: the job needs the database handle.
 */

const SHOTS = process.env.SHOTS_DIR ?? '/tmp/shots/notify';
const RULES = { module: 'features', page: 'notification' };
const CLASSES = { module: 'class_section', page: 'class' };
const webDist = join(import.meta.dirname, '../apps/web/dist');

const bell = (page: Page): Locator => page.getByTestId('notification-bell');
const count = (page: Page): Locator => page.getByTestId('notification-count').locator('.mantine-Indicator-indicator');
const items = (page: Page): Locator => page.getByTestId('notification-item');

describe.runIf(browserAvailable())('notification bell: count, mark as read, a click opens the filtered page (Chromium)', () => {
  let srv: TestServer;
  let realtime: Realtime | undefined;
  let context: BrowserContext;
  let page: Page;
  let baseUrl = '';
  let profile = '';
  const problems: string[] = [];
  let admin: ApiSession;
  const tag = `N${Date.now().toString(36).toUpperCase()}`;

  beforeAll(async () => {
    if (!existsSync(join(webDist, 'index.html'))) throw new Error('Build the web app first: npm run build');
    mkdirSync(SHOTS, { recursive: true });
    srv = await startTestServer('pglite', { webDist });
    // The socket server, as main.ts attaches it: the bell must hear updateNotification.
    realtime = await attachRealtime(srv.app, srv.database.db, srv.cfg);
    await srv.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(srv.app.server.address() as AddressInfo).port}`;
    profile = mkdtempSync(join(tmpdir(), 'campus-chromium-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      viewport: { width: 1366, height: 800 },
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    page = context.pages()[0] ?? (await context.newPage());
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));

    admin = await apiLogin(baseUrl, 'ADMIN', ADMIN_PASSWORD);
    for (const nm of [`Class ${tag} Alpha`, `Class ${tag} Beta`]) {
      const made = await api(baseUrl, admin, 'POST', '/api/class/', CLASSES, { cls_nm: nm });
      expect(made.status, JSON.stringify(made.json)).toBe(201);
    }
    const rule = async (cd: string, nm: string, where: unknown[]): Promise<number> => {
      const made = await api<{ ntf_id: number }>(baseUrl, admin, 'POST', '/api/notification/', RULES, {
        ntf_cd: `${cd}_${tag}`,
        ntf_nm: nm,
        ntf_qry: { entity: 'class', columns: ['cls_nm'] },
        ntf_qry_whr_clmn: where,
      });
      expect(made.status, JSON.stringify(made.json)).toBe(201);
      return made.json.ntf_id;
    };
    const alpha = await rule('ALPHA', `Alpha classes ${tag}`, [{ field: 'cls_nm', op: 'contains', value: `${tag} Alpha` }]);
    const all = await rule('ALL', `All new classes ${tag}`, [{ field: 'cls_nm', op: 'contains', value: tag }]);
    const mapped = await api(baseUrl, admin, 'POST', '/api/notification/mapping/', RULES, [
      { ntf_id: alpha, ntf_mapp_usr_cd: admin.usrCd, ntf_mapp_day: 'Every day', ntf_mapp_odr: 1 },
      { ntf_id: all, ntf_mapp_usr_cd: admin.usrCd, ntf_mapp_day: 'Every day', ntf_mapp_odr: 2 },
    ]);
    expect(mapped.status, JSON.stringify(mapped.json)).toBe(200);
    const run = await runDailyNotifications(srv.database.db, srv.app.realtimeEvents, localDateTime().date);
    expect(run.stored).toBe(2);
  });

  afterAll(async () => {
    await context?.close();
    realtime?.disconnectAll();
    await srv?.close();
    await realtime?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  it('shows the unread count, lowers it when one is marked read, and opens the rule filtered', async () => {
    await page.goto(`${baseUrl}/login`);
    await typeInto(page.locator('input[name="usr_nm"]'), 'ADMIN');
    await typeInto(page.locator('input[name="usr_pwd"]'), ADMIN_PASSWORD);
    await page.locator('input[name="usr_pwd"]').press('Enter');
    await page.waitForURL((u) => !u.pathname.startsWith('/login'), { timeout: 15_000 });

    // The landing page has no header bell: the signed-in shell (dashboard) has.
    await page.goto(`${baseUrl}/sms/dashboard`);
    await expect.poll(() => count(page).textContent(), { timeout: 15_000 }).toBe('2');
    await bell(page).click();
    await expect.poll(() => items(page).count()).toBe(2);
    const texts = await items(page).allTextContents();
    expect(texts.some((x) => x.includes(`Alpha classes ${tag}`) && x.includes('Records: 1'))).toBe(true);
    expect(texts.some((x) => x.includes(`All new classes ${tag}`) && x.includes('Records: 2'))).toBe(true);
    await page.waitForTimeout(400);
    await page.screenshot({ path: join(SHOTS, 'bell-open-wide.png') });

    // Mark 'All new classes' read with its own button: the count drops to 1.
    const allItem = items(page).filter({ hasText: `All new classes ${tag}` });
    await allItem.getByTestId('notification-mark-read').click();
    await expect.poll(() => count(page).textContent()).toBe('1');
    await expect.poll(() => allItem.getAttribute('data-read')).toBe('1');

    // A click on 'Alpha classes' opens the Class page with the rule's filter: only the Alpha class.
    await items(page).filter({ hasText: `Alpha classes ${tag}` }).getByRole('button', { name: `Alpha classes ${tag}` }).click();
    await page.waitForURL((u) => u.pathname === '/sms/class_section/class/table' && u.searchParams.has('rule'), { timeout: 15_000 });
    await expect.poll(() => page.getByTestId('grid-rule-filter').textContent()).toContain(`Alpha classes ${tag}`);
    const names = page.getByTestId('entity-grid').locator('.ag-row[row-index] .ag-cell[col-id="cls_nm"]');
    await expect.poll(() => names.allTextContents(), { timeout: 15_000 }).toEqual([`Class ${tag} Alpha`]);
    // Opening it read it: nothing unread is left, so the badge is gone.
    await expect.poll(() => count(page).count()).toBe(0);
    await page.screenshot({ path: join(SHOTS, 'filtered-page-wide.png') });

    // The next day's run reaches the open page through the socket (updateNotification): no reload, no focus.
    const next = new Date(`${localDateTime().date}T00:00:00Z`);
    next.setUTCDate(next.getUTCDate() + 1);
    const again = await runDailyNotifications(srv.database.db, srv.app.realtimeEvents, next.toISOString().slice(0, 10));
    expect(again.stored).toBe(2);
    await expect.poll(() => count(page).textContent(), { timeout: 15_000 }).toBe('2');

    // Narrow: the bell and its list fit a 375 px phone.
    await page.setViewportSize({ width: 375, height: 740 });
    await bell(page).click();
    await expect.poll(() => items(page).count()).toBe(4);
    const box = await page.getByTestId('notification-list').boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 375).toBe(true);
    // After the dropdown's opening transition.
    await page.waitForTimeout(400);
    await page.screenshot({ path: join(SHOTS, 'bell-open-375.png') });
    expect(problems).toEqual([]);
  });

  it('builds a rule by choosing (entity, field, operator, value), previews it and saves it: no JSON typed', async () => {
    await page.setViewportSize({ width: 1366, height: 800 });
    await page.goto(`${baseUrl}/sms/features/notification/create`);
    const editor = page.getByTestId('notification-rule-editor');
    await editor.waitFor({ timeout: 15_000 });
    await typeInto(page.locator('input#ntf_cd'), `UI_${tag}`);
    await typeInto(page.locator('input#ntf_nm'), `Beta classes ${tag}`);
    await typeInto(page.locator('input#ntf_entity'), 'Class');
    await page.getByRole('option', { name: 'Class', exact: true }).click();
    await page.getByRole('button', { name: 'Add condition' }).click();
    const cond = page.getByTestId('rule-condition').first();
    await cond.getByLabel('Field').click();
    await page.getByRole('option', { name: 'Class Name', exact: true }).click();
    await cond.getByLabel('Operator').click();
    await page.getByRole('option', { name: 'contains', exact: true }).click();
    await typeInto(cond.getByLabel('Value'), `${tag} Beta`);
    await page.getByTestId('rule-preview').click();
    await expect.poll(() => editor.textContent()).toContain('Records: 1');
    await page.screenshot({ path: join(SHOTS, 'rule-editor-wide.png'), fullPage: true });
    await page.getByTestId('rule-save').click();
    await page.waitForURL((u) => u.pathname.startsWith('/sms/features/notification/update/'), { timeout: 15_000 });
    await page.getByTestId('rule-recipients').waitFor();
    const saved = await api<{ rows: { ntf_qry: unknown; ntf_qry_whr_clmn: unknown }[] }>(baseUrl, admin, 'GET', `/api/notification/?f_ntf_cd=UI_${tag}`, RULES);
    expect(saved.json.rows).toHaveLength(1);
    expect(saved.json.rows[0].ntf_qry).toEqual({ entity: 'class', columns: [] });
    expect(saved.json.rows[0].ntf_qry_whr_clmn).toEqual([{ field: 'cls_nm', op: 'contains', value: `${tag} Beta` }]);
    await page.setViewportSize({ width: 375, height: 740 });
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(SHOTS, 'rule-editor-375.png'), fullPage: true });
    expect(problems).toEqual([]);
  });
});
