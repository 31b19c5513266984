import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffAccount, STAFF_PASSWORD } from '../apps/server/test/staff-account';
import { login } from '../apps/server/test/test-server';
import { ADMIN_PASSWORD, browserAvailable, startE2e, typeInto, type E2eEnv, type E2ePerson } from './browser-harness';

/*
 * Issue 12's journey: ADMIN, in one browser, sends a direct message to a TEACHER signed in in another (two
 * browser contexts, two people). The teacher's open page shows it as a toast; ADMIN's page does not. The
 * server is the harness's real one with its socket server attached (as main.ts does), on the built web app.
 */

const SHOTS = process.env.SHOTS_DIR ?? '/tmp/shots/messaging';
const MESSAGE = 'Please collect the exam papers from the office at 11.';

describe.runIf(browserAvailable())('direct message between two signed-in staff (browser)', () => {
  let env: E2eEnv;
  let baseUrl: string;
  let teacherLogin: string;
  let teacherName: string;

  const signIn = async ({ page }: E2ePerson, usr: string, pwd: string) => {
    await page.goto(`${baseUrl}/login`);
    await typeInto(page.locator('input[name="usr_nm"]'), usr);
    await typeInto(page.locator('input[name="usr_pwd"]'), pwd);
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => !u.pathname.startsWith('/login'), { timeout: 20_000 });
    // ADMIN works in two institutes and lands on the choice of pages: open the dashboard (home institute).
    if (new URL(page.url()).pathname === '/landing') await page.goto(`${baseUrl}/sms/dashboard`);
    await page.getByTestId('message-compose').waitFor({ timeout: 20_000 });
  };

  beforeAll(async () => {
    env = await startE2e();
    baseUrl = env.baseUrl;
    const admin = await login(env.app);
    const t = await staffAccount(env.app, admin, { 'institute/circular': 'view' }, false, 'TCH');
    teacherLogin = t.session.usr_nm;
    teacherName = `Teacher ${teacherLogin}`;
    mkdirSync(SHOTS, { recursive: true });
  });
  afterAll(async () => {
    await env?.close();
  });

  it("ADMIN sends a message; the TEACHER's open page shows it as a toast, ADMIN's does not", async () => {
    const teacher = await env.newPerson();
    const admin: E2ePerson = { context: env.context, page: env.page, problems: env.problems };
    await signIn(teacher, teacherLogin, STAFF_PASSWORD);
    await signIn(admin, 'ADMIN', ADMIN_PASSWORD);
    // Both pages hold their socket before the message goes.
    await expect.poll(() => env.realtime.io?.of('/').sockets.size, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);

    await admin.page.getByTestId('message-compose').click();
    const to = admin.page.getByTestId('message-to');
    await typeInto(to, teacherLogin.slice(0, 6));
    const option = admin.page.getByRole('option', { name: teacherName });
    await option.waitFor({ timeout: 10_000 });
    await admin.page.screenshot({ path: join(SHOTS, 'compose-pick.png') });
    await option.click();
    await expect.poll(() => to.inputValue()).toBe(teacherName);
    const text = admin.page.getByTestId('message-text');
    await text.click();
    await text.pressSequentially(MESSAGE, { delay: 5 });
    await admin.page.screenshot({ path: join(SHOTS, 'compose-typed.png') });
    await text.press('Enter');

    // The sender is told it reached an open page; the dialog closes.
    await admin.page.getByText(`Message sent to ${teacherName}.`).waitFor({ timeout: 10_000 });
    await expect.poll(() => admin.page.getByTestId('message-text').count()).toBe(0);

    const toast = teacher.page.getByText(MESSAGE);
    await toast.waitFor({ timeout: 10_000 });
    await teacher.page.screenshot({ path: join(SHOTS, 'teacher-toast.png') });
    // From whom: the toast's title names the sender.
    expect(await teacher.page.locator('.mantine-Notification-root', { hasText: MESSAGE }).innerText()).toContain('Administrator');
    expect(await admin.page.getByText(MESSAGE).count()).toBe(0);

    // The teacher's message dialog keeps it under 'Recent messages', from Administrator.
    await teacher.page.getByTestId('message-compose').click();
    const recent = teacher.page.getByTestId('message-recent');
    await recent.getByText(MESSAGE).waitFor({ timeout: 10_000 });
    expect(await recent.innerText()).toContain('From Administrator');
    await teacher.page.screenshot({ path: join(SHOTS, 'teacher-recent.png') });
    await teacher.page.keyboard.press('Escape');

    // On a phone the dialog takes the whole screen.
    await admin.page.setViewportSize({ width: 375, height: 740 });
    await admin.page.getByTestId('message-compose').click();
    await admin.page.getByTestId('message-text').waitFor();
    await admin.page.screenshot({ path: join(SHOTS, 'compose-375.png') });
    await admin.page.keyboard.press('Escape');

    expect(teacher.problems).toEqual([]);
    expect(admin.problems).toEqual([]);
  });
});
