import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../apps/server/src/db/client';
import { startTestServer, type TestServer } from '../apps/server/test/test-server';
import { api, apiLogin, type ApiSession } from './api-client';
import { ADMIN_PASSWORD, browserAvailable, CHROMIUM, typeInto } from './browser-harness';

/*
 * The rule editor's 'Who gets it': on a server without SMTP_URL the E-mail switch of a recipient can still
 * be turned on (saved through the mapping POST); the editor says e-mail is not set up, and that the
 * employee has no address on record. Screenshots wide and at 375 px.
 */

const SHOTS = process.env.SHOTS_DIR ?? '/tmp/shots/rulemail';
const RULES = { module: 'features', page: 'notification' };
const webDist = join(import.meta.dirname, '../apps/web/dist');

describe.runIf(browserAvailable())('notification rule editor: e-mail per recipient (Chromium)', () => {
  let srv: TestServer;
  let context: BrowserContext;
  let page: Page;
  let baseUrl = '';
  let profile = '';
  const problems: string[] = [];
  let admin: ApiSession;
  let ntfId = 0;
  const tag = `E${Date.now().toString(36).toUpperCase()}`;

  beforeAll(async () => {
    if (!existsSync(join(webDist, 'index.html'))) throw new Error('Build the web app first: npm run build');
    mkdirSync(SHOTS, { recursive: true });
    srv = await startTestServer('pglite', { webDist, smtpUrl: undefined });
    await srv.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(srv.app.server.address() as AddressInfo).port}`;
    profile = mkdtempSync(join(tmpdir(), 'campus-chromium-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      viewport: { width: 1366, height: 900 },
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    page = context.pages()[0] ?? (await context.newPage());
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));

    admin = await apiLogin(baseUrl, 'ADMIN', ADMIN_PASSWORD);
    await srv.database.db.execute(sql`UPDATE employee SET usr_eml = NULL WHERE usr_cd = ${admin.usrCd}`);
    const made = await api<{ ntf_id: number }>(baseUrl, admin, 'POST', '/api/notification/', RULES, {
      ntf_cd: `MAIL_${tag}`,
      ntf_nm: `Classes ${tag}`,
      ntf_qry: { entity: 'class', columns: ['cls_nm'] },
    });
    expect(made.status, JSON.stringify(made.json)).toBe(201);
    ntfId = made.json.ntf_id;
    const mapped = await api(baseUrl, admin, 'POST', '/api/notification/mapping/', RULES, { ntf_id: ntfId, ntf_mapp_usr_cd: admin.usrCd, ntf_mapp_day: 'Every day' });
    expect(mapped.status, JSON.stringify(mapped.json)).toBe(200);
  });

  afterAll(async () => {
    await context?.close();
    await srv?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  it('turns e-mail on for a recipient, and says why nothing will be sent', async () => {
    await page.goto(`${baseUrl}/login`);
    await typeInto(page.locator('input[name="usr_nm"]'), 'ADMIN');
    await typeInto(page.locator('input[name="usr_pwd"]'), ADMIN_PASSWORD);
    await page.locator('input[name="usr_pwd"]').press('Enter');
    await page.waitForURL((u) => !u.pathname.startsWith('/login'));
    await page.goto(`${baseUrl}/sms/features/notification/update/${ntfId}`);
    const recipient = page.getByTestId('rule-recipient');
    await expect.poll(() => recipient.count(), { timeout: 20_000 }).toBe(1);
    await expect.poll(() => page.getByTestId('rule-mail-disabled').textContent(), { timeout: 10_000 }).toContain('SMTP_URL is not configured');
    const sw = recipient.getByTestId('rule-recipient-email');
    expect(await sw.isChecked()).toBe(false);
    await sw.click();
    await expect.poll(() => recipient.getByText('No e-mail address on record', { exact: false }).count(), { timeout: 10_000 }).toBe(1);
    expect(await sw.isChecked()).toBe(true);
    const listed = await api<{ rows: { ntf_mapp_eml: boolean; usr_has_eml: boolean }[] }>(baseUrl, admin, 'GET', `/api/notification/mapping/?ntf_id=${ntfId}`, RULES);
    expect(listed.json.rows).toEqual([expect.objectContaining({ ntf_mapp_eml: true, usr_has_eml: false })]);
    await page.getByTestId('rule-recipients').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'rule-recipients-email.png'), fullPage: true });
    await page.setViewportSize({ width: 375, height: 800 });
    await page.getByTestId('rule-recipients').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'rule-recipients-email-375.png'), fullPage: true });
    expect(problems).toEqual([]);
  });
});
