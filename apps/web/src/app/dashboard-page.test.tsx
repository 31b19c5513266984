import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setAcademicYear, signIn } from '../lib/session-store';
import { adminUser } from '../test-support/fixtures';
import { jsonResponse, renderWithProviders, resetTestState, stubBrowser, stubFetch } from '../test-support/render-app';
import { countText, DashboardPage, moneyText } from './dashboard-page';

let body: unknown;
let widgets: unknown = { widgets: [] };

function renderDashboard() {
  renderWithProviders(<DashboardPage />, { route: '/sms/dashboard' });
}

const tile = (key: string): HTMLElement => screen.getByTestId(`dashboard-${key}`);

beforeEach(() => {
  stubBrowser();
  widgets = { widgets: [] };
  stubFetch(async (url) => {
    if (url.includes('/api/widget/data/')) return widgets instanceof Response ? widgets : jsonResponse(widgets);
    return jsonResponse(body);
  });
  window.history.pushState({}, '', '/sms/dashboard');
  signIn(adminUser);
  setAcademicYear({ acdm_cd: 3, label: '2026-27' });
});

afterEach(resetTestState);

describe('DashboardPage', () => {
  it('says "Not marked yet" for attendance and "Not set up" for the rest when the server answers null, never a zero', async () => {
    body = { students: null, employees: 12, attendanceToday: null, feesCollected: null };
    renderDashboard();
    expect(await within(tile('employees')).findByText('12')).toBeTruthy();
    expect(within(tile('attendance')).getByText('Not marked yet')).toBeTruthy();
    for (const key of ['students', 'fees']) expect(within(tile(key)).getByText('Not set up')).toBeTruthy();
    for (const key of ['students', 'attendance', 'fees']) expect(within(tile(key)).queryByText(/^0(\.00)?$/)).toBeNull();
  });

  it("hides the day's fee total from a user the server leaves it out for (no fee page)", async () => {
    body = { students: 600, employees: 40, attendanceToday: 512 };
    renderDashboard();
    expect(await within(tile('attendance')).findByText('512')).toBeTruthy();
    expect(screen.queryByTestId('dashboard-fees')).toBeNull();
  });

  it('shows money with 2 decimals in Indian grouping, rounded on the decimal string', async () => {
    // 0.285 as a float is 0.28499999...; the string must still round to 0.29.
    body = { students: 1500, employees: 0, attendanceToday: 0, feesCollected: '1234567.285' };
    renderDashboard();
    expect(await within(tile('fees')).findByText('12,34,567.29')).toBeTruthy();
    expect(within(tile('students')).getByText('1,500')).toBeTruthy();
    // A real zero (employees, attendance) is a count, not "not set up".
    expect(within(tile('attendance')).getByText('0')).toBeTruthy();
    expect(screen.queryByText('Not set up')).toBeNull();
  });

  it('says how to get a year when the institute has none active', async () => {
    setAcademicYear(null);
    body = { students: null, employees: 2, attendanceToday: null, feesCollected: null };
    renderDashboard();
    expect(await screen.findByTestId('no-active-year')).toBeTruthy();
    expect(screen.getByText(/open Institute > Academic Year to add or activate one/)).toBeTruthy();
  });
});

describe('dashboard widgets', () => {
  const base = { entity: 'student', page: 'sms/student/profile', money: false, empty: false };
  const card = (name: string): HTMLElement => {
    const el = screen.getAllByTestId(/^widget-\d+$/).find((c) => c.getAttribute('data-widget') === name);
    if (!el) throw new Error(`no widget ${name}`);
    return el;
  };

  it('draws each widget by its kind: counts, a chart, a list; no data in words, a failure on its own card', async () => {
    body = { students: 600, employees: 40, attendanceToday: 512 };
    widgets = {
      widgets: [
        { ...base, wdgt_cd: 1, wdgt_nm: 'Students by Class', kind: 'bar', points: [{ key: '1', label: 'VI', value: 40 }, { key: '2', label: 'VII', value: 38 }] },
        { ...base, wdgt_cd: 2, wdgt_nm: 'Fee Defaulters', kind: 'count', entity: 'fee_report', value: 17 },
        { ...base, wdgt_cd: 3, wdgt_nm: 'Fees Collected per Day', kind: 'line', entity: 'collected_fee', money: true, empty: true, points: [{ key: '2026-11-25', label: '2026-11-25', value: 0, amount: '0.00' }] },
        { ...base, wdgt_cd: 4, wdgt_nm: 'Upcoming Holidays', kind: 'list', entity: 'holiday', rows: [{ key: 9, title: 'Diwali', date: '2026-11-30', detail: 'Festival' }] },
        { ...base, wdgt_cd: 5, wdgt_nm: 'Broken', kind: 'count', page: null, empty: true, error: "'gone' is not an entity a widget can read." },
        { ...base, wdgt_cd: 6, wdgt_nm: 'Takings', kind: 'sum', money: true, value: '1234567.50', page: 'sms/fee/fee_collected', rule: { where: [{ field: 'fee_coll_sts', op: 'eq', value: 'Active' }], dateFilter: null } },
      ],
    };
    renderDashboard();
    expect(await within(await screen.findByTestId('widget-2')).findByText('17')).toBeTruthy();
    expect(within(card('Takings')).getByText('12,34,567.50')).toBeTruthy();
    // A window without a single bill says so; it is not drawn as a flat line of zeros.
    expect(within(card('Fees Collected per Day')).getByText('No data yet')).toBeTruthy();
    expect(within(card('Fees Collected per Day')).queryByTestId('widget-chart')).toBeNull();
    expect(within(card('Upcoming Holidays')).getByText('Diwali')).toBeTruthy();
    expect(within(card('Upcoming Holidays')).getByText('Festival')).toBeTruthy();
    expect(within(card('Broken')).getByText("'gone' is not an entity a widget can read.")).toBeTruthy();
    // The broken one does not take the others down: the chart comes from its own chunk.
    expect(await within(card('Students by Class')).findByTestId('widget-chart', {}, { timeout: 5000 })).toBeTruthy();
    expect(within(card('Students by Class')).getByRole('link', { name: 'Open' }).getAttribute('href')).toBe('/sms/student/profile/table');
    // A widget with conditions opens its page filtered by them, named by the widget.
    const open = new URL(within(card('Takings')).getByRole('link', { name: 'Open' }).getAttribute('href') ?? '', 'http://x');
    expect(open.pathname).toBe('/sms/fee/fee_collected/table');
    expect(JSON.parse(open.searchParams.get('rule') ?? '')).toEqual({ where: [{ field: 'fee_coll_sts', op: 'eq', value: 'Active' }], dateFilter: null });
    expect(open.searchParams.get('rule_nm')).toBe('Takings');
  });

  it('keeps the counts when the widgets call fails, and says the widgets could not be loaded', async () => {
    body = { students: 600, employees: 40, attendanceToday: 512 };
    widgets = new Response(JSON.stringify({ message: 'boom' }), { status: 500, headers: { 'content-type': 'application/json' } });
    renderDashboard();
    expect(await screen.findByText('The widgets could not be loaded.')).toBeTruthy();
    expect(within(tile('students')).getByText('600')).toBeTruthy();
  });
});

describe('tile values', () => {
  it('keeps not set up (null) apart from no answer (undefined)', () => {
    expect(countText(null)).toBeNull();
    expect(countText(undefined)).toBe('—');
    expect(countText(0)).toBe('0');
    expect(moneyText(null)).toBeNull();
    expect(moneyText('0')).toBe('0.00');
    expect(moneyText('1.005')).toBe('1.01');
    expect(moneyText('100000.5')).toBe('1,00,000.50');
    expect(moneyText(undefined)).toBe('—');
  });
});
