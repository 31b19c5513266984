import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiLogin, type ApiSession } from './api-client';
import { ADMIN_PASSWORD, browserAvailable, signIn, startE2e, type E2eEnv } from './browser-harness';

/*
 * Issue 11: the permission editor offers 'His students only' only where the page can be limited to a teacher's
 * own students. On Religion the box is greyed out and says why on hover; on Student Profile it can be ticked,
 * and what is saved is exactly that: the flag on Student Profile, none on Religion.
 */
const SHOTS = mkdtempSync(join(tmpdir(), 'campus-permission-shots-'));
const PERMISSIONS = { module: 'user_permission', page: 'permission' };

interface StoredRow {
  usr_prms_mdl: string;
  usr_prms_page: string;
  usr_prms_is_alw: boolean;
  usr_need_data_chk: boolean;
}

describe.skipIf(!browserAvailable())("the permission editor's 'His students only' (Chromium)", () => {
  let env: E2eEnv;
  let admin: ApiSession;
  let usrCd = 0;

  beforeAll(async () => {
    env = await startE2e();
    admin = await apiLogin(env.baseUrl, 'ADMIN', ADMIN_PASSWORD);
    const roles = await api<{ rows: { rl_cd: number }[] }>(env.baseUrl, admin, 'GET', '/api/role/?f_rl_nm=TEACHER', { module: 'master', page: 'role' });
    const made = await api<{ usr_cd: number }>(env.baseUrl, admin, 'POST', '/api/employee/', { module: 'employee', page: 'profile' }, {
      usr_nm: `PE${Date.now().toString(36).toUpperCase()}`,
      usr_full_nm: 'Kavitha Raman',
      usr_typ: roles.json.rows[0].rl_cd,
    });
    expect(made.status, JSON.stringify(made.json)).toBe(201);
    usrCd = made.json.usr_cd;
  }, 240_000);
  afterAll(async () => env?.close());

  it('greys the box out on Religion with the reason, lets it be ticked on Student Profile, and saves just that', async () => {
    const { page, baseUrl } = env;
    await signIn(env, 'ADMIN', ADMIN_PASSWORD);
    await page.goto(`${baseUrl}/sms/user_permission/permission/create?usr_cd=${usrCd}`);
    const religionOwn = page.getByRole('checkbox', { name: 'Religion: His students only' });
    const studentOwn = page.getByRole('checkbox', { name: 'Student Profile: His students only' });
    await religionOwn.waitFor({ timeout: 20_000 });
    expect(await religionOwn.isDisabled()).toBe(true);
    expect(await studentOwn.isDisabled()).toBe(false);

    // Hovering the greyed-out box tells why.
    await page.locator('[data-own-only="master/religion"]').hover();
    await page.getByText('The rows of Religion belong to no particular student').waitFor({ timeout: 10_000 });
    await page.screenshot({ path: join(SHOTS, 'permission-editor-desktop.png'), fullPage: false });

    await page.getByRole('checkbox', { name: 'Religion', exact: true }).click();
    await page.getByRole('checkbox', { name: 'Student Profile', exact: true }).click();
    await studentOwn.click();
    expect(await studentOwn.isChecked()).toBe(true);
    await page.setViewportSize({ width: 390, height: 844 });
    await studentOwn.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'permission-editor-390.png'), fullPage: false });
    await page.setViewportSize({ width: 1366, height: 800 });

    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL((u) => u.pathname === '/sms/user_permission/permission/table', { timeout: 15_000 });
    const stored = await api<StoredRow[]>(baseUrl, admin, 'GET', `/api/user_permission/?usr_prms_usr_cd=${usrCd}`, PERMISSIONS);
    const byPage = Object.fromEntries(stored.json.map((r) => [`${r.usr_prms_mdl}/${r.usr_prms_page}`, r]));
    expect(byPage['master/religion']).toMatchObject({ usr_prms_is_alw: true, usr_need_data_chk: false });
    expect(byPage['student/profile']).toMatchObject({ usr_prms_is_alw: true, usr_need_data_chk: true });
    expect(env.problems).toEqual([]);
    console.log(`permission editor screenshots: ${SHOTS}`);
  });
});
