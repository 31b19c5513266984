import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../apps/server/src/db/client';
import { startSmtp, type TestSmtp } from '../apps/server/test/messaging-fixture';
import { makeFixture, type Fixture } from '../apps/server/test/student-workflow-fixture';
import { call, type TestServer } from '../apps/server/test/test-server';
import { ADMIN_PASSWORD, browserAvailable, startE2e, typeInto, type E2eEnv } from './browser-harness';

/*
 * Features > Mobile Notification: the office sends a drafted message to the parents of a class with 'Send to
 * Parents' (row selected, class picked in the dialog); the job e-mails each family through a real SMTP server
 * in this process, the row's Recipients, Status and Delivery columns fill in, and the sender hears the result.
 */

const SHOTS = process.env.SHOTS_DIR ?? '/tmp/shots/messaging';

describe.runIf(browserAvailable())('mobile notification to the parents of a class (browser)', () => {
  let env: E2eEnv;
  let srv: TestServer;
  let smtp: TestSmtp;
  let fx: Fixture;
  let baseUrl: string;
  let page: Page;
  let problems: string[];

  beforeAll(async () => {
    smtp = await startSmtp();
    env = await startE2e({ server: { smtpUrl: smtp.url } });
    ({ srv, baseUrl, page, problems } = env);
    // The queue's workers, as main.ts starts them: the dialogs' queued jobs run in this process.
    await env.app.jobs.start();
    fx = await makeFixture(srv);
    for (const [i, s] of [...fx.studA, ...fx.studB].entries()) {
      await srv.database.db.execute(sql`UPDATE student SET stud_eml = ${`family${i}@home.example`} WHERE stud_cd = ${s}`);
    }
    const made = await call(srv.app, fx.as(fx.admin, 'features', 'mob_notification'), 'POST', '/api/mob_notification/', {
      mob_ntf_dtl_sub: 'Parents meeting',
      mob_ntf_dtl_msg: 'The parents meeting is on Saturday at 10 am.',
      mob_ntf_dtl_sts: 'Ready',
    });
    expect(made.statusCode, made.body).toBe(201);
    mkdirSync(SHOTS, { recursive: true });
  });
  afterAll(async () => {
    await env?.close();
    await smtp?.close();
  });

  it("sends to a class's families; each gets the e-mail and the row shows the result", async () => {
    await page.goto(`${baseUrl}/login`);
    await typeInto(page.locator('input[name="usr_nm"]'), 'ADMIN');
    await typeInto(page.locator('input[name="usr_pwd"]'), ADMIN_PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => !u.pathname.startsWith('/login'), { timeout: 20_000 });
    await page.goto(`${baseUrl}/sms/features/mob_notification/table`);
    const grid = page.getByTestId('entity-grid');
    const cell = grid.locator('.ag-row[row-index] .ag-cell[col-id="mob_ntf_dtl_sub"]', { hasText: 'Parents meeting' });
    await cell.first().waitFor({ timeout: 20_000 });
    await cell.first().click();
    await page.getByTestId('btn-send_to_parents').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('workflow-confirm').waitFor();
    const clsInput = dialog.getByLabel('Class', { exact: false }).first();
    const clsName = (await call(srv.app, fx.as(fx.admin, 'class_section', 'class'), 'GET', `/api/class/${fx.cls1}`)).json<{ cls_nm: string }>().cls_nm;
    await typeInto(clsInput, clsName.slice(0, 8));
    await page.getByRole('option', { name: clsName }).click();
    await page.screenshot({ path: join(SHOTS, 'send-to-parents-dialog.png') });
    await dialog.getByTestId('workflow-ok').click();

    // The job's result reaches the sender's page.
    await page.getByText("'Parents meeting' reached 4 of 4 families.").waitFor({ timeout: 30_000 });
    expect(smtp.received.filter((m) => m.subject === 'Parents meeting').map((m) => m.to).sort()).toEqual([
      'family0@home.example',
      'family1@home.example',
      'family2@home.example',
      'family3@home.example',
    ]);
    await page.getByTestId('btn-refresh').click();
    await grid.locator('.ag-cell[col-id="mob_ntf_dtl_dlv"]', { hasText: '4 families: 4 sent' }).first().waitFor({ timeout: 20_000 });
    await page.screenshot({ path: join(SHOTS, 'mob-notification-sent.png') });
    expect(problems).toEqual([]);
  });

  it('e-mails a circular to the staff on record from the circular page', async () => {
    const made = await call(srv.app, fx.as(fx.admin, 'institute', 'circular'), 'POST', '/api/circular/', {
      crlr_sub: 'Staff meeting on Monday',
      crlr_dscr: 'All staff meet in the library at 3.45 pm.',
      crlr_dt: '2026-11-20',
    });
    expect(made.statusCode, made.body).toBe(201);
    await page.goto(`${baseUrl}/sms/institute/circular/table`);
    const grid = page.getByTestId('entity-grid');
    const cell = grid.locator('.ag-row[row-index] .ag-cell[col-id="crlr_sub"]', { hasText: 'Staff meeting on Monday' });
    await cell.first().waitFor({ timeout: 20_000 });
    await cell.first().click();
    await page.getByTestId('btn-send_mail').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('workflow-confirm').waitFor();
    await page.screenshot({ path: join(SHOTS, 'circular-send-mail-dialog.png') });
    await dialog.getByTestId('workflow-ok').click();
    // The seed's administrator is the one staff member with an e-mail on record.
    await page.getByText("Circular 'Staff meeting on Monday' was e-mailed to 1.").waitFor({ timeout: 30_000 });
    const mail = smtp.received.find((m) => m.subject === 'Staff meeting on Monday');
    expect(mail?.to).toBe('admin@sunrise-school.example');
    expect(mail?.text).toContain('All staff meet in the library at 3.45 pm.');
    expect(problems).toEqual([]);
  });
});
