import { MantineProvider } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAcademicYear, signIn, signOut, type SessionUser } from '../lib/session-store';
import { RouteGuard } from './route-guard';

// No year-scoped entity is built yet: pretend religion is one, to see how the guard treats such a page.
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

const clerk: SessionUser = {
  usr_nm: 'CLERK1',
  usr_cd: 2,
  usr_id: null,
  usr_token: 'tok',
  rl_nm: 'OFFICE CLERK',
  usr_inst_cd: 1,
  usr_full_nm: 'Priya',
  is_admin: false,
  institutes: [{ inst_cd: 1, inst_nm: 'School', inst_typ: 'school' }],
};

function renderAt(module: string, page: string) {
  const router = createMemoryRouter(
    [
      { path: '/x', element: <RouteGuard module={module} page={page}><div>PAGE {module}/{page}</div></RouteGuard> },
      { path: '/login', element: <div>LOGIN</div> },
      { path: '/page_not_autherised', element: <div>DENIED</div> },
    ],
    { initialEntries: ['/x'] },
  );
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
  vi.spyOn(notifications, 'show').mockImplementation(() => 'id');
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify([[{ usr_prms_is_alw: true }], [], []]), { status: 200, headers: { 'content-type': 'application/json' } })),
  );
  signIn(clerk);
});

afterEach(() => {
  cleanup();
  signOut();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

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
