import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';
import type { Config } from '../apps/server/src/config';
import { generateDemo, type DemoResult } from '../apps/server/src/db/demo/demo-data';
import { attachRealtime, type Realtime } from '../apps/server/src/realtime';
import { ADMIN_PASSWORD, startTestServer, type TestServer } from '../apps/server/test/test-server';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export { ADMIN_PASSWORD };
const webDist = join(import.meta.dirname, '../apps/web/dist');

/**
 * Browser tests need Chromium. In CI a missing browser is a failure; on a developer machine the tests are
 * skipped with one loud line that says how to enable them.
 */
export function browserAvailable(): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (process.env.CI) throw new Error(`Chromium not found at ${CHROMIUM}: CI must run the browser tests (apt-get install -y chromium).`);
  console.warn(`\n!!! BROWSER TESTS SKIPPED: no Chromium at ${CHROMIUM}. Enable them with: apt-get install -y chromium\n`);
  return false;
}

export interface E2eEnv {
  baseUrl: string;
  context: BrowserContext;
  page: Page;
  downloadsDir: string;
  /** Console errors, uncaught page errors and failed requests seen so far (a page test fails on them). */
  problems: string[];
  /** With the demo option: the demo content's accounts (login ids, the test's password) and row counts. */
  demo?: DemoResult;
  /** The server itself (a test that needs the job queue's workers starts them: env.app.jobs.start()). */
  app: FastifyInstance;
  /** The test server (its database and settings, for fixtures that write rows). */
  srv: TestServer;
  /** The socket server, attached as main.ts does: pages get their socket events (messages, notifications). */
  realtime: Realtime;
  /** A second person: another browser profile (own session) with its page and its own problems list. */
  newPerson(): Promise<E2ePerson>;
  close(): Promise<void>;
}

export interface E2ePerson {
  context: BrowserContext;
  page: Page;
  problems: string[];
}

const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Console errors, uncaught page errors and failed requests of a page, into problems. */
function watchProblems(page: Page, problems: string[]): void {
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  // An uncaught exception is what a clerk sees as 'Something went wrong': always a failure.
  page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
  page.on('requestfailed', (r) => {
    // Navigations cancel in-flight requests on purpose (spec: pending requests are cancelled).
    if (r.failure()?.errorText !== 'net::ERR_ABORTED') problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`);
  });
}

export interface E2eOptions {
  /**
   * Add the demo school and college (as the first start of `npm start` does). A test that signs in as
   * TEACHER, ACCOUNTANT or LIBRARIAN chooses their one password here (the product has no fixed one);
   * without it each gets a random one, found in `demo.accounts`.
   */
  demo?: { password?: string };
  /** Server settings besides the test defaults (e.g. backupRoot, uploadDir). */
  server?: Partial<Config>;
}

/** The real server (built web app, fresh in-memory database with the minimal seed, or the demo) and a fresh browser. */
export async function startE2e(options: E2eOptions = {}): Promise<E2eEnv> {
  if (!existsSync(join(webDist, 'index.html'))) throw new Error('Build the web app first: npm run build');
  const srv = await startTestServer('pglite', { webDist, ...options.server });
  const profile = mkdtempSync(join(tmpdir(), 'campus-chromium-'));
  const downloadsDir = mkdtempSync(join(tmpdir(), 'campus-downloads-'));
  // The browser starts while the demo is written (seconds on two cores), not after it.
  const [context, demo] = await Promise.all([
    chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      acceptDownloads: true,
      downloadsPath: downloadsDir,
      viewport: { width: 1366, height: 800 },
      args: CHROMIUM_ARGS,
    }),
    // Generated here rather than through startTestServer's demo flag, which has no password option: the
    // generator is the one the first start runs, and it only writes rows, so doing it after the app is
    // built and before anyone signs in is the same as at start-up.
    options.demo ? generateDemo(srv.database.db, { password: options.demo.password }) : undefined,
  ]);
  if (demo && !demo.created) throw new Error('the demo content was not created');
  const app = srv.app;
  // Every browser test runs with the socket server, as the product does (main.ts attaches it before listen).
  const realtime = await attachRealtime(app, srv.database.db, srv.cfg);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const page = context.pages()[0] ?? (await context.newPage());
  const problems: string[] = [];
  watchProblems(page, problems);
  const others: { context: BrowserContext; profile: string }[] = [];
  return {
    baseUrl,
    context,
    page,
    downloadsDir,
    problems,
    demo,
    app,
    srv,
    realtime,
    async newPerson() {
      const otherProfile = mkdtempSync(join(tmpdir(), 'campus-chromium-'));
      const other = await chromium.launchPersistentContext(otherProfile, { executablePath: CHROMIUM, headless: true, viewport: { width: 1366, height: 800 }, args: CHROMIUM_ARGS });
      others.push({ context: other, profile: otherProfile });
      const otherPage = other.pages()[0] ?? (await other.newPage());
      const otherProblems: string[] = [];
      watchProblems(otherPage, otherProblems);
      return { context: other, page: otherPage, problems: otherProblems };
    },
    async close() {
      for (const o of others) await o.context.close().catch(() => undefined);
      await context.close();
      // Open websockets would hold the HTTP server's close.
      realtime.disconnectAll();
      await srv.close();
      await realtime.close();
      for (const o of others) rmSync(o.profile, { recursive: true, force: true });
      rmSync(profile, { recursive: true, force: true });
      rmSync(downloadsDir, { recursive: true, force: true });
    },
  };
}

export async function signIn(env: E2eEnv, usr = 'ADMIN', pwd = ADMIN_PASSWORD): Promise<void> {
  const { page, baseUrl } = env;
  await page.goto(`${baseUrl}/login`);
  await typeInto(page.locator('input[name="usr_nm"]'), usr);
  await typeInto(page.locator('input[name="usr_pwd"]'), pwd);
  await page.locator('button[type="submit"]').click();
  await page.waitForURL((u) => !u.pathname.startsWith('/login'), { timeout: 15_000 });
}

/**
 * Types text the way a person does: clears the box, then one key at a time, so that every keystroke's
 * re-render runs (a paste once hid a counter that crashed on the second key).
 */
export async function typeInto(target: Locator, text: string): Promise<void> {
  await target.click();
  await target.press('ControlOrMeta+a');
  await target.press('Backspace');
  await target.pressSequentially(text, { delay: 15 });
}
