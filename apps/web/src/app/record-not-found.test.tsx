import { entity } from '@campus/entities/registry';
import { findPage, type PageDef } from '@campus/entities/pages';
import { MantineProvider } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EntityForm } from '../engine/entity-form';
import { signIn, signOut } from '../lib/session-store';
import { buildPagePermission, PagePermissionContext } from './page-permission-context';
import { queryDefaults } from './query-client';

const religion = entity('religion');
const page = findPage('master', 'religion') as PageDef;
let shown: string[] = [];

beforeEach(() => {
  vi.stubGlobal('matchMedia', vi.fn(() => ({ matches: false, addEventListener: () => undefined, removeEventListener: () => undefined })));
  shown = [];
  vi.spyOn(notifications, 'show').mockImplementation((n) => {
    shown.push(String(n.message));
    return 'id';
  });
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify({ statusCode: 404, error: 'Not Found', message: 'Religion 77 not found.' }), { status: 404, headers: { 'content-type': 'application/json' } })),
  );
  window.history.pushState({}, '', '/sms/master/religion/view/77');
  signIn({
    usr_nm: 'CLERK1',
    usr_cd: 2,
    usr_id: null,
    usr_token: 'tok',
    rl_nm: 'OFFICE CLERK',
    usr_inst_cd: 1,
    usr_full_nm: 'Priya',
    is_admin: false,
    institutes: [{ inst_cd: 1, inst_nm: 'School', inst_typ: 'school' }],
  });
});

afterEach(() => {
  cleanup();
  signOut();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('a view URL of a record that does not exist', () => {
  it('toasts the server sentence once and shows the not-found state', async () => {
    const permission = buildPagePermission('master', 'religion', { usr_prms_btns: 'view,edit' }, [], false);
    const router = createMemoryRouter(
      [
        {
          path: '/sms/master/religion/view/77',
          element: (
            <PagePermissionContext.Provider value={permission}>
              <EntityForm entity={religion} page={page} mode="view" id="77" />
            </PagePermissionContext.Provider>
          ),
        },
      ],
      { initialEntries: ['/sms/master/religion/view/77'] },
    );
    // The app's own retry policy: a 404 is not asked again, so it is not toasted again.
    render(
      <MantineProvider>
        <QueryClientProvider client={new QueryClient({ defaultOptions: queryDefaults })}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </MantineProvider>,
    );
    expect(await screen.findByText('Record not found')).toBeTruthy();
    expect(shown).toEqual(['Religion 77 not found.']);
    expect(vi.mocked(fetch)).toHaveBeenCalledTimes(1);
  });
});
