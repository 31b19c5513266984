import { hasRoute, writableFields, type AnyEntity, type Field } from '@campus/entities/define';
import { pages, type PageDef } from '@campus/entities/pages';
import { findEntity } from '@campus/entities/registry';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { successToastMessage } from '../apps/web/src/lib/http-rules';
import { api, apiLogin, type ApiSession } from './api-client';
import { ADMIN_PASSWORD, browserAvailable, signIn, startE2e, typeInto, type E2eEnv } from './browser-harness';

/*
 * The generic form as an office uses it, on the demo school as ADMIN: the student form's dependent Section
 * dropdown, typed dates, the required-field toast in Tamil, and a walk through the create form of every page
 * the engine draws (every required field typed or picked, saved, reopened and compared).
 */

const SHOTS = mkdtempSync(join(tmpdir(), 'campus-form-engine-shots-'));
const STUDENT_CREATE = '/sms/student/profile/create';
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Pages whose create screen is hand-written (apps/web/src/app/workflow-forms.ts): not the engine's form. */
const WORKFLOW_CREATE: Readonly<Record<string, string>> = {
  'reports/custom_report': 'the report editor is a workflow screen (entity, columns, filters), tested by its own e2e',
  'fee/quick_fee_collection': 'the fee counter is a workflow screen (fee-counter.e2e.ts)',
  'user_permission/permission': 'the permission editor is a workflow screen',
  'student/attendance': 'attendance is marked on a register sheet (workflow)',
  'student/interchange': 'interchange moves students in bulk (workflow)',
  'exam/mark_list': 'marks are entered on a sheet per exam (workflow)',
  'features/notification': 'the rule editor is a workflow screen (entity, fields, conditions), tested by notification-bell.e2e.ts',
};

/**
 * What a person types into a text field whose right value the form cannot tell from the field itself: a
 * widget names an entity of the registry, checked on save (any other text is refused with a sentence).
 */
const TYPED: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'features/widget': { wdgt_ent: 'religion' },
};

const pathname = (page: Page): string => new URL(page.url()).pathname;

/** Moves the loaded app to a path as its own links do (no reload: two cores, sixty forms). */
async function open(page: Page, baseUrl: string, path: string): Promise<void> {
  if (!page.url().startsWith('http') || pathname(page) === '/login') {
    await page.goto(`${baseUrl}${path}`);
    return;
  }
  await page.evaluate(`history.pushState(null, '', ${JSON.stringify(path)}); dispatchEvent(new PopStateEvent('popstate'));`);
}

const form = (page: Page): Locator => page.getByTestId('entity-form');
const toasts = (page: Page): Locator => page.locator('.mantine-Notifications-root .mantine-Notification-description');
const visibleOptions = (page: Page): Locator => page.locator('[role="option"]:visible');

async function waitForForm(page: Page): Promise<void> {
  await form(page).locator('input').first().waitFor({ timeout: 15_000 });
  await expect.poll(() => form(page).locator('.mantine-Skeleton-root').count(), { timeout: 10_000 }).toBe(0);
}

async function closeToasts(page: Page): Promise<void> {
  for (const b of await page.locator('.mantine-Notifications-root button.mantine-Notification-closeButton, .mantine-Notifications-root .mantine-CloseButton-root').all()) {
    await b.click({ timeout: 1000 }).catch(() => undefined);
  }
  await expect.poll(() => toasts(page).count(), { timeout: 8_000 }).toBe(0);
}

/**
 * Opens a dropdown, types (when it searches) and picks the option named `want`, or the one `choose` points at
 * among those first offered. Options are found by their name, so a list redrawn by a late search answer
 * is waited for rather than clicked stale. Returns the picked option's text.
 */
async function pick(page: Page, input: Locator, want: string | ((texts: string[]) => number), prefer?: string): Promise<string> {
  await input.click();
  await visibleOptions(page).first().waitFor({ timeout: 10_000 });
  const searchable = (await input.getAttribute('readonly')) === null;
  const texts = async (): Promise<string[]> => (await visibleOptions(page).allTextContents()).map((s) => s.trim());
  let name: string | undefined = typeof want === 'string' ? want : undefined;
  if (name === undefined && prefer && searchable) {
    // Looked for by name, as a clerk types the name of the row they just made.
    await typeInto(input, prefer);
    const mine = await expect
      .poll(async () => (await texts()).filter((t) => t.includes(prefer)), { timeout: 3_000 })
      .not.toEqual([])
      .then(async () => (await texts()).filter((t) => t.includes(prefer)))
      .catch(() => [] as string[]);
    name = mine.at(-1);
    if (name === undefined) {
      await typeInto(input, '');
      await visibleOptions(page).first().waitFor({ timeout: 10_000 });
    }
  }
  if (name === undefined && typeof want !== 'string') {
    const offered = await texts();
    name = offered[want(offered)];
  }
  if (name === undefined) throw new Error('nothing to pick');
  if (searchable) await typeInto(input, name.slice(0, 3));
  // Two rows may read alike (two children named the same): any of them is what a person would take.
  await page.getByRole('option', { name, exact: true }).first().click();
  return name;
}

/** Day-month-year as people type it, and the form's display of the same day (spec section 9: YYYY/MMM/DD). */
function typedDate(d: Date): { typed: string; shown: string; iso: string } {
  const dd = String(d.getDate()).padStart(2, '0');
  const mm = String(d.getMonth() + 1).padStart(2, '0');
  return { typed: `${dd}/${mm}/${d.getFullYear()}`, shown: `${d.getFullYear()}/${MONTHS[d.getMonth()]}/${dd}`, iso: `${d.getFullYear()}-${mm}-${dd}` };
}

describe.runIf(browserAvailable())('the generic form as an office uses it (Chromium, demo school, ADMIN)', () => {
  let env: E2eEnv;
  let admin: ApiSession;

  beforeAll(async () => {
    console.log(`form-engine screenshots: ${SHOTS}`);
    env = await startE2e({ demo: {} });
    env.page.on('response', (r) => {
      if (r.status() >= 400) env.problems.push(`HTTP ${r.status()}: ${r.request().method()} ${r.url()}`);
    });
    admin = await apiLogin(env.baseUrl, 'ADMIN', ADMIN_PASSWORD);
    await signIn(env);
  });
  afterAll(async () => env?.close());

  const sectionsOf = async (clsNm: string): Promise<string[]> => {
    const where = { module: 'class_section', page: 'section' };
    const classes = await api<{ rows: { cls_cd: number; cls_nm: string }[] }>(env.baseUrl, admin, 'GET', `/api/class/?q=${encodeURIComponent(clsNm)}&size=50`, where);
    const cls = classes.json.rows.find((c) => c.cls_nm === clsNm);
    if (!cls) throw new Error(`no class ${clsNm} in the demo`);
    const secs = await api<{ rows: { sec_nm: string }[] }>(env.baseUrl, admin, 'GET', `/api/section/?f_cls_cd=${cls.cls_cd}&size=50`, where);
    return secs.json.rows.map((s) => s.sec_nm).sort();
  };

  it('student form: the Section dropdown waits for the class, offers only its sections, and clears when the class changes', async () => {
    const { page, baseUrl } = env;
    const from = env.problems.length;
    await open(page, baseUrl, STUDENT_CREATE);
    await waitForForm(page);
    const section = page.locator('input#sec_cd');
    await expect.poll(() => section.getAttribute('placeholder')).toBe('Choose the Class first');
    expect(await section.isDisabled()).toBe(true);

    expect(await pick(page, page.locator('input#cls_cd'), 'VI')).toBe('VI');
    await expect.poll(() => section.isDisabled()).toBe(false);
    await section.click();
    await visibleOptions(page).first().waitFor({ timeout: 10_000 });
    const offered = (await visibleOptions(page).allTextContents()).map((s) => s.trim()).sort();
    expect(offered).toEqual(await sectionsOf('VI'));
    expect(offered.length).toBeGreaterThan(0);
    await visibleOptions(page).first().click();
    expect(await section.inputValue()).toBe(offered[0]);

    // Another class: the chosen section belonged to VI, so it is emptied and VII's are offered.
    expect(await pick(page, page.locator('input#cls_cd'), 'VII')).toBe('VII');
    await expect.poll(() => section.inputValue()).toBe('');
    await section.click();
    await visibleOptions(page).first().waitFor({ timeout: 10_000 });
    await expect.poll(async () => (await visibleOptions(page).allTextContents()).map((s) => s.trim()).sort()).toEqual(await sectionsOf('VII'));
    await page.keyboard.press('Escape');
    expect(env.problems.slice(from)).toEqual([]);
  });

  it('in Tamil, saving an empty form toasts the Tamil sentence with the Tamil label', async () => {
    const { page, baseUrl } = env;
    const from = env.problems.length;
    await open(page, baseUrl, STUDENT_CREATE);
    await waitForForm(page);
    await closeToasts(page);
    await pick(page, page.locator('input[aria-label="Language"]:visible'), 'தமிழ்');
    await expect.poll(() => page.evaluate('document.documentElement.lang')).toBe('ta');
    await page.getByTestId('btn-save').click();
    await expect.poll(async () => (await toasts(page).allTextContents()).join(' | ')).toBe("'மாணவரின் பெயர்' ஐ உள்ளிடவும்.");
    // The toast slides in: photograph it once it has settled.
    await page.locator('.mantine-Notifications-root .mantine-Notification-root').first().evaluate((el) => el.getAnimations().map((an) => an.finished));
    await page.waitForTimeout(400);
    await page.screenshot({ path: join(SHOTS, 'student-create--tamil-toast.png') });
    await closeToasts(page);
    await pick(page, page.locator('input[aria-label="மொழி"]:visible'), 'English');
    await expect.poll(() => page.evaluate('document.documentElement.lang')).toBe('en');
    expect(env.problems.slice(from)).toEqual([]);
  });
  it('a Book Issue opens in view with the titles issued and without an Edit button (issues are written by the issue workflow only)', async () => {
    const { page, baseUrl } = env;
    const from = env.problems.length;
    const issues = await api<{ rows: { bk_chk_cd: number; bk_chk_usr_nm: string; bk_chk_bk_nms: string | null }[] }>(env.baseUrl, admin, 'GET', '/api/bookcheckout/?size=1', { module: 'library', page: 'book_checkout' });
    const issue = issues.json.rows[0];
    // The slip names real books of the library, not codes.
    const books = await api<{ rows: { bk_nm: string }[] }>(env.baseUrl, admin, 'GET', '/api/book/?size=100', { module: 'library', page: 'book' });
    expect(books.json.rows.some((b) => issue.bk_chk_bk_nms?.startsWith(b.bk_nm))).toBe(true);
    await open(page, baseUrl, `/sms/library/book_checkout/view/${issue.bk_chk_cd}`);
    await form(page).getByText(issue.bk_chk_usr_nm, { exact: true }).waitFor({ timeout: 15_000 });
    await form(page).getByText(issue.bk_chk_bk_nms ?? '(no titles)', { exact: true }).waitFor({ timeout: 5_000 });
    expect(await page.getByTestId('btn-edit').count()).toBe(0);
    // Ctrl+E, the edit shortcut of a view, leads nowhere either.
    await page.keyboard.press('Control+e');
    await page.waitForTimeout(300);
    expect(pathname(page)).toBe(`/sms/library/book_checkout/view/${issue.bk_chk_cd}`);
    expect(env.problems.slice(from)).toEqual([]);
  });

  it('student form: the date of joining starts at today and takes a typed date; a wrong one is named, not a crash', async () => {
    const { page, baseUrl } = env;
    const from = env.problems.length;
    await open(page, baseUrl, STUDENT_CREATE);
    await waitForForm(page);
    const doj = page.locator('input#stud_doj');
    expect(await doj.inputValue()).toBe(typedDate(new Date()).shown);
    await typeInto(doj, '31/02/2024');
    await page.keyboard.press('Tab');
    await form(page).getByText("'Date of Joining' is not a valid date. Type it as 2014/Mar/25 or 25/03/2014.").waitFor();
    await typeInto(doj, '03-06-2024');
    await page.keyboard.press('Tab');
    await expect.poll(() => form(page).getByText("'Date of Joining' is not a valid date.", { exact: false }).count()).toBe(0);
    // Read day first, and shown back in the display format once the box is left.
    expect(await doj.inputValue()).toBe('2024/Jun/03');

    // The student form as a clerk leaves it before saving, with the Section dropdown open.
    await pick(page, page.locator('input#cls_cd'), 'VI');
    await page.locator('input#sec_cd').click();
    await visibleOptions(page).first().waitFor({ timeout: 10_000 });
    await page.screenshot({ path: join(SHOTS, 'student-create--1366.png'), fullPage: true });
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 375, height: 800 });
    await page.locator('input#sec_cd').scrollIntoViewIfNeeded();
    await page.locator('input#sec_cd').click();
    await visibleOptions(page).first().waitFor({ timeout: 10_000 });
    await page.screenshot({ path: join(SHOTS, 'student-create--375.png') });
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 1366, height: 800 });
    expect(env.problems.slice(from)).toEqual([]);
  });

});

// ---------- the walk through every engine create form ----------

interface Filled {
  name: string;
  label: string;
  /** What the update form must show for it once the record is reopened. */
  expected: string;
}

/**
 * Pages whose create mode is the engine's form, a page after the pages of the rows it links to: the walk's
 * own class, section, exam type... exist before the forms that pick them, so a timetable or an exam is made
 * for a section of its own instead of clashing with the demo's (one timetable per section).
 */
const walkPages = ((): { pg: PageDef; e: AnyEntity }[] => {
  const all = pages
    .map((pg) => ({ pg, e: pg.entity ? findEntity(pg.entity) : undefined }))
    .filter((x): x is { pg: PageDef; e: AnyEntity } => !!x.e && hasRoute(x.e, 'create') && hasRoute(x.e, 'get'));
  const made = new Set(all.map((x) => x.e.name));
  const needs = (e: AnyEntity): string[] =>
    requiredFields(e).flatMap(([, f]) => (f.kind === 'link' && f.to !== e.name && made.has(f.to) ? [f.to] : []));
  const out: { pg: PageDef; e: AnyEntity }[] = [];
  const placed = new Set<string>();
  let rest = all;
  while (rest.length) {
    const ready = rest.filter((x) => needs(x.e).every((t) => placed.has(t)));
    // A cycle (none today) would leave the rest in declaration order.
    const next = ready.length ? ready : rest;
    for (const x of next) {
      out.push(x);
      placed.add(x.e.name);
    }
    rest = rest.filter((x) => !next.includes(x));
  }
  return out;
})();

/** A fixed choice per page among the offered rows, so reruns pick the same and pages spread over the rows. */
const spread = (key: string, n: number): number => [...key].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 9973, 7) % n;

/** Required inputs in form order, a dependent link after the partner it waits for. */
function requiredFields(e: AnyEntity): [string, Field][] {
  const req = writableFields(e).filter(([, f]) => f.required && !f.formHidden && f.kind !== 'bool');
  const waits = (f: Field): boolean => f.kind === 'link' && !!f.within;
  return [...req.filter(([, f]) => !waits(f)), ...req.filter(([, f]) => waits(f))];
}

/** The last Sunday before today: no demo attendance, trip or holiday falls on it. */
function walkDay(): Date {
  const d = new Date();
  d.setDate(d.getDate() - 7 - d.getDay());
  return d;
}

async function fill(page: Page, pg: PageDef, e: AnyEntity, tag: string, runTag: string, only: [string, Field][] = requiredFields(e)): Promise<Filled[]> {
  const out: Filled[] = [];
  const numbers = new Map<string, string>();
  for (const [name, f] of only) {
    const input = form(page).locator(`[id="${name}"]`).first();
    const label = f.label;
    switch (f.kind) {
      case 'text':
      case 'password': {
        const typed =
          TYPED[`${pg.module}/${pg.page}`]?.[name] ??
          (f.kind === 'password'
            ? 'Walk-Pass-2468'
            : f.format === 'email'
              ? `walk${tag.toLowerCase()}@school.example`
              : f.format === 'phone'
                ? '98765 43210'
                : f.format === 'upper-code'
                  ? `W${tag}`
                  : `Walk ${tag}`.slice(0, f.max));
        await typeInto(input, typed);
        if (f.kind === 'text') out.push({ name, label, expected: f.format === 'phone' ? '+91 98765 43210' : typed });
        break;
      }
      case 'number': {
        const partner = f.notAbove ? numbers.get(f.notAbove) : undefined;
        const typed = partner ?? String(Math.min(f.max, Math.max(f.min, 5)));
        numbers.set(name, typed);
        await typeInto(input, typed);
        out.push({ name, label, expected: typed });
        break;
      }
      case 'money':
        await typeInto(input, '250');
        await page.keyboard.press('Tab');
        out.push({ name, label, expected: '250.00' });
        break;
      case 'date': {
        const d = typedDate(walkDay());
        await typeInto(input, d.typed);
        await page.keyboard.press('Tab');
        out.push({ name, label, expected: d.shown });
        break;
      }
      case 'time':
        await input.click();
        await page.keyboard.type('103000A', { delay: 20 });
        out.push({ name, label, expected: '10:30:00' });
        break;
      case 'select':
      case 'link': {
        const current = await input.inputValue();
        if (current !== '' && f.kind === 'select') {
          out.push({ name, label, expected: current });
          break;
        }
        // A row this walk made (its name carries the walk's tag) is picked first; else a fixed spread.
        const want = await pick(page, input, (texts) => spread(`${pg.module}/${pg.page}/${name}`, texts.length), f.kind === 'link' ? `Walk ${runTag}` : undefined);
        if (f.kind === 'select' && f.multiple) await page.keyboard.press('Escape');
        out.push({ name, label, expected: want });
        break;
      }
      default:
        throw new Error(`${e.name}.${name}: the walk cannot fill a required ${f.kind} field`);
    }
  }
  return out;
}

/** What an input shows: a multiple select's pills, any other input's value. */
async function shown(page: Page, name: string, f: Field): Promise<string> {
  if (f.kind === 'select' && f.multiple) {
    const root = form(page).locator(`[id="${name}"]`).first().locator('xpath=ancestor::div[contains(@class,"mantine-MultiSelect-root") or contains(@class,"mantine-InputWrapper-root")][1]');
    return (await root.locator('.mantine-Pill-label').allTextContents()).join(',');
  }
  return form(page).locator(`[id="${name}"]`).first().inputValue();
}

describe.runIf(browserAvailable())('every engine create form, walked as ADMIN on the demo (Chromium)', () => {
  let env: E2eEnv;
  let n = 0;
  const runTag = Date.now().toString(36).slice(-4).toUpperCase();

  beforeAll(async () => {
    env = await startE2e({ demo: {} });
    env.page.on('response', (r) => {
      if (r.status() >= 400) env.problems.push(`HTTP ${r.status()}: ${r.request().method()} ${r.url()}`);
    });
    await signIn(env);
  });
  afterAll(async () => env?.close());

  it('has engine forms to walk and names the hand-written ones it skips', () => {
    const skipped = walkPages.filter(({ pg }) => WORKFLOW_CREATE[`${pg.module}/${pg.page}`]);
    expect(walkPages.length - skipped.length).toBeGreaterThan(40);
    for (const { pg } of skipped) console.log(`walk skips ${pg.module}/${pg.page}: ${WORKFLOW_CREATE[`${pg.module}/${pg.page}`]}`);
  });

  it.each(walkPages.filter(({ pg }) => !WORKFLOW_CREATE[`${pg.module}/${pg.page}`]).map((x) => [`${x.pg.module}/${x.pg.page}`, x] as const))(
    '%s: create by typing and picking, save, reopen',
    async (path, { pg, e }) => {
      const { page, baseUrl } = env;
      const from = env.problems.length;
      await open(page, baseUrl, `/sms/${path}/create`);
      await waitForForm(page);
      await closeToasts(page);
      const filled = await fill(page, pg, e, `${runTag}${n++}`, runTag);
      let res: Response | null = null;
      let refused = 0;
      // A rule beyond 'required' (a transfer certificate needs its conduct) is read off the answer as a
      // person reads the toast: the field it names by label is filled and the form saved again.
      for (let round = 0; round < 3; round++) {
        const saved = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname.startsWith('/api/') && !r.url().includes('/upload'), { timeout: 15_000 });
        await page.getByTestId('btn-save').click();
        res = await saved;
        if (res.status() !== 400) break;
        const body = (await res.json()) as { message: string; details?: { field: string }[] };
        const named = writableFields(e).filter(
          ([name, f]) => !filled.some((x) => x.name === name) && (body.details?.some((d) => d.field === name) || body.message.includes(`'${f.label}'`)),
        );
        if (named.length === 0) break;
        console.log(`walk ${path}: '${body.message}' -> filling ${named.map(([x]) => x).join(', ')}`);
        refused++;
        await closeToasts(page);
        filled.push(...(await fill(page, pg, e, `${runTag}${n++}`, runTag, named)));
      }
      if (!res) throw new Error(`${path}: nothing was saved`);
      expect(res.status(), `${path}: ${await res.text()} after ${JSON.stringify(filled)}`).toBe(201);
      const id = String(((await res.json()) as Record<string, unknown>)[e.key]);
      // Spec section 8: the success toast, except on the URLs that never get one.
      const done = successToastMessage('POST', res.url());
      if (done) await expect.poll(async () => (await toasts(page).allTextContents()).join(' | ')).toBe(done);
      await page.waitForURL((u) => u.pathname.endsWith('/table'), { timeout: 15_000 });

      await open(page, baseUrl, `/sms/${path}/update/${id}`);
      await waitForForm(page);
      for (const f of filled) {
        const field = e.fields[f.name];
        await expect
          .poll(async () => {
            const v = await shown(page, f.name, field);
            // A section picked as 'VI - A' (no class beside it) reads 'A' next to its class once saved.
            return v !== f.expected && f.expected.endsWith(` - ${v}`) ? f.expected : v;
          }, { message: `${path}: ${f.label}`, timeout: 10_000 })
          .toBe(f.expected);
      }
      // The refusals the walk answered by filling the named field are the form working, not a fault.
      const answered = (p: string): boolean => p.startsWith('HTTP 400: POST') || p.includes('status of 400 (Bad Request)');
      const problems = env.problems.slice(from);
      expect(problems.filter(answered).length).toBe(refused * 2);
      expect(problems.filter((p) => !answered(p))).toEqual([]);
    },
  );
});
