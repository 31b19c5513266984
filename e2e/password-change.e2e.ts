import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiLogin, type ApiSession } from './api-client';
import { ADMIN_PASSWORD, browserAvailable, signIn, startE2e, typeInto, type E2eEnv } from './browser-harness';

/*
 * Passwords as staff meet them (issue 11): ADMIN changes their own password from the menu under their name,
 * giving the current one; a common password is refused with a sentence. Then ADMIN resets a teacher's
 * password, and the teacher, signing in with it, is asked for a new one before getting in.
 */

const SHOTS = mkdtempSync(join(tmpdir(), 'campus-password-shots-'));
const EMPLOYEES = { module: 'employee', page: 'profile' };
const NEW_ADMIN_PASSWORD = 'Admin-Chose-This-2026';

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}-1366.png`) });
  await page.setViewportSize({ width: 390, height: 800 });
  await page.screenshot({ path: join(SHOTS, `${name}-390.png`) });
  await page.setViewportSize({ width: 1366, height: 800 });
}

async function signOutThroughUi(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'My Profile' }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await page.waitForURL((u) => u.pathname === '/login', { timeout: 15_000 });
}

describe.runIf(browserAvailable())('Change Password and a reset changed at sign-in (Chromium)', () => {
  let env: E2eEnv;
  let admin: ApiSession;
  beforeAll(async () => {
    env = await startE2e();
    admin = await apiLogin(env.baseUrl, 'ADMIN', ADMIN_PASSWORD);
  });
  afterAll(async () => env?.close());

  it('changes ADMIN’s own password with the current one, refusing a common one', async () => {
    const { page } = env;
    console.log(`password screenshots: ${SHOTS}`);
    await signIn(env);
    await page.getByRole('button', { name: 'My Profile' }).click();
    await page.getByRole('menuitem', { name: 'Change Password' }).click();
    const dialog = page.getByRole('dialog');
    await typeInto(dialog.locator('input[name="usr_pwd_current"]'), ADMIN_PASSWORD);
    await typeInto(dialog.locator('input[name="usr_pwd"]'), 'qwertyuiop');
    await typeInto(dialog.locator('input[name="usr_pwd_repeat"]'), 'qwertyuiop');
    await dialog.locator('input[name="usr_pwd_repeat"]').press('Enter');
    await dialog.getByText('This password is one of the 10,000 most common passwords. Please choose another.').waitFor({ timeout: 15_000 });
    await shoot(page, 'common-refused');
    env.problems.length = 0; // the refusal's 400 is logged on purpose

    await typeInto(dialog.locator('input[name="usr_pwd"]'), NEW_ADMIN_PASSWORD);
    await typeInto(dialog.locator('input[name="usr_pwd_repeat"]'), NEW_ADMIN_PASSWORD);
    await dialog.getByTestId('change-password-ok').click();
    await page.getByText('Your password is changed. Your other sessions have ended.').first().waitFor({ timeout: 15_000 });
    await dialog.waitFor({ state: 'hidden' });
    // The session that changed it goes on; the API session signed in before has ended.
    expect((await api(env.baseUrl, admin, 'GET', '/api/employee/', EMPLOYEES)).status).toBe(401);
    admin = await apiLogin(env.baseUrl, 'ADMIN', NEW_ADMIN_PASSWORD);
    // My Profile's form no longer offers the password.
    await page.getByRole('button', { name: 'My Profile' }).click();
    await page.getByRole('menuitem', { name: 'My Profile' }).click();
    await page.locator('input[name="usr_full_nm"]').waitFor({ timeout: 15_000 });
    expect(await page.locator('input[name="usr_pwd"]').count()).toBe(0);
    expect(env.problems).toEqual([]);
  });

  it('asks a teacher whose password ADMIN reset for a new one at sign-in', async () => {
    const { page } = env;
    const roles = await api<{ rows: { rl_cd: number }[] }>(env.baseUrl, admin, 'GET', '/api/role/?f_rl_nm=TEACHER', { module: 'master', page: 'role' });
    const made = await api<{ usr_cd: number; row_ver: number }>(env.baseUrl, admin, 'POST', '/api/employee/', EMPLOYEES, {
      usr_nm: 'RESETME',
      usr_full_nm: 'Reset Teacher',
      usr_typ: roles.json.rows[0].rl_cd,
      usr_is_lgn: true,
      usr_pwd: 'First-Teacher-Pass-1',
    });
    expect(made.status).toBe(201);
    const reset = await api(env.baseUrl, admin, 'PUT', `/api/employee/${made.json.usr_cd}`, EMPLOYEES, { usr_pwd: 'Given-By-Admin-77', row_ver: made.json.row_ver });
    expect(reset.status).toBe(200);

    await signOutThroughUi(page);
    await typeInto(page.locator('input[name="usr_nm"]'), 'RESETME');
    await typeInto(page.locator('input[name="usr_pwd"]'), 'Given-By-Admin-77');
    await page.locator('input[name="usr_pwd"]').press('Enter');
    await page.getByText('An administrator has reset your password. Please choose a new one to sign in.').waitFor({ timeout: 15_000 });
    const fresh = page.locator('input[name="usr_pwd_new"]');
    await fresh.waitFor();
    await shoot(page, 'reset-asks-new');
    env.problems.length = 0; // the 403 that asks is logged on purpose
    await typeInto(fresh, 'Teacher-Chose-2026');
    await fresh.press('Enter');
    await page.waitForURL((u) => !u.pathname.startsWith('/login'), { timeout: 15_000 });
    expect(env.problems).toEqual([]);
    // The next sign-in is an ordinary one, with the password the teacher chose.
    expect((await apiLogin(env.baseUrl, 'RESETME', 'Teacher-Chose-2026')).usrNm).toBe('RESETME');
  });
});
