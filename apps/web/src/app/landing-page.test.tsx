import { findPage, type PageDef } from '@campus/entities/pages';
import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { signIn } from '../lib/session-store';
import { adminUser } from '../test-support/fixtures';
import { jsonResponse, renderWithProviders, resetTestState, stubBrowser, stubFetch } from '../test-support/render-app';
import { LandingPage, landingTiles } from './landing-page';
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
  renderWithProviders(<LandingPage />, { route: '/landing' });
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
    activeYears = [{ acdm_cd: 5, label: '2026-27' }];
    renderLanding();
    expect(await screen.findByDisplayValue('2026-27')).toBeTruthy();
    expect(screen.getByTestId('landing-tile-master').getAttribute('aria-disabled')).toBe('false');
    expect(screen.queryByTestId('no-active-year')).toBeNull();
  });
});

describe('landingTiles', () => {
  const page = (module: string, name: string): PageDef => findPage(module, name)!;
  const section = (children: PageDef[]): MenuSection => ({ module: children[0]!.module, title: 'T', icon: 'list', children });
  it('keeps every tile on its first page when a year is chosen', () => {
    const tiles = landingTiles([section([page('institute', 'profile'), page('institute', 'academic')])], true);
    expect(tiles.map((t) => [t.target.page, t.disabled])).toEqual([['profile', false]]);
  });

  it('without a year, opens a module on its first page that needs none, or disables it', () => {
    const tiles = landingTiles(
      [section([page('institute', 'profile'), page('institute', 'academic')]), section([page('master', 'religion'), page('master', 'community')]), section([page('master', 'religion')])],
      false,
    );
    expect(tiles.map((t) => [t.target.page, t.disabled])).toEqual([
      ['profile', false],
      ['community', false],
      ['religion', true],
    ]);
  });
});
