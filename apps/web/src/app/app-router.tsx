import { lazy } from 'react';
import { createBrowserRouter, Navigate, RouterProvider } from 'react-router';
import { registerNavigate } from '../lib/app-navigation';
import { cancelPendingRequests } from '../lib/http-client';
import { getSession, onTamper } from '../lib/session-store';
import { AppErrorPage, NotAuthorisedPage, NotFoundPage } from './error-pages';
import { LoginPage } from './login-page';
import { RequireUser } from './require-user';
import { RootLayout } from './root-layout';

// The signed-in area (AG Grid, the engine, workflows) is split off so the login page stays small.
const ShellLayout = lazy(() => import('./shell-layout').then((m) => ({ default: m.ShellLayout })));
const LandingPage = lazy(() => import('./landing-page').then((m) => ({ default: m.LandingPage })));
const DashboardPage = lazy(() => import('./dashboard-page').then((m) => ({ default: m.DashboardPage })));
const SchedulePage = lazy(() => import('./schedule-page').then((m) => ({ default: m.SchedulePage })));
const EntityRoute = lazy(() => import('./entity-route').then((m) => ({ default: m.EntityRoute })));
const JobsPage = lazy(() => import('../workflows/jobs/jobs-page').then((m) => ({ default: m.JobsPage })));
const RouteGuard = lazy(() => import('./route-guard').then((m) => ({ default: m.RouteGuard })));

/*
 * AG Grid (a quarter of a megabyte gzip) is fetched once per visit: by the first list page itself (its lazy
 * grid starts loading as the page renders, beside the list request), or, when the first signed-in screen
 * has no grid (dashboard, schedule), a moment after that screen is up, so the first list finds it cached.
 * Fetching the list page's chunks all at start was tried and measured slower at 4x CPU throttling (the
 * grid's script then competes with the session's first requests and the shell's first render).
 */
let gridRequested = false;
function prefetchGridAfter(pathname: string): void {
  if (gridRequested || !getSession().user) return;
  const [, area = '', module = ''] = pathname.split('/');
  if (area !== 'sms' || (module !== '' && module !== 'dashboard' && module !== 'schedule')) return;
  gridRequested = true;
  window.setTimeout(() => {
    import('../engine/entity-grid').catch(() => {
      // A failed fetch (offline for a moment) is tried again when a list is opened.
      gridRequested = false;
    });
  }, 1500);
}

/*
 * A visit that starts on a list page (a reload, a link, a new tab) would otherwise fetch one piece after the
 * other as each one renders: the language, the shell's code, the active years, the route's code, the page's
 * permission, the page's code, the grid's code, and only then the rows. Known from the address alone, they
 * all start here, at once, while the language file arrives: the code through import() (Vite preloads each
 * chunk's own imports beside it) and the calls through list-route-prefetch.ts (in the cache under the keys
 * the shell, the guard and the list use). Only the table mode of an entity page: other screens keep their
 * own order, and the sign-in page's bundle gains nothing but these few lines.
 */
const LIST_ROUTE = /^\/sms\/([^/]+)\/([^/]+)\/table(?:\/search)?\/?$/;
function prefetchListVisit(): void {
  if (typeof window === 'undefined' || !getSession().user) return;
  const match = LIST_ROUTE.exec(window.location.pathname);
  if (!match || match[1] === 'schedule') return;
  const [, module = '', page = ''] = match;
  const search = window.location.search;
  gridRequested = true;
  // Failures are left to the route's own lazy imports and queries, which try again and report them.
  const ignore = () => undefined;
  import('./shell-layout').catch(ignore);
  import('./entity-route').catch(ignore);
  import('../engine/entity-page').catch(ignore);
  import('../engine/entity-grid').catch(() => {
    gridRequested = false;
  });
  import('./list-route-prefetch').then((m) => m.prefetchListRoute(module, page, search)).catch(ignore);
}
prefetchListVisit();

export const router = createBrowserRouter([
  {
    path: '/',
    element: <RootLayout />,
    errorElement: <AppErrorPage />,
    children: [
      { index: true, element: <Navigate to="sms" replace /> },
      { path: 'login', element: <LoginPage /> },
      {
        path: 'landing',
        element: (
          <RequireUser>
            <LandingPage />
          </RequireUser>
        ),
      },
      {
        path: 'sms',
        element: (
          <RequireUser>
            <ShellLayout />
          </RequireUser>
        ),
        children: [
          {
            // Keeps the shell on screen when one page fails to render.
            errorElement: <AppErrorPage embedded />,
            children: [
              { index: true, element: <Navigate to="dashboard" replace /> },
              {
                path: 'dashboard',
                element: (
                  <RouteGuard module="dashboard" page="">
                    <DashboardPage />
                  </RouteGuard>
                ),
              },
              {
                path: 'schedule/table',
                element: (
                  <RouteGuard module="schedule" page="table">
                    <SchedulePage />
                  </RouteGuard>
                ),
              },
              // Background jobs: administrators only (the page and GET /api/job/ check the role), not a granted page.
              { path: 'jobs', element: <JobsPage /> },
              { path: ':module/:page/*', element: <EntityRoute /> },
            ],
          },
        ],
      },
      { path: 'page_not_found', element: <NotFoundPage /> },
      { path: 'page_not_autherised', element: <NotAuthorisedPage /> },
      { path: '*', element: <Navigate to="/page_not_found" replace /> },
    ],
  },
]);

registerNavigate((to) => void router.navigate(to, { replace: true }));
onTamper(() => void router.navigate('/login', { replace: true }));

// Requests of the page being left are cancelled as soon as the location changes (spec section 9). The shell's
// own calls (menu, active years, logout) opt out with keepOnNavigation; a query aborted while its component
// stays on screen (table -> create of one page) is asked again by shouldRetry in query-client.ts.
let lastPath = router.state.location.pathname;
prefetchGridAfter(lastPath);
router.subscribe((state) => {
  if (state.location.pathname !== lastPath) {
    lastPath = state.location.pathname;
    cancelPendingRequests();
    prefetchGridAfter(lastPath);
  }
});

export function AppRouter() {
  return <RouterProvider router={router} />;
}
