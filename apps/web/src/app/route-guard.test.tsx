import { MantineProvider } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { signIn, signOut, type SessionUser } from '../lib/session-store';
import { usePagePermission } from './page-permission-context';
import { findPage } from '@campus/entities/pages';
import { needsAcademicYear, RouteGuard } from './route-guard';

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

let answer: () => Promise<Response>;
let lastUrl = '';

function Probe() {
  const p = usePagePermission();
  return (
    <div>
      page {p.module}/{p.page} buttons {p.buttons.join('+')} login {String(p.can('allow_login'))} chk {String(p.dataChk)} self {String(p.selfOnly)}
    </div>
  );
}

function renderAt(module: string, page: string, rest = '') {
  const router = createMemoryRouter(
    [
      { path: '/x', element: <RouteGuard module={module} page={page} rest={rest}><Probe /></RouteGuard> },
      { path: '/login', element: <div>LOGIN</div> },
      { path: '/page_not_autherised', element: <div>DENIED</div> },
    ],
    { initialEntries: ['/x'] },
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <MantineProvider>
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>,
  );
}

beforeEach(() => {
  // jsdom has no matchMedia; Mantine asks it for the colour scheme.
  vi.stubGlobal(
    'matchMedia',
    vi.fn(() => ({ matches: false, addEventListener: () => undefined, removeEventListener: () => undefined })),
  );
  vi.spyOn(notifications, 'show').mockImplementation(() => 'id');
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string) => {
      lastUrl = url;
      return answer();
    }),
  );
  signIn(clerk);
});

afterEach(() => {
  cleanup();
  signOut();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const ok = (body: unknown) => async () => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

describe('RouteGuard', () => {
  it('asks for the page permission and shows an allowed page with its buttons', async () => {
    answer = ok([[{ usr_prms_is_alw: true, usr_prms_btns: 'create,edit,allow_login', usr_need_data_chk: 1 }], [], []]);
    renderAt('employee', 'profile');
    expect(await screen.findByText(/page employee\/profile/)).toBeTruthy();
    expect(screen.getByText(/buttons create\+edit\+allow_login login false chk true/)).toBeTruthy();
    expect(lastUrl).toBe('/api/user_permission/?usr_prms_usr_cd=2&usr_prms_pth_url=sms%2Femployee%2Fprofile&usr_sts=1');
  });

  it('sends a page that is not allowed to page_not_autherised', async () => {
    answer = ok([[{ usr_prms_is_alw: false }], [], []]);
    renderAt('master', 'religion');
    expect(await screen.findByText('DENIED')).toBeTruthy();
  });

  it('treats no permission row as not allowed', async () => {
    answer = ok([[], [], []]);
    renderAt('master', 'religion');
    expect(await screen.findByText('DENIED')).toBeTruthy();
  });

  it("opens the user's own profile (My Profile) without the employee page, and nobody else's", async () => {
    answer = ok([[], [], []]);
    renderAt('employee', 'profile', `update/${clerk.usr_cd}`);
    expect(await screen.findByText(/page employee\/profile buttons\s+login false chk false self true/)).toBeTruthy();
    cleanup();
    renderAt('employee', 'profile', `view/${clerk.usr_cd}`);
    expect(await screen.findByText(/self true/)).toBeTruthy();
    cleanup();
    renderAt('employee', 'profile', `update/${clerk.usr_cd + 1}`);
    expect(await screen.findByText('DENIED')).toBeTruthy();
    cleanup();
    renderAt('employee', 'profile', 'table');
    expect(await screen.findByText('DENIED')).toBeTruthy();
    cleanup();
    // Only entities that declare self-service fields open this way.
    renderAt('master', 'religion', `update/${clerk.usr_cd}`);
    expect(await screen.findByText('DENIED')).toBeTruthy();
  });

  it('opens dashboard and schedule/table whatever the row says', async () => {
    answer = ok([[], [], []]);
    renderAt('dashboard', '');
    expect(await screen.findByText(/page dashboard\//)).toBeTruthy();
    cleanup();
    renderAt('schedule', 'table');
    expect(await screen.findByText(/page schedule\/table/)).toBeTruthy();
  });

  it('goes to login when the call fails', async () => {
    answer = async () => new Response('{"message":"boom"}', { status: 500, headers: { 'content-type': 'application/json' } });
    renderAt('master', 'religion');
    expect(await screen.findByText('LOGIN')).toBeTruthy();
  });
});

describe('needsAcademicYear', () => {
  it('is false for the institute-scoped pages built so far, Institute > Academic Year included', () => {
    for (const [module, page] of [
      ['institute', 'academic'],
      ['institute', 'profile'],
      ['master', 'religion'],
      ['employee', 'profile'],
      ['user_permission', 'permission'],
    ] as const) {
      expect(needsAcademicYear(findPage(module, page))).toBe(false);
    }
  });

  it('is false for pages without an entity and unknown pages', () => {
    expect(needsAcademicYear(findPage('student', 'wallet'))).toBe(false);
    expect(needsAcademicYear(undefined)).toBe(false);
  });
});

describe('RouteGuard without an academic year', () => {
  it('opens an institute-scoped page', async () => {
    answer = ok([[{ usr_prms_is_alw: true, usr_prms_btns: 'create' }], [], []]);
    renderAt('institute', 'academic');
    expect(await screen.findByText(/page institute\/academic/)).toBeTruthy();
  });
});
