import { findPage, type PageDef } from '@campus/entities/pages';
import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { signIn } from '../lib/session-store';
import { adminUser } from '../test-support/fixtures';
import { jsonResponse, renderWithProviders, resetTestState, stubBrowser, stubFetch } from '../test-support/render-app';
import { LandingPage, landingQuestion, landingTiles } from './landing-page';
import type { MenuSection } from './side-menu';

// No year-scoped entity is built yet: pretend religion is one, to see how such a module's tile behaves.
vi.mock('@campus/entities/registry', async (importOriginal) => {
  // A dynamic import: vi.mock is hoisted above the static ones.
  const { withYearScopedReligion } = await import('../test-support/fixtures');
  return withYearScopedReligion(await importOriginal<typeof import('@campus/entities/registry')>());
});

let activeYears: unknown[] = [];

const allow = (module: string, page: string) => ({ usr_prms_mdl: module, usr_prms_page: page, usr_prms_is_alw: 1 });

function renderLanding() {
  return renderWithProviders(<LandingPage />, { route: '/landing', routes: [{ path: '/sms/dashboard', element: <p>the dashboard</p> }] });
}

beforeEach(() => {
  stubBrowser();
  stubFetch(async (url) => {
    if (url.includes('/api/academic/active')) return jsonResponse(activeYears);
    if (url.includes('userDetail')) return jsonResponse({ permissions: [allow('institute', 'profile'), allow('institute', 'academic'), allow('master', 'religion')] });
    return jsonResponse({});
  });
  window.history.pushState({}, '', '/landing');
  signIn({ ...adminUser, institutes: [{ inst_cd: 1, inst_nm: 'New School', inst_typ: 'school' }] });
});

afterEach(resetTestState);

describe('LandingPage of an institute with no active academic year', { timeout: 20_000 }, () => {
  it('opens the dashboard and institute-scoped modules, keeps year-scoped ones shut, and says how to add a year', async () => {
    activeYears = [];
    renderLanding();
    expect(await screen.findByTestId('no-active-year')).toBeTruthy();
    expect(screen.getByText('No active academic year: open Institute > Academic Year to add or activate one')).toBeTruthy();

    const dashboard = screen.getByRole('link', { name: /Open dashboard/ });
    expect(dashboard.getAttribute('href')).toBe('/sms/dashboard');
    expect(dashboard.hasAttribute('disabled') || dashboard.getAttribute('data-disabled') === 'true').toBe(false);

    const institute = await screen.findByTestId('landing-tile-institute');
    expect(institute.getAttribute('aria-disabled')).toBe('false');
    expect(institute.getAttribute('href')).toBe('/sms/institute/profile/table');
    const master = screen.getByTestId('landing-tile-master');
    expect(master.getAttribute('aria-disabled')).toBe('true');
    expect(master.textContent).toContain('Needs an active academic year');
  });

  it('opens every module and shows no hint once a year is active', async () => {
    // Two active years: a choice to make, so the page stays.
    activeYears = [
      { acdm_cd: 5, label: '2026-27' },
      { acdm_cd: 4, label: '2025-26' },
    ];
    renderLanding();
    expect(await screen.findByDisplayValue('2026-27')).toBeTruthy();
    expect(screen.getByTestId('landing-tile-master').getAttribute('aria-disabled')).toBe('false');
    expect(screen.queryByTestId('no-active-year')).toBeNull();
  });
});

describe('LandingPage with nothing to choose', { timeout: 20_000 }, () => {
  it('goes straight on to the dashboard with one institute and one active year', async () => {
    activeYears = [{ acdm_cd: 5, label: '2026-27' }];
    const { router } = renderLanding();
    expect(await screen.findByText('the dashboard')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/sms/dashboard');
    expect(screen.queryByText('Open dashboard')).toBeNull();
  });

  it('stays for a user of two institutes, even with one active year', async () => {
    activeYears = [{ acdm_cd: 5, label: '2026-27' }];
    signIn({
      ...adminUser,
      institutes: [
        { inst_cd: 1, inst_nm: 'New School', inst_typ: 'school' },
        { inst_cd: 2, inst_nm: 'New College', inst_typ: 'college' },
      ],
    });
    const { router } = renderLanding();
    expect(await screen.findByDisplayValue('2026-27')).toBeTruthy();
    expect(screen.getByRole('link', { name: /Open dashboard/ })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/landing');
  });
});

describe('landingQuestion', () => {
  const years = (count: number, more: Partial<{ isLoading: boolean; isError: boolean }> = {}) => ({ isLoading: false, isError: false, count, ...more });
  it('asks only when there is a choice or something missing to explain', () => {
    expect(landingQuestion(1, years(1), true)).toBe('nothing');
    expect(landingQuestion(2, years(1), true)).toBe('choice');
    expect(landingQuestion(1, years(2), true)).toBe('choice');
    // No active year: the page says how to add one.
    expect(landingQuestion(1, years(0), false)).toBe('choice');
    expect(landingQuestion(1, years(0, { isError: true }), false)).toBe('choice');
  });

  it('waits while the years load or the one year is being chosen', () => {
    expect(landingQuestion(1, years(0, { isLoading: true }), false)).toBe('unknown');
    expect(landingQuestion(1, years(1), false)).toBe('unknown');
    expect(landingQuestion(2, years(0, { isLoading: true }), false)).toBe('choice');
  });
});

describe('landingTiles', () => {
  const page = (module: string, name: string): PageDef => findPage(module, name)!;
  const section = (children: PageDef[]): MenuSection => ({ module: children[0]!.module, title: 'T', icon: 'list', children: children.map((p) => ({ page: p, mode: 'table' })) });
  it('keeps every tile on its first page when a year is chosen', () => {
    const tiles = landingTiles([section([page('institute', 'profile'), page('institute', 'academic')])], true);
    expect(tiles.map((t) => [t.target.page.page, t.disabled])).toEqual([['profile', false]]);
  });

  it('without a year, opens a module on its first page that needs none, or disables it', () => {
    const tiles = landingTiles(
      [section([page('institute', 'profile'), page('institute', 'academic')]), section([page('master', 'religion'), page('master', 'community')]), section([page('master', 'religion')])],
      false,
    );
    expect(tiles.map((t) => [t.target.page.page, t.disabled])).toEqual([
      ['profile', false],
      ['community', false],
      ['religion', true],
    ]);
  });
});
