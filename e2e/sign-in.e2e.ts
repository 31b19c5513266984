import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, signIn, startE2e, typeInto, type E2eEnv } from './browser-harness';

describe.runIf(browserAvailable())('sign-in (Chromium)', () => {
  let env: E2eEnv;
  beforeAll(async () => {
    env = await startE2e();
  });
  afterAll(async () => env?.close());

  it('refuses a wrong password with a clear message and stays on the login page', async () => {
    const { page, baseUrl } = env;
    await page.goto(`${baseUrl}/login`);
    await typeInto(page.locator('input[name="usr_nm"]'), 'ADMIN');
    await typeInto(page.locator('input[name="usr_pwd"]'), 'not-the-password');
    await page.locator('button[type="submit"]').click();
    await expect.poll(() => page.getByText('Invalid login id or password.').count()).toBeGreaterThan(0);
    expect(new URL(page.url()).pathname).toBe('/login');
  });

  it('signs in, opens a master page from the menu, and signs out', async () => {
    const { page, baseUrl } = env;
    env.problems.length = 0; // the refused sign-in above logs its 401 on purpose
    await signIn(env);
    await page.goto(`${baseUrl}/sms/master/religion/table`);
    await page.locator('.ag-row[row-index="0"]').waitFor({ timeout: 15_000 });
    expect(await page.locator('.ag-row').count()).toBeGreaterThan(0);
    expect(await page.getByText('Hindu', { exact: true }).count()).toBeGreaterThan(0);
    expect(env.problems).toEqual([]);
  });
});
