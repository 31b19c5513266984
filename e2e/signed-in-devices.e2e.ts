import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiLogin, type ApiSession } from './api-client';
import { ADMIN_PASSWORD, browserAvailable, signIn, startE2e, type E2eEnv } from './browser-harness';

/*
 * Signed-in devices (issue 11): ADMIN, signed in on this browser and on a phone, opens My Profile, sees both
 * (this one marked), ends the phone's session after confirming, and the phone is signed out at once.
 */

const SHOTS = mkdtempSync(join(tmpdir(), 'campus-sessions-shots-'));
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}-1366.png`), fullPage: true });
  await page.setViewportSize({ width: 390, height: 800 });
  await page.screenshot({ path: join(SHOTS, `${name}-390.png`), fullPage: true });
  await page.setViewportSize({ width: 1366, height: 800 });
}

describe.runIf(browserAvailable())('Signed-in devices on My Profile (Chromium)', () => {
  let env: E2eEnv;
  let phone: ApiSession;
  beforeAll(async () => {
    env = await startE2e();
    phone = await apiLogin(env.baseUrl, 'ADMIN', ADMIN_PASSWORD, IPHONE);
  });
  afterAll(async () => env?.close());

  it('lists this browser and the phone, and ends the phone’s session after a confirmation', async () => {
    const { page } = env;
    console.log(`sessions screenshots: ${SHOTS}`);
    await signIn(env);
    await page.getByRole('button', { name: 'My Profile' }).click();
    await page.getByRole('menuitem', { name: 'My Profile' }).click();
    const card = page.getByTestId('signed-in-devices');
    await card.getByRole('heading', { name: 'Signed-in devices' }).waitFor({ timeout: 15_000 });
    const rows = card.getByTestId('session-row');
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(2);
    const mine = rows.filter({ has: page.getByTestId('this-device') });
    expect(await mine.count()).toBe(1);
    await expect.poll(() => mine.innerText()).toMatch(/Chrome on Linux/);
    const phoneRow = rows.filter({ hasText: 'Safari on iPhone' });
    expect(await phoneRow.count()).toBe(1);
    expect(await phoneRow.innerText()).toContain('127.0.0.1');
    // This browser's own row offers no End: Logout is for that.
    expect(await mine.getByRole('button').count()).toBe(0);
    await shoot(page, 'devices');
    expect((await api(env.baseUrl, phone, 'GET', '/api/employee/sessions/', { module: 'employee', page: 'profile' })).status).toBe(200);

    await phoneRow.getByRole('button', { name: 'End Safari on iPhone' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Safari on iPhone (127.0.0.1) will be signed out at once.').waitFor({ timeout: 15_000 });
    await shoot(page, 'confirm');
    await dialog.getByRole('button', { name: 'End' }).press('Enter');
    await page.getByText('That device is signed out.').first().waitFor({ timeout: 15_000 });
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(1);
    expect((await api(env.baseUrl, phone, 'GET', '/api/employee/sessions/', { module: 'employee', page: 'profile' })).status).toBe(401);
    expect(env.problems).toEqual([]);
  });
});
