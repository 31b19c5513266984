import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setAcademicYear, signIn } from '../lib/session-store';
import { adminUser } from '../test-support/fixtures';
import { jsonResponse, renderWithProviders, resetTestState, stubBrowser, stubFetch } from '../test-support/render-app';
import { countText, DashboardPage, moneyText } from './dashboard-page';

let body: unknown;

function renderDashboard() {
  renderWithProviders(<DashboardPage />);
}

const tile = (key: string): HTMLElement => screen.getByTestId(`dashboard-${key}`);

beforeEach(() => {
  stubBrowser();
  stubFetch(async () => jsonResponse(body));
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
