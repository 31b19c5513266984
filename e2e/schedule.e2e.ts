import { mkdirSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiLogin, type ApiSession } from './api-client';
import { ADMIN_PASSWORD, browserAvailable, signIn, startE2e, type E2eEnv } from './browser-harness';

/*
 * The schedule on the demo school, as the administrator: a month with a holiday and an exam shows both; a
 * click on a free day, a title typed key by key and Enter add an own entry; dragging it to another day moves
 * it (the server has the new day after a reload); its dialog deletes it. Screenshots wide and at 375 px.
 */

const SHOTS = process.env.SHOTS_DIR ?? '/tmp/shots/schedule';
/** Chosen by the test for the demo accounts: the product has no fixed password. */
const DEMO_PASSWORD = 'Demo-Schedule-Pass-7';
const WHERE = { module: 'schedule', page: 'table' };

interface Entry {
  id: string;
  kind: string;
  key: number;
  title: string;
  start: string;
  end: string;
}

const iso = (d: Date): string => d.toISOString().slice(0, 10);
const monthEnd = (month: string): string => iso(new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)));

/** Days of the month that no entry touches, in order. */
function freeDays(month: string, entries: readonly Entry[]): string[] {
  const out: string[] = [];
  for (let d = new Date(`${month}-01T00:00:00Z`); iso(d) <= monthEnd(month); d = new Date(d.getTime() + 86_400_000)) {
    const day = iso(d);
    if (!entries.some((e) => e.start <= day && e.end >= day)) out.push(day);
  }
  return out;
}

const dayCell = (page: Page, day: string): Locator => page.locator(`td.fc-daygrid-day[data-date="${day}"]`);
const entryOf = (page: Page, title: string): Locator => page.locator('.fc-event', { hasText: title });

/** A point in a day cell's lower part: below the day number, whose link opens the day view instead. */
async function cellPoint(cell: Locator): Promise<{ x: number; y: number }> {
  const box = await cell.boundingBox();
  if (!box) throw new Error('day cell not on screen');
  return { x: box.x + box.width / 2, y: box.y + box.height - 12 };
}

describe.runIf(browserAvailable())('schedule: month view, own entries added, dragged and deleted (Chromium)', () => {
  let env: E2eEnv;
  let admin: ApiSession;
  let month: string;
  let entries: Entry[];

  const schedule = async (from: string, to: string): Promise<Entry[]> => {
    const got = await api<{ events: Entry[] }>(env.baseUrl, admin, 'GET', `/api/schedule/?from=${from}&to=${to}`, WHERE);
    expect(got.status).toBe(200);
    return got.json.events;
  };

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    env = await startE2e({ demo: { password: DEMO_PASSWORD } });
    admin = await apiLogin(env.baseUrl, 'ADMIN', ADMIN_PASSWORD);
    // The demo year's first month with a holiday, an exam and two free days (one to add on, one to drag to).
    const holidays = await api<{ rows: { hly_frm_dt: string }[] }>(env.baseUrl, admin, 'GET', '/api/holiday/?size=500', { module: 'institute', page: 'holiday' });
    const months = [...new Set(holidays.json.rows.map((h) => h.hly_frm_dt.slice(0, 7)))].sort();
    for (const m of months) {
      const got = await schedule(`${m}-01`, monthEnd(m));
      if (got.some((e) => e.kind === 'holiday') && got.some((e) => e.kind === 'exam') && freeDays(m, got).length >= 2) {
        month = m;
        entries = got;
        break;
      }
    }
    expect(month, 'a demo month with a holiday and an exam').toBeDefined();
    await signIn(env);
  });
  afterAll(async () => env?.close());

  it('shows a holiday and an exam of the month', async () => {
    const { page } = env;
    await page.goto(`${env.baseUrl}/sms/schedule/table?date=${month}-15&view=dayGridMonth`);
    await page.locator('.fc-daygrid-day').first().waitFor();
    // A holiday on a day with room for all its entries (a day with many shows '+N more').
    const roomy = entries.filter((e) => e.kind === 'holiday' && entries.filter((o) => o.start <= e.start && o.end >= e.start).length <= 3);
    const holiday = roomy[0] ?? entries.find((e) => e.kind === 'holiday')!;
    await expect.poll(() => entryOf(page, holiday.title).first().isVisible(), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => page.locator('.fc-event.schedule-exam').first().isVisible()).toBe(true);
    await page.screenshot({ path: `${SHOTS}/schedule-month-wide.png`, fullPage: true });
    // The legend's chips hide and show a kind.
    await page.getByRole('checkbox', { name: 'Exam' }).press('Space');
    await expect.poll(() => page.locator('.fc-event.schedule-exam').count()).toBe(0);
    expect(await entryOf(page, holiday.title).first().isVisible()).toBe(true);
    await page.getByRole('checkbox', { name: 'Exam' }).press('Space');
    await expect.poll(() => page.locator('.fc-event.schedule-exam').first().isVisible()).toBe(true);
    // A click on the holiday opens its row's view page.
    await entryOf(page, holiday.title).first().click();
    await page.waitForURL((u) => u.pathname === `/sms/institute/holiday/view/${holiday.key}`, { timeout: 15_000 });
  });

  it('adds an own entry with a click and the keyboard, moves it by dragging, and deletes it', async () => {
    const { page } = env;
    const [day, target] = freeDays(month, entries);
    const title = `Parents meeting ${Date.now().toString(36)}`;
    await page.goto(`${env.baseUrl}/sms/schedule/table?date=${month}-15&view=dayGridMonth`);
    await dayCell(page, day).waitFor();
    const at = await cellPoint(dayCell(page, day));
    await page.mouse.click(at.x, at.y);
    const box = page.getByRole('dialog').getByRole('textbox', { name: /Title/ });
    await box.waitFor();
    await box.pressSequentially(title, { delay: 15 });
    const created = page.waitForResponse((r) => r.url().includes('/api/schedule/event/') && r.request().method() === 'POST');
    await box.press('Enter');
    expect((await created).status()).toBe(201);
    await expect.poll(() => dayCell(page, day).locator('.fc-event', { hasText: title }).count(), { timeout: 15_000 }).toBe(1);
    // The dialog's overlay fades out before the calendar takes the mouse again.
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    await page.screenshot({ path: `${SHOTS}/schedule-own-entry.png` });

    // Drag it, with the mouse held down, from its day to the target day.
    const from = await entryOf(page, title).boundingBox();
    const to = await cellPoint(dayCell(page, target));
    if (!from) throw new Error('entry not on screen');
    const moved = page.waitForResponse((r) => r.url().includes('/api/schedule/event/') && r.request().method() === 'PUT');
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2 + 5, from.y + from.height / 2 + 5, { steps: 3 });
    await page.mouse.move(to.x, to.y, { steps: 15 });
    await page.mouse.up();
    expect((await moved).status()).toBe(200);
    await page.reload();
    await expect.poll(() => dayCell(page, target).locator('.fc-event', { hasText: title }).count(), { timeout: 15_000 }).toBe(1);
    expect(await dayCell(page, day).locator('.fc-event', { hasText: title }).count()).toBe(0);
    const stored = (await schedule(`${month}-01`, monthEnd(month))).filter((e) => e.title === title);
    expect(stored.map((e) => [e.kind, e.start, e.end])).toEqual([['own', target, target]]);

    // Its dialog deletes it.
    await entryOf(page, title).click();
    const deleted = page.waitForResponse((r) => r.url().includes('/api/schedule/event/') && r.request().method() === 'DELETE');
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    expect((await deleted).status()).toBe(200);
    await expect.poll(() => entryOf(page, title).count(), { timeout: 15_000 }).toBe(0);
    expect((await schedule(`${month}-01`, monthEnd(month))).filter((e) => e.title === title)).toEqual([]);
  });

  it('switches views with its buttons and opens a list on a phone', async () => {
    const { page } = env;
    await page.goto(`${env.baseUrl}/sms/schedule/table?date=${month}-15&view=dayGridMonth`);
    await page.locator('.fc-daygrid-day').first().waitFor();
    await page.getByText('Week', { exact: true }).click();
    await page.locator('.fc-timegrid').waitFor();
    // Dragging over 10:00-11:00 of a day asks for a timed entry at those times.
    await page.locator('.fc-timegrid-slot-lane[data-time="10:30:00"]').scrollIntoViewIfNeeded();
    const col = await page.locator('.fc-timegrid-col[data-date]').nth(2).boundingBox();
    const ten = await page.locator('.fc-timegrid-slot-lane[data-time="10:00:00"]').boundingBox();
    const half = await page.locator('.fc-timegrid-slot-lane[data-time="10:30:00"]').boundingBox();
    if (!col || !ten || !half) throw new Error('week grid not on screen');
    const x = col.x + col.width / 2;
    // A click on 10:00 asks for half an hour; dragging on to 10:30 stretches it to 11:00.
    await page.mouse.click(x, ten.y + ten.height / 2);
    await expect.poll(() => page.getByTestId('schedule-entry-when').textContent(), { timeout: 10_000 }).toMatch(/10:00 - 10:30$/);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    await page.mouse.move(x, ten.y + ten.height / 2);
    await page.mouse.down();
    for (let y = ten.y + ten.height / 2; y <= half.y + half.height / 2; y += 4) await page.mouse.move(x, y);
    await page.mouse.up();
    await expect.poll(() => page.getByTestId('schedule-entry-when').textContent(), { timeout: 10_000 }).toMatch(/10:00 - 11:00$/);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    await page.getByText('Day', { exact: true }).click();
    await expect.poll(() => page.locator('.fc-timeGridDay-view').count()).toBe(1);
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto(`${env.baseUrl}/sms/schedule/table?date=${month}-15`);
    await page.locator('.fc-list').waitFor({ timeout: 15_000 });
    await page.screenshot({ path: `${SHOTS}/schedule-list-375.png`, fullPage: true });
    await page.setViewportSize({ width: 1366, height: 800 });

    // In Tamil the month and the day names are Tamil's (the language is the browser's stored choice).
    await page.evaluate(() => localStorage.setItem('campus.language', 'tamil'));
    await page.goto(`${env.baseUrl}/sms/schedule/table?date=${month}-15&view=dayGridMonth`);
    await expect.poll(() => page.getByTestId('schedule-heading').textContent(), { timeout: 15_000 }).toMatch(/[\u0B80-\u0BFF]/);
    expect(await page.locator('.fc-col-header-cell').first().textContent()).toMatch(/[\u0B80-\u0BFF]/);
    await page.screenshot({ path: `${SHOTS}/schedule-month-tamil.png` });
    await page.evaluate(() => localStorage.setItem('campus.language', 'english'));
    expect(env.problems).toEqual([]);
  });

  it("shows the demo teacher the exams of his own sections only, and his own entries", async () => {
    const { page } = env;
    const teacher = await apiLogin(env.baseUrl, 'TEACHER', DEMO_PASSWORD);
    const got = await api<{ events: (Entry & { keys: number[] })[] }>(env.baseUrl, teacher, 'GET', `/api/schedule/?from=${month}-01&to=${monthEnd(month)}`, WHERE);
    const all = entries.filter((e) => e.kind === 'exam') as (Entry & { keys?: number[] })[];
    const mine = got.json.events.filter((e) => e.kind === 'exam');
    // He teaches two sections: fewer exam rows than the school's, every one of them among the school's.
    const mineKeys = mine.flatMap((e) => e.keys);
    expect(mineKeys.length).toBeGreaterThan(0);
    expect(mineKeys.length).toBeLessThan(all.flatMap((e) => e.keys ?? []).length);
    expect(got.json.events.filter((e) => e.kind === 'own').every((e) => !entries.some((a) => a.id === e.id))).toBe(true);
    await signIn(env, 'TEACHER', DEMO_PASSWORD);
    await page.goto(`${env.baseUrl}/sms/schedule/table?date=${mine[0].start}&view=dayGridMonth`);
    await expect.poll(() => entryOf(page, mine[0].title).first().isVisible(), { timeout: 15_000 }).toBe(true);
    await page.screenshot({ path: `${SHOTS}/schedule-teacher-month.png` });
    expect(env.problems).toEqual([]);
  });
});
