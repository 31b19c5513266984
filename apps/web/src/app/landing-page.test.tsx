import { findPage, type PageDef } from '@campus/entities/pages';
import { MantineProvider } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { signIn, signOut, type SessionUser } from '../lib/session-store';
import { LandingPage, landingTiles } from './landing-page';
import type { MenuSection } from './side-menu';

// No year-scoped entity is built yet: pretend religion is one, to see how such a module's tile behaves.
vi.mock('@campus/entities/registry', async (importOriginal) => {
  const real = await importOriginal<typeof import('@campus/entities/registry')>();
  return {
    ...real,
    findEntity: (name: string) => {
      const e = real.findEntity(name);
      return e && name === 'religion' ? { ...e, scope: 'academic-year' as const } : e;
    },
  };
});

const admin: SessionUser = {
  usr_nm: 'ADMIN',
  usr_cd: 1,
  usr_id: null,
  usr_token: 'tok',
  rl_nm: 'ADMIN',
  usr_inst_cd: 1,
  usr_full_nm: 'Admin',
  is_admin: true,
  institutes: [{ inst_cd: 1, inst_nm: 'New School', inst_typ: 'school' }],
};

let activeYears: unknown[] = [];

const json = (body: unknown): Response => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
const allow = (module: string, page: string) => ({ usr_prms_mdl: module, usr_prms_page: page, usr_prms_is_alw: 1 });

function renderLanding() {
  const router = createMemoryRouter([{ path: '/landing', element: <LandingPage /> }], { initialEntries: ['/landing'] });
  render(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>,
  );
}

beforeEach(() => {
  vi.stubGlobal(
    'matchMedia',
    vi.fn(() => ({ matches: false, addEventListener: () => undefined, removeEventListener: () => undefined })),
  );
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe(): void {}
      unobserve(): void {}
      disconnect(): void {}
    },
  );
  vi.spyOn(notifications, 'show').mockImplementation(() => 'id');
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      if (url.includes('/api/academic/active')) return json(activeYears);
      if (url.includes('userDetail')) return json({ permissions: [allow('institute', 'profile'), allow('institute', 'academic'), allow('master', 'religion')] });
      return json({});
    }),
  );
  window.history.pushState({}, '', '/landing');
  signIn(admin);
});

afterEach(() => {
  cleanup();
  signOut();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

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
