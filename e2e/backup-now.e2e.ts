import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, signIn, startE2e, type E2eEnv } from './browser-harness';

/*
 * Issue 12: ADMIN opens Other Master > Backup, chooses the demo's 'daily' backup, presses 'Back up now' and
 * sees the new run listed with its size and result; the Background jobs page lists the run as done.
 */

const SHOTS = process.env.SHOTS_DIR ?? mkdtempSync(join(tmpdir(), 'campus-backup-shots-'));

describe.runIf(browserAvailable())("'Back up now' on the backup page (Chromium)", () => {
  let env: E2eEnv;
  let scratch: string;
  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'campus-backup-e2e-'));
    mkdirSync(join(scratch, 'uploads'));
    env = await startE2e({ demo: {}, server: { backupRoot: join(scratch, 'backups'), uploadDir: join(scratch, 'uploads') } });
    await env.app.jobs.start();
  });
  afterAll(async () => {
    await env?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('backs up now and lists the run with its size and result, and on the jobs page', async () => {
    const { page, baseUrl } = env;
    console.log(`backup screenshots: ${SHOTS}`);
    await signIn(env);
    await page.goto(`${baseUrl}/sms/master/backup/table`);
    const card = page.getByTestId('backup-runs');
    await card.waitFor({ timeout: 20_000 });
    await expect.poll(() => card.getByText('No backup has run yet.').count(), { timeout: 15_000 }).toBe(1);

    // Choose the 'daily' backup from the dropdown, then Back up now.
    await page.getByTestId('backup-now-choice').click();
    await page.getByRole('option', { name: 'daily', exact: true }).click();
    await page.getByTestId('backup-now').click();
    await expect.poll(() => page.getByText('The backup has started: it is listed below when it ends.').count(), { timeout: 10_000 }).toBeGreaterThan(0);

    const run = card.getByTestId('backup-run-row').first();
    await expect.poll(() => run.getAttribute('data-result'), { timeout: 90_000 }).toBe('ok');
    expect(await run.getByTestId('backup-run-result').textContent()).toBe('OK');
    expect(await run.getByTestId('backup-run-size').textContent()).toMatch(/^\d+(\.\d)? (MB|KB)$/);
    expect(await run.textContent()).toContain('daily');
    expect(await run.textContent()).toMatch(/backups\/daily\/campus_daily_\d{8}/);
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'backup-runs-1366.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'backup-runs-390.png'), fullPage: true });
    await page.setViewportSize({ width: 1366, height: 800 });

    // The jobs page (administrators) lists the run, done.
    await page.getByTestId('backup-jobs-link').click();
    await page.getByTestId('jobs-page').waitFor({ timeout: 15_000 });
    const job = page.locator('[data-testid="job-row"][data-job="backup-run"]');
    await expect.poll(() => job.first().getAttribute('data-state'), { timeout: 15_000 }).toBe('completed');
    expect(await job.first().textContent()).toContain('Backup');
    await page.screenshot({ path: join(SHOTS, 'jobs-1366.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(SHOTS, 'jobs-390.png'), fullPage: true });
    await page.setViewportSize({ width: 1366, height: 800 });

    expect(env.problems).toEqual([]);
  });
});
