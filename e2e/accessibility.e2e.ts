import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiLogin } from './api-client';
import { ADMIN_PASSWORD, browserAvailable, signIn, startE2e, type E2eEnv } from './browser-harness';

/*
 * Keyboard and contrast (issue item 12), on the demo school as ADMIN (who has a choice of two institutes, so
 * the landing page stays): axe-core checks the pages a clerk spends the day on against WCAG 2.1 A and AA and
 * fails on any serious or critical finding; then a person without a mouse signs in and opens Student >
 * Student Profile with Tab, Shift+Tab, Enter, Space and the arrow keys only, on a desktop and on a phone,
 * where the side menu is a drawer behind the header's Menu button.
 */

const SHOTS = mkdtempSync(join(tmpdir(), 'campus-a11y-shots-'));
const DESKTOP = { width: 1366, height: 800 };
const PHONE = { width: 375, height: 800 };
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const STUDENT_TABLE = '/sms/student/profile/table';

interface Finding {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string; html: string; summary: string }[];
}

/**
 * Runs axe-core on the page as it stands (WCAG 2.0/2.1 A and AA rules, plus the experimental
 * label-content-name-mismatch the issue names) and returns the serious and critical findings, one line each
 * with the element and axe's own summary, so a failure says what to fix.
 */
async function axeFindings(page: Page): Promise<string[]> {
  // Injected through the DevTools protocol, not a <script> tag: the app's CSP allows no inline script.
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(`${AXE_SOURCE}\n;void 0`);
  const findings = (await page.evaluate(`(async () => {
    const r = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      rules: { 'label-content-name-mismatch': { enabled: true } },
      resultTypes: ['violations'],
    });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target.join(' '), html: n.html.slice(0, 160), summary: (n.failureSummary || '').replace(/\\s+/g, ' ') })),
    }));
  })()`)) as Finding[];
  return findings
    .filter((f) => f.impact === 'serious' || f.impact === 'critical' || f.id === 'label-content-name-mismatch')
    .flatMap((f) => f.nodes.map((n) => `${f.id} (${f.impact}) ${n.target} ${n.html}: ${f.help}. ${n.summary}`));
}

/** Fails with every finding spelt out, one a line. */
async function expectNoFindings(page: Page): Promise<void> {
  const findings = await axeFindings(page);
  expect(findings, `axe-core on ${new URL(page.url()).pathname}:\n${findings.join('\n')}`).toEqual([]);
}

interface Focused {
  tag: string;
  role: string | null;
  /** Its label as read out: aria-label, else its text, else its placeholder. */
  name: string;
  /** A form field's name attribute. */
  field: string | null;
  expanded: string | null;
  /** The browser draws an outline or a ring (box-shadow) around it. */
  ring: boolean;
  /** It sits in the page's main region (not the header or the side menu). */
  inMain: boolean;
}

/** What has the keyboard focus, as a screen reader and a sighted keyboard user would tell it. */
async function focused(page: Page): Promise<Focused> {
  return (await page.evaluate(`(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return { tag: 'BODY', role: null, name: '', field: null, expanded: null, ring: false, inMain: false };
    // A field's ring is drawn on its box: a password box is a frame around the real input.
    const box = el.closest('.mantine-Input-input') || el;
    const cs = getComputedStyle(box);
    const ring = (cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) >= 2) || (cs.boxShadow !== 'none' && cs.boxShadow !== '');
    const name = (el.getAttribute('aria-label') || el.textContent || el.getAttribute('placeholder') || '').replace(/\\s+/g, ' ').trim();
    return { tag: el.tagName, role: el.getAttribute('role'), name, field: el.getAttribute('name'), expanded: el.getAttribute('aria-expanded'), ring, inMain: !!el.closest('main') };
  })()`)) as Focused;
}

/**
 * Presses Tab (or Shift+Tab) until the focused element matches, as a keyboard user looks for a control;
 * fails with the path it walked when the control is never reached.
 */
async function tabTo(page: Page, want: (f: Focused) => boolean, what: string, opts: { back?: boolean; max?: number } = {}): Promise<Focused> {
  const walked: string[] = [];
  for (let i = 0; i < (opts.max ?? 60); i++) {
    await page.keyboard.press(opts.back ? 'Shift+Tab' : 'Tab');
    const f = await focused(page);
    walked.push(`${f.tag}${f.role ? `[${f.role}]` : ''}${f.field ? `(${f.field})` : ''} "${f.name.slice(0, 40)}"`);
    if (want(f)) return f;
  }
  throw new Error(`the keyboard never reached ${what}; Tab went through: ${walked.join(' > ')}`);
}

const named = (name: string, tag?: string) => (f: Focused) => f.name === name && (tag === undefined || f.tag === tag);
const field = (name: string) => (f: Focused) => f.tag === 'INPUT' && f.field === name;

async function waitForGrid(page: Page): Promise<void> {
  await page.getByTestId('entity-grid').locator('.ag-row[row-index]').first().waitFor({ timeout: 20_000 });
  await page.getByTestId('entity-grid').locator('.ag-overlay-loading-center').waitFor({ state: 'hidden' });
}

/** Nothing is loading on screen any more (skeletons, loaders), so axe sees the page a clerk works on. */
async function settled(page: Page): Promise<void> {
  await expect.poll(() => page.locator('.mantine-Skeleton-root[data-visible], .mantine-Loader-root').count(), { timeout: 15_000 }).toBe(0);
  // Mantine's transitions (collapse, fade) end within 200 ms; axe reads colours mid-fade otherwise.
  await page.waitForTimeout(300);
}

/** Opens a signed-in page; signs ADMIN in first when the app sends the browser to the login page. */
async function openSignedIn(env: E2eEnv, path: string): Promise<void> {
  const { page, baseUrl } = env;
  await page.goto(`${baseUrl}${path}`);
  await page.locator('input[name="usr_nm"], .mantine-AppShell-main, [data-testid^="landing-tile"]').first().waitFor({ timeout: 15_000 });
  if (new URL(page.url()).pathname !== '/login') return;
  await signIn(env);
  await page.goto(`${baseUrl}${path}`);
}

describe.runIf(browserAvailable())('keyboard and contrast: axe-core WCAG 2.1 A/AA and a keyboard-only journey (Chromium)', () => {
  let env: E2eEnv;
  let studCd = 0;

  beforeAll(async () => {
    console.log(`accessibility screenshots: ${SHOTS}`);
    env = await startE2e({ demo: {} });
    const admin = await apiLogin(env.baseUrl, 'ADMIN', ADMIN_PASSWORD);
    const found = await api<{ rows: { stud_cd: number }[] }>(env.baseUrl, admin, 'GET', '/api/student/detail/?sort=pendingAmt&dir=desc&size=1', {
      module: 'fee',
      page: 'quick_fee_collection',
    });
    expect(found.status).toBe(200);
    studCd = found.json.rows[0]!.stud_cd;
  }, 240_000);
  afterAll(async () => env?.close());

  it('login page: no serious or critical WCAG 2.1 A/AA finding, at 1366 and 375 px', async () => {
    const { page, baseUrl } = env;
    await page.goto(`${baseUrl}/login`);
    await page.locator('input[name="usr_nm"]').waitFor();
    await settled(page);
    await expectNoFindings(page);
    await page.screenshot({ path: join(SHOTS, 'login--1366.png') });
    await page.setViewportSize(PHONE);
    try {
      await settled(page);
      await expectNoFindings(page);
      await page.screenshot({ path: join(SHOTS, 'login--375.png') });
    } finally {
      await page.setViewportSize(DESKTOP);
    }
    expect(env.problems).toEqual([]);
  });

  it('keyboard only: types the login, picks nothing on the landing page, opens Student > Student Profile from the side menu', async () => {
    const { page, baseUrl } = env;
    await page.goto(`${baseUrl}/login`);
    await page.locator('input[name="usr_nm"]').waitFor();
    // The login id has the focus on arrival; a text box shows where the typing goes.
    let f = await focused(page);
    if (f.field !== 'usr_nm') f = await tabTo(page, field('usr_nm'), 'the Login Id box');
    expect(f.ring, 'focus ring on the Login Id box').toBe(true);
    await page.keyboard.type('ADMIN', { delay: 15 });
    f = await tabTo(page, field('usr_pwd'), 'the Password box');
    expect(f.ring, 'focus ring on the Password box').toBe(true);
    await page.keyboard.type(ADMIN_PASSWORD, { delay: 15 });
    await page.keyboard.press('Enter');
    // ADMIN works in two institutes: the landing page asks which.
    await page.waitForURL((u) => u.pathname === '/landing', { timeout: 15_000 });
    await page.getByTestId('landing-tile-student').waitFor({ timeout: 15_000 });
    await settled(page);
    f = await tabTo(page, named('Open dashboard', 'A'), 'Open dashboard');
    expect(f.ring, 'focus ring on Open dashboard').toBe(true);
    await page.screenshot({ path: join(SHOTS, 'landing--1366--focus.png') });
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname === '/sms/dashboard', { timeout: 15_000 });
    await page.locator('[data-testid^="dashboard-"]').first().waitFor({ timeout: 15_000 });

    // The side menu: the Student group takes the focus, says it is collapsed, and opens with Enter.
    f = await tabTo(page, (x) => x.name === 'Student' && x.expanded !== null, 'the Student group of the side menu');
    expect(f).toMatchObject({ expanded: 'false', ring: true });
    await page.screenshot({ path: join(SHOTS, 'menu--1366--focus.png') });
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await focused(page)).expanded).toBe('true');
    // Space closes it again and opens it again: both keys a person may try on a button.
    await page.keyboard.press('Space');
    await expect.poll(async () => (await focused(page)).expanded).toBe('false');
    await page.keyboard.press('Space');
    await expect.poll(async () => (await focused(page)).expanded).toBe('true');
    f = await tabTo(page, named('Student Profile', 'A'), 'Student > Student Profile');
    expect(f.ring, 'focus ring on Student Profile').toBe(true);
    // Shift+Tab goes back up through the group's pages to the group itself.
    await tabTo(page, (x) => x.name === 'Student' && x.expanded === 'true', 'back to the Student group', { back: true, max: 15 });
    await tabTo(page, named('Student Profile', 'A'), 'Student Profile again', { max: 15 });
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname === STUDENT_TABLE, { timeout: 15_000 });
    await waitForGrid(page);
    expect(await page.getByRole('heading', { name: 'Student Profile' }).first().isVisible()).toBe(true);
    expect(env.problems).toEqual([]);
  });

  it("the Student group offers Mark Attendance, which opens the marking screen; the attendance list stays out of the menu", async () => {
    const { page } = env;
    await openSignedIn(env, '/sms/dashboard');
    // The dashboard's own calls settle first: on a busy machine a menu still re-rendering can swallow a click.
    await page.waitForLoadState('networkidle');
    const menu = page.locator('.mantine-AppShell-navbar');
    const group = menu.getByRole('button', { name: 'Student', exact: true });
    if ((await group.getAttribute('aria-expanded')) !== 'true') await group.click();
    const mark = menu.getByRole('link', { name: 'Mark Attendance', exact: true });
    await mark.waitFor({ state: 'visible' });
    expect(await mark.getAttribute('href')).toBe('/sms/student/attendance/create');
    expect(await menu.getByRole('link', { name: 'Attendance', exact: true }).count()).toBe(0);
    await mark.click();
    // Polled rather than waitForURL, so that a failure names where the click led.
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 15_000 }).toBe('/sms/student/attendance/create');
    await page.getByRole('heading', { name: 'Mark attendance' }).first().waitFor({ timeout: 15_000 });
    // The entry lights up where the user is.
    expect(await mark.getAttribute('data-active')).toBe('true');
    expect(env.problems).toEqual([]);
  });

  it("the first Tab on a signed-in page offers 'Skip to the page', which jumps over the header and the side menu", async () => {
    const { page } = env;
    await openSignedIn(env, STUDENT_TABLE);
    await waitForGrid(page);
    const f = await tabTo(page, () => true, 'anything', { max: 1 });
    expect(f).toMatchObject({ tag: 'A', name: 'Skip to the page', ring: true });
    await page.screenshot({ path: join(SHOTS, 'skip-link--1366--focus.png') });
    await page.keyboard.press('Enter');
    expect((await focused(page)).tag).toBe('MAIN');
    // The next stop is on the page (its search, its buttons), not the header's Institute box.
    expect(await tabTo(page, () => true, 'anything', { max: 1 })).toMatchObject({ inMain: true });
    expect(new URL(page.url()).pathname).toBe(STUDENT_TABLE);
    expect(env.problems).toEqual([]);
  });

  it('landing page (a choice of two institutes): no serious or critical finding, at 1366 and 375 px', async () => {
    const { page } = env;
    await openSignedIn(env, '/landing');
    await page.getByTestId('landing-tile-student').waitFor({ timeout: 15_000 });
    await settled(page);
    await expectNoFindings(page);
    await page.screenshot({ path: join(SHOTS, 'landing--1366.png') });
    await page.setViewportSize(PHONE);
    try {
      await settled(page);
      await expectNoFindings(page);
      await page.screenshot({ path: join(SHOTS, 'landing--375.png'), fullPage: true });
      const f = await tabTo(page, named('Open dashboard', 'A'), 'Open dashboard on a phone');
      expect(f.ring, 'focus ring on Open dashboard').toBe(true);
      await page.screenshot({ path: join(SHOTS, 'landing--375--focus.png') });
    } finally {
      await page.setViewportSize(DESKTOP);
    }
    expect(env.problems).toEqual([]);
  });

  const pagesToCheck: { name: string; path: () => string; ready: (page: Page) => Promise<void> }[] = [
    { name: 'dashboard', path: () => '/sms/dashboard', ready: (p) => p.locator('[data-testid^="dashboard-"]').first().waitFor({ timeout: 15_000 }) },
    { name: 'student list', path: () => STUDENT_TABLE, ready: waitForGrid },
    { name: 'student form (create)', path: () => '/sms/student/profile/create', ready: (p) => p.locator('main [data-testid="entity-form"] input').first().waitFor({ timeout: 15_000 }) },
    { name: 'fee counter on a student', path: () => `/sms/fee/quick_fee_collection/view/${studCd}`, ready: (p) => p.getByTestId('collect-dues').waitFor({ timeout: 15_000 }) },
    { name: 'mark list', path: () => '/sms/exam/mark_list/table', ready: waitForGrid },
  ];
  for (const target of pagesToCheck) {
    it(`${target.name}: no serious or critical WCAG 2.1 A/AA finding`, async () => {
      const { page } = env;
      await openSignedIn(env, target.path());
      await target.ready(page);
      await settled(page);
      await page.screenshot({ path: join(SHOTS, `${target.name.replace(/\W+/g, '-')}--1366.png`) });
      await expectNoFindings(page);
      expect(env.problems).toEqual([]);
    });
  }

  it('at 375 px: the header, the drawer menu and Student Profile are reached by keyboard, and pass axe', async () => {
    const { page } = env;
    await page.setViewportSize(PHONE);
    try {
      await openSignedIn(env, '/sms/dashboard');
      await page.locator('[data-testid^="dashboard-"]').first().waitFor({ timeout: 15_000 });
      await settled(page);
      await expectNoFindings(page);
      await page.screenshot({ path: join(SHOTS, 'dashboard--375.png') });
      const f = await tabTo(page, named('Menu', 'BUTTON'), "the header's Menu button");
      expect(f.ring, 'focus ring on the Menu button').toBe(true);
      await page.screenshot({ path: join(SHOTS, 'dashboard--375--focus.png') });
      await page.keyboard.press('Enter');
      const drawer = page.getByRole('dialog');
      await drawer.waitFor();
      await settled(page);
      await expectNoFindings(page);
      await tabTo(page, (x) => x.name === 'Student' && x.expanded !== null, 'the Student group in the drawer');
      await page.keyboard.press('Enter');
      await tabTo(page, named('Student Profile', 'A'), 'Student Profile in the drawer');
      await page.screenshot({ path: join(SHOTS, 'menu--375--focus.png') });
      await page.keyboard.press('Enter');
      await page.waitForURL((u) => u.pathname === STUDENT_TABLE, { timeout: 15_000 });
      // The drawer closes on the way and the grid is there.
      await drawer.waitFor({ state: 'hidden' });
      await waitForGrid(page);
    } finally {
      await page.setViewportSize(DESKTOP);
    }
    expect(env.problems).toEqual([]);
  });
});
