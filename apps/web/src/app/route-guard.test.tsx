import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { signIn } from '../lib/session-store';
import { clerkUser as clerk } from '../test-support/fixtures';
import { guardExitRoutes, jsonResponse, renderWithProviders, resetTestState, stubBrowser, stubFetch } from '../test-support/render-app';
import { usePagePermission } from './page-permission-context';
import { findPage } from '@campus/entities/pages';
import { needsAcademicYear, RouteGuard } from './route-guard';

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
  renderWithProviders(<RouteGuard module={module} page={page} rest={rest}><Probe /></RouteGuard>, { route: '/x', routes: guardExitRoutes });
}

beforeEach(() => {
  stubBrowser();
  stubFetch((url) => {
    lastUrl = url;
    return answer();
  });
  signIn(clerk);
});

afterEach(resetTestState);

const ok = (body: unknown) => async () => jsonResponse(body);

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
    answer = async () => jsonResponse({ message: 'boom' }, 500);
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
    expect(needsAcademicYear({ entity: undefined })).toBe(false);
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
