import { hasRoute } from '@campus/entities/define';
import { livePages, menuGroups, pages, type PageDef } from '@campus/entities/pages';
import { findEntity } from '@campus/entities/registry';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminLinks } from '../apps/web/src/app/admin-links';
import { browserAvailable, signIn, startE2e, type E2eEnv } from './browser-harness';

/*
 * Smoke test over every live page (issue 3): as ADMIN, each page with an entity opens its table and its
 * create form in Chromium without a console error or a failed request, and each is photographed with the
 * demo school's data. The list of pages comes from the declarations when the test runs, so pages that other
 * engineers make live are covered without touching this file. One browser and one signed-in tab serve every
 * test, to stay well inside the time budget on two cores.
 */

const SHOTS = mkdtempSync(join(tmpdir(), 'campus-every-page-shots-'));
const DESKTOP = { width: 1366, height: 800 };
const PHONE = { width: 375, height: 800 };
const languageDir = join(import.meta.dirname, '../apps/web/public/assets/language');

/** Only the two parts of a language file the menu reads. */
interface MenuTexts {
  menu: Record<string, string>;
  page: Record<string, Record<string, string>>;
  menu_entry?: Record<string, Record<string, string>>;
}

/** A text of a language file by its dotted key (jobs.title). */
const textAt = (texts: MenuTexts, key: string): string | undefined => {
  const v = key.split('.').reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), texts);
  return typeof v === 'string' ? v : undefined;
};

const live = livePages();
/** Pages the spec names that have no entity yet: reachable by URL, and must land cleanly on an error page. */
const unbuiltOffMenu = pages.filter((pg) => !pg.menu && pg.entity === undefined);
/** Menu groups that have something live to show, each with its live menu pages in pages.ts order. */
const liveGroups = menuGroups
  // A page's menuEntry (Mark Attendance) is a menu entry too, for a holder of its mode's button (ADMIN).
  .map((g) => ({ group: g, children: live.filter((pg) => pg.module === g.module && (pg.menu || pg.menuEntry)) }))
  .filter((g) => g.children.length > 0);
/** One narrow screenshot per module group: its first live page's table (off-menu pages count too). */
const narrowPages = menuGroups.map((g) => live.find((pg) => pg.module === g.module)).filter((pg): pg is PageDef => pg !== undefined);

const shotName = (pg: Pick<PageDef, 'module' | 'page'>, what: string): string => join(SHOTS, `${pg.module}--${pg.page}--${what}.png`);

// ---------- waiting for a screen to be really done ----------

/**
 * API calls still in flight. Waiting for them (not for a fixed delay) makes sure that a late 4xx or console
 * error is counted against the page that caused it, and that the screenshot shows loaded data.
 */
function trackApiCalls(page: Page): Set<object> {
  const inFlight = new Set<object>();
  const isApi = (url: string): boolean => new URL(url).pathname.startsWith('/api/');
  page.on('request', (r) => {
    if (isApi(r.url())) inFlight.add(r);
  });
  page.on('requestfinished', (r) => inFlight.delete(r));
  page.on('requestfailed', (r) => inFlight.delete(r));
  return inFlight;
}

/** Resolves once no API call has been in flight for two checks in a row (a follow-up call may start late). */
async function settle(page: Page, inFlight: Set<object>): Promise<void> {
  let quiet = 0;
  const deadline = Date.now() + 15_000;
  while (quiet < 2) {
    if (Date.now() > deadline) throw new Error(`API calls still pending after 15 s on ${page.url()}`);
    quiet = inFlight.size === 0 ? quiet + 1 : 0;
    await page.waitForTimeout(40);
  }
}

const grid = (page: Page): Locator => page.getByTestId('entity-grid');

/** The grid is rendered: its header row, and either data rows or AG Grid's own no-rows overlay. */
async function waitForTable(page: Page, inFlight: Set<object>): Promise<void> {
  await page.getByTestId('entity-list').waitFor({ timeout: 15_000 });
  await grid(page).locator('.ag-header-row').first().waitFor({ timeout: 15_000 });
  await grid(page).locator('.ag-row[row-index], .ag-overlay-no-rows-center').first().waitFor({ timeout: 15_000 });
  await settle(page, inFlight);
  await grid(page).locator('.ag-overlay-loading-center').waitFor({ state: 'hidden' });
  // After the calls settle the grid must still hold rows or say it has none (not a half-loaded state).
  await grid(page).locator('.ag-row[row-index], .ag-overlay-no-rows-center').first().waitFor({ timeout: 5_000 });
}

/** A create screen is rendered: the engine's form with its inputs, or a workflow screen, with no skeleton left. */
async function waitForForm(page: Page, inFlight: Set<object>): Promise<void> {
  const main = page.locator('main');
  await main.locator('[data-testid="entity-form"] input, h1, h2, h3, h4').first().waitFor({ timeout: 15_000 });
  await settle(page, inFlight);
  await expect.poll(() => main.locator('.mantine-Skeleton-root[data-visible]').count(), { timeout: 10_000 }).toBe(0);
}

async function screenshot(page: Page, path: string): Promise<void> {
  await page.screenshot({ path });
}

/** Header labels of the grid's data columns (AG Grid's own selection column has no text and is left out). */
async function headerTexts(page: Page): Promise<string[]> {
  const cells = grid(page).locator('.ag-header-cell[col-id]:not([col-id="ag-Grid-SelectionColumn"]) .ag-header-cell-text');
  return (await cells.allTextContents()).map((s) => s.trim());
}

const pathname = (page: Page): string => new URL(page.url()).pathname;

/**
 * Moves the signed-in app to a URL the way its own links do (history + popstate, which the router follows),
 * instead of page.goto: a full reload re-parses the bundles and refetches the shell on every page, and on two
 * cores that alone would blow the time budget. The first visit, with no app loaded yet, is a real load.
 */
async function open(page: Page, path: string): Promise<void> {
  if (!page.url().startsWith('http')) {
    await page.goto(path);
    return;
  }
  const target = new URL(path, page.url()).pathname;
  // A string, because this project's e2e files are type-checked without the DOM library.
  await page.evaluate(`history.pushState(null, '', ${JSON.stringify(target)}); dispatchEvent(new PopStateEvent('popstate'));`);
}

// ---------- the tests ----------

describe.runIf(browserAvailable())('every live page opens cleanly as ADMIN (Chromium)', () => {
  let env: E2eEnv;
  let inFlight: Set<object>;
  /** The language file the app actually loaded (english or english_clg, by the institute's type). */
  let languageFile = '';
  /** Per page: did its table offer Create (then the create URL must show a form, else it must refuse). */
  const createOffered = new Map<string, boolean>();

  /** Problems (console errors, failed requests, 4xx/5xx answers, uncaught errors) raised since `from`. */
  const problemsSince = (from: number): string[] => env.problems.slice(from);

  beforeAll(async () => {
    console.log(`every-page screenshots: ${SHOTS}`);
    // The demo school (600 students, staff, fees, books, exams...): pages are checked, and photographed, with
    // the rows a school would have rather than empty grids. ADMIN lands in the school.
    env = await startE2e({ demo: {} });
    console.log(`every-page: demo data written in ${((env.demo?.ms ?? 0) / 1000).toFixed(1)} s`);
    const { page } = env;
    inFlight = trackApiCalls(page);
    // The harness counts console errors and network failures; an answered 4xx/5xx or an uncaught exception
    // is a failure here as well, and naming the URL makes the report usable.
    page.on('response', (r) => {
      if (r.status() >= 400) env.problems.push(`HTTP ${r.status()}: ${r.request().method()} ${r.url()}`);
    });
    page.on('response', (r) => {
      const m = /\/assets\/language\/([a-z_]+)\.json$/.exec(new URL(r.url()).pathname);
      if (m) languageFile = m[1];
    });
    await signIn(env);
    await page.goto(`${env.baseUrl}/sms/dashboard`);
    await page.locator('[data-testid^="dashboard-"]').first().waitFor({ timeout: 15_000 });
    await settle(page, inFlight);
  });
  afterAll(async () => env?.close());

  it('declares live pages to check', () => {
    expect(live.length).toBeGreaterThan(0);
  });

  it('opens the dashboard and the schedule (open to every user)', async () => {
    const { page, baseUrl } = env;
    const from = env.problems.length;
    await open(page, `${baseUrl}/sms/dashboard`);
    await page.locator('[data-testid^="dashboard-"]').first().waitFor({ timeout: 15_000 });
    await settle(page, inFlight);
    await expect.poll(() => page.locator('main .mantine-Skeleton-root[data-visible]').count()).toBe(0);
    await screenshot(page, join(SHOTS, 'dashboard--desktop.png'));
    await open(page, `${baseUrl}/sms/schedule/table`);
    await page.locator('main h1').waitFor({ timeout: 15_000 });
    await settle(page, inFlight);
    expect(pathname(page)).toBe('/sms/schedule/table');
    await screenshot(page, join(SHOTS, 'schedule--table--desktop.png'));
    expect(problemsSince(from)).toEqual([]);
  });

  // Computed from the declarations when the file is collected: a page that becomes live is tested at once.
  for (const pg of live) {
    it(`${pg.module}/${pg.page} (${pg.entity}): table and create form`, async () => {
      const { page, baseUrl } = env;
      const from = env.problems.length;
      const entity = findEntity(pg.entity ?? '');
      expect(entity, `entity '${pg.entity}' of ${pg.module}/${pg.page} is not in the registry`).toBeDefined();

      await open(page, `${baseUrl}/sms/${pg.module}/${pg.page}/table`);
      await waitForTable(page, inFlight);
      expect(pathname(page)).toBe(`/sms/${pg.module}/${pg.page}/table`);
      await screenshot(page, shotName(pg, 'table'));
      const headers = await headerTexts(page);
      expect(headers.length, 'data columns').toBeGreaterThan(0);
      expect(headers.filter((h) => h === ''), `blank column headers: ${JSON.stringify(headers)}`).toEqual([]);

      // The admin holds every button the page declares: a creatable entity must offer Create.
      const offered = await page.getByTestId('btn-create').isVisible();
      createOffered.set(`${pg.module}/${pg.page}`, offered);
      if (entity && pg.buttons.includes('create') && hasRoute(entity, 'create')) expect(offered, 'Create button').toBe(true);

      await open(page, `${baseUrl}/sms/${pg.module}/${pg.page}/create`);
      if (offered) {
        await waitForForm(page, inFlight);
        expect(pathname(page)).toBe(`/sms/${pg.module}/${pg.page}/create`);
        await screenshot(page, shotName(pg, 'create'));
      } else {
        // Read-only pages (history) have no create screen: the URL must be refused, not break.
        await page.waitForURL((u) => ['/page_not_autherised', '/page_not_found'].includes(u.pathname), { timeout: 15_000 });
        await settle(page, inFlight);
        await screenshot(page, shotName(pg, 'create-refused'));
      }
      expect(problemsSince(from)).toEqual([]);
    });
  }

  for (const pg of unbuiltOffMenu) {
    it(`${pg.module}/${pg.page} (not in the menu, not built yet) lands on an error page by URL`, async () => {
      const { page, baseUrl } = env;
      const from = env.problems.length;
      await open(page, `${baseUrl}/sms/${pg.module}/${pg.page}/table`);
      // The admin holds no grant for a page that is not built, so the guard may refuse it before the engine
      // finds no entity: either error page is a clean answer; a blank screen or an error is not.
      await page.waitForURL((u) => ['/page_not_autherised', '/page_not_found'].includes(u.pathname), { timeout: 15_000 });
      await settle(page, inFlight);
      expect(problemsSince(from)).toEqual([]);
    });
  }

  it('shows every live menu page in its group of the side menu, labelled from the language file', async () => {
    const { page, baseUrl } = env;
    const from = env.problems.length;
    expect(languageFile, 'the app loaded no language file').not.toBe('');
    const texts = JSON.parse(readFileSync(join(languageDir, `${languageFile}.json`), 'utf8')) as MenuTexts;
    await open(page, `${baseUrl}/sms/dashboard`);
    const menu = page.locator('.mantine-AppShell-navbar');
    const missing: string[] = [];
    for (const { group, children } of liveGroups) {
      const title = texts.menu[group.module];
      expect(title, `menu.${group.module} in ${languageFile}.json`).toBeTruthy();
      // Group headers are anchors without href; page links have one (a group and a page may share a name: Subject).
      const header = menu.locator('a.mantine-NavLink-root:not([href])').filter({ has: page.getByText(title, { exact: true }) });
      await header.waitFor({ timeout: 15_000 });
      if ((await header.getAttribute('data-expanded')) === null) await header.click();
      // Mantine renders a group's children in the Collapse right after its header.
      const body = header.locator('xpath=following-sibling::div[1]');
      const expected = children.flatMap((pg) => [
        ...(pg.menu ? [texts.page[pg.module]?.[pg.page] ?? `(no page.${pg.module}.${pg.page})`] : []),
        ...(pg.menuEntry ? [texts.menu_entry?.[pg.module]?.[pg.page] ?? `(no menu_entry.${pg.module}.${pg.page})`] : []),
      ]);
      // ADMIN also gets the administrators' screens of the group (Background jobs), after its pages.
      expected.push(...adminLinks.filter((l) => l.module === group.module).map((l) => textAt(texts, l.labelKey) ?? `(no ${l.labelKey})`));
      await expect.poll(async () => (await body.getByRole('link').allTextContents()).map((s) => s.trim()), { timeout: 5_000 }).toEqual(expected);
      for (const label of expected) {
        if (!(await body.getByRole('link', { name: label, exact: true }).isVisible())) missing.push(`${title} > ${label}`);
      }
    }
    await screenshot(page, join(SHOTS, 'menu--expanded--desktop.png'));
    expect(missing, 'menu entries not visible after expanding their group').toEqual([]);
    expect(problemsSince(from)).toEqual([]);
  });

  it('fits a phone: the first live table of each module group at 375 px, nothing sticking out sideways', async () => {
    const { page, baseUrl } = env;
    const from = env.problems.length;
    const overflowing: string[] = [];
    await page.setViewportSize(PHONE);
    try {
      for (const pg of narrowPages) {
        await open(page, `${baseUrl}/sms/${pg.module}/${pg.page}/table`);
        await waitForTable(page, inFlight);
        await screenshot(page, shotName(pg, 'table-phone'));
        const overflow = (await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')) as number;
        if (overflow !== 0) overflowing.push(`${pg.module}/${pg.page}: ${overflow}px`);
      }
    } finally {
      await page.setViewportSize(DESKTOP);
    }
    expect(overflowing).toEqual([]);
    expect(problemsSince(from)).toEqual([]);
  });
});
