import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAcademicYear, signIn } from '../lib/session-store';
import { clerkUser } from '../test-support/fixtures';
import { guardExitRoutes, jsonResponse, renderWithProviders, resetTestState, stubBrowser, stubFetch } from '../test-support/render-app';
import { RouteGuard } from './route-guard';

// No year-scoped entity is built yet: pretend religion is one, to see how the guard treats such a page.
vi.mock('@campus/entities/registry', async (importOriginal) => {
  // A dynamic import: vi.mock is hoisted above the static ones.
  const { withYearScopedReligion } = await import('../test-support/fixtures');
  return withYearScopedReligion(await importOriginal<typeof import('@campus/entities/registry')>());
});

function renderAt(module: string, page: string) {
  renderWithProviders(<RouteGuard module={module} page={page}><div>PAGE {module}/{page}</div></RouteGuard>, { route: '/x', routes: guardExitRoutes });
}

beforeEach(() => {
  stubBrowser();
  stubFetch(async () => jsonResponse([[{ usr_prms_is_alw: true }], [], []]));
  signIn(clerkUser);
});

afterEach(resetTestState);

describe('RouteGuard on a year-scoped page', () => {
  it('explains how to get a year instead of opening the page without one', async () => {
    renderAt('master', 'religion');
    expect(await screen.findByTestId('no-active-year')).toBeTruthy();
    expect(screen.getByText('No active academic year: open Institute > Academic Year to add or activate one')).toBeTruthy();
    expect(screen.queryByText(/PAGE/)).toBeNull();
  });

  it('opens it once a year is chosen', async () => {
    setAcademicYear({ acdm_cd: 4, label: '2026-27' });
    renderAt('master', 'religion');
    expect(await screen.findByText('PAGE master/religion')).toBeTruthy();
  });

  it('leaves institute-scoped pages open without a year', async () => {
    renderAt('master', 'community');
    expect(await screen.findByText('PAGE master/community')).toBeTruthy();
  });
});
