import { screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildPagePermission, PagePermissionContext, type PermissionRow } from '../../app/page-permission-context';
import { signIn } from '../../lib/session-store';
import { clerkUser } from '../../test-support/fixtures';
import { createTestI18n, jsonResponse, renderWithProviders, resetTestState, stubBrowser, stubFetch } from '../../test-support/render-app';
import { CustomReportRunPage } from './custom-report-run-page';

const PATH = '/sms/reports/custom_report/view/5';

const saved = {
  cst_rpt_cd: 5,
  cst_rpt_nm: 'Girls, Tamil medium',
  cst_rpt_entity: 'student',
  cst_rpt_cols: ['stud_fs_nm', 'stud_ph'],
  cst_rpt_fltrs: [
    { field: 'stud_gnd', value: 'Female' },
    { field: 'medium', value: 'Tamil' },
  ],
  cst_rpt_q: null,
  cst_rpt_sort: 'stud_fs_nm',
  cst_rpt_dir: 'desc',
  row_ver: 1,
};

const allowed = (module: string, page: string, btns = 'view'): PermissionRow => ({ usr_prms_mdl: module, usr_prms_page: page, usr_prms_is_alw: true, usr_prms_btns: btns });

async function start(permissions: PermissionRow[]) {
  const fetchMock = stubFetch(async (url) => {
    if (url.startsWith('/api/custom_report/5')) return jsonResponse(saved);
    if (url.startsWith('/api/user_permission/userDetail')) return jsonResponse({ permissions });
    if (url.startsWith('/api/student/')) return jsonResponse({ rows: [{ stud_cd: 9, stud_fs_nm: 'Meena', stud_ph: '+91 98400 12345', row_ver: 1 }], total: 1 });
    return jsonResponse({ statusCode: 404, error: 'Not Found', message: `No route ${url}` }, 404);
  });
  const router = createMemoryRouter([{ path: '/sms/:module/:page/*', element: <CustomReportRunPage /> }], { initialEntries: [PATH] });
  renderWithProviders(
    <PagePermissionContext.Provider value={buildPagePermission('reports', 'custom_report', { usr_prms_btns: 'view' }, [], false)}>
      <RouterProvider router={router} />
    </PagePermissionContext.Provider>,
    { i18n: await createTestI18n() },
  );
  return fetchMock;
}

const studentCalls = (fetchMock: ReturnType<typeof stubFetch>) => fetchMock.mock.calls.filter(([url]) => url.startsWith('/api/student/'));

beforeEach(() => {
  stubBrowser();
  window.history.pushState({}, '', PATH);
  signIn(clerkUser);
});

afterEach(resetTestState);

describe('running a saved report', () => {
  it("asks the entity's own list route with the saved filters and sort, under the entity's page", async () => {
    const fetchMock = await start([allowed('reports', 'custom_report'), allowed('student', 'profile', 'view,export')]);
    expect(await screen.findByText('Girls, Tamil medium')).toBeTruthy();
    await waitFor(() => expect(studentCalls(fetchMock).length).toBeGreaterThan(0));
    const [url, init] = studentCalls(fetchMock)[0];
    const q = new URL(url, 'http://x').searchParams;
    expect(Object.fromEntries(q)).toMatchObject({ f_stud_gnd: 'Female', f_medium: 'Tamil', sort: 'stud_fs_nm', dir: 'desc', page: '1' });
    // The student page's permission row decides what comes back ('his students only' included), not the report page's.
    expect(init.headers).toMatchObject({ pagename: 'profile', modulename: 'student' });
    expect(await screen.findByTestId('btn-export')).toBeTruthy();
  });

  it('says so, and asks nothing, when the user holds no page of the entity', async () => {
    const fetchMock = await start([allowed('reports', 'custom_report')]);
    expect(await screen.findByText('You cannot run this report: you are not allowed to open the Student Profile page.')).toBeTruthy();
    expect(studentCalls(fetchMock)).toEqual([]);
    expect(vi.mocked(fetch).mock.calls.map(([u]) => String(u).split('?')[0]).sort()).toEqual(['/api/custom_report/5', '/api/user_permission/userDetail']);
  });

  it('offers no export without the export button on that page', async () => {
    const fetchMock = await start([allowed('reports', 'custom_report'), allowed('student', 'profile', 'view')]);
    await waitFor(() => expect(studentCalls(fetchMock).length).toBeGreaterThan(0));
    expect(screen.queryByTestId('btn-export')).toBeNull();
  });
});
