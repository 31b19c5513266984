/**
 * How long a list page takes to become usable on a slow office PC: headless Chromium with the CPU slowed
 * 4x (DevTools' Emulation.setCPUThrottlingRate), cold browser cache, the demo school's student list.
 *   npm run build && npx tsx bench/throttled-list.bench.ts        # RUNS=3 by default, RATE=4
 * Prints, per run and as the median (typing the password is not counted):
 *   - login page: navigation to /login until the sign-in button can be clicked;
 *   - sign-in: the click on Sign in until the next screen's address;
 *   - list after sign-in: navigation to the list page right after signing in (its code not yet cached)
 *     until its first grid row is on screen: what the issue calls 'list page usable';
 *   - login page to first row: the three above added up;
 *   - list again: the same list opened afresh, signed in, code cached (a reload or a new tab).
 * Each run uses a fresh browser profile, so nothing is cached between runs.
 *   WEB_DIST=/path/to/dist   serves another build (e.g. a worktree of an earlier commit, for a before/after);
 *   TIMELINE=1               prints, for the first run, when each request of the list after sign-in started
 *                            and ended (ms from the navigation), to see which ones wait for which.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { ADMIN_PASSWORD, CHROMIUM, startE2e, typeInto } from '../e2e/browser-harness';

const RUNS = Number(process.env.RUNS ?? 3);
const RATE = Number(process.env.RATE ?? 4);
const LIST = process.env.LIST ?? '/sms/student/admission/table';
const TARGET_MS = 2000;

// The demo school (600 students) as the first start writes it; the administrator sees every list.
const env = await startE2e({ demo: {}, server: process.env.WEB_DIST ? { webDist: process.env.WEB_DIST } : {} });
const TIMELINE = process.env.TIMELINE === '1';
// The harness's own browser is not used: each run gets a cold profile of its own.
await env.context.close();

interface Run {
  loginPage: number;
  signIn: number;
  listAfterSignIn: number;
  listAgain: number;
}

async function oneRun(showTimeline: boolean): Promise<Run> {
  const profile = mkdtempSync(join(tmpdir(), 'campus-throttled-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1366, height: 800 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: RATE });
    const firstRow = page.locator('.ag-row[row-index="0"]');

    let t0 = performance.now();
    await page.goto(`${env.baseUrl}/login`);
    await page.locator('button[type="submit"]').waitFor();
    const loginPage = performance.now() - t0;

    await typeInto(page.locator('input[name="usr_nm"]'), 'ADMIN');
    await typeInto(page.locator('input[name="usr_pwd"]'), ADMIN_PASSWORD);
    t0 = performance.now();
    await page.locator('button[type="submit"]').click();
    await page.waitForURL((u) => !u.pathname.startsWith('/login'), { timeout: 30_000 });
    const signIn = performance.now() - t0;
    const timeline: string[] = [];
    const started = new Map<object, number>();
    const onRequest = (r: { url(): string }) => started.set(r, performance.now() - t0);
    const onDone = (r: { url(): string }) => {
      const s = started.get(r);
      if (s !== undefined) timeline.push(`${s.toFixed(0).padStart(6)} -> ${(performance.now() - t0).toFixed(0).padStart(6)}  ${r.url().replace(env.baseUrl, '')}`);
    };
    if (showTimeline) {
      page.on('request', onRequest);
      page.on('requestfinished', onDone);
      page.on('requestfailed', onDone);
    }
    t0 = performance.now();
    await page.goto(`${env.baseUrl}${LIST}`);
    await firstRow.waitFor({ timeout: 60_000 });
    const listAfterSignIn = performance.now() - t0;
    if (showTimeline) {
      page.off('request', onRequest);
      page.off('requestfinished', onDone);
      page.off('requestfailed', onDone);
      console.log(`list after sign-in, requests (start -> end, ms), first row at ${listAfterSignIn.toFixed(0)}:\n${timeline.sort().join('\n')}`);
    }

    // Signed in, code in the cache: a fresh load of the same list, as after a reload or a new tab.
    await page.goto(`${env.baseUrl}/sms/dashboard`);
    await page.waitForLoadState('networkidle');
    t0 = performance.now();
    await page.goto(`${env.baseUrl}${LIST}`);
    await firstRow.waitFor({ timeout: 60_000 });
    const listAgain = performance.now() - t0;
    return { loginPage, signIn, listAfterSignIn, listAgain };
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

const runs: Run[] = [];
for (let i = 0; i < RUNS; i++) {
  const r = await oneRun(TIMELINE && i === 0);
  runs.push(r);
  console.log(`run ${i + 1}: login page ${r.loginPage.toFixed(0)} ms, sign-in ${r.signIn.toFixed(0)} ms, list after sign-in ${r.listAfterSignIn.toFixed(0)} ms, list again ${r.listAgain.toFixed(0)} ms`);
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const m = (f: (r: Run) => number) => median(runs.map(f));
const rowsOut: [string, number, number | undefined][] = [
  ['login page until sign-in can be clicked', m((r) => r.loginPage), undefined],
  ['sign-in click until the next screen', m((r) => r.signIn), undefined],
  ['list page after sign-in until first row (code not cached)', m((r) => r.listAfterSignIn), TARGET_MS],
  ['login page to first row (the three above, without typing)', m((r) => r.loginPage + r.signIn + r.listAfterSignIn), undefined],
  ['list page again (signed in, code cached) until first row', m((r) => r.listAgain), TARGET_MS],
];
console.log(`\n${RATE}x CPU throttling, ${LIST}, median of ${RUNS} cold runs; load average ${loadavg().map((x) => x.toFixed(1)).join(' ')} on ${cpus().length} cores (wall times are only comparable on a quiet machine)`);
console.log('| what | ms | target | ratio to target |');
console.log('|---|---|---|---|');
for (const [what, ms, target] of rowsOut) console.log(`| ${what} | ${ms.toFixed(0)} | ${target ?? ''} | ${target ? (ms / target).toFixed(2) : ''} |`);
await env.close();
