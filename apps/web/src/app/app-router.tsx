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
const loadShell = () => import('./shell-layout');
const loadRouteGuard = () => import('./route-guard');
const loadEntityRoute = () => import('./entity-route');
const loadEntityPage = () => import('../engine/entity-page');
const loadGrid = () => import('../engine/entity-grid');
const ShellLayout = lazy(() => loadShell().then((m) => ({ default: m.ShellLayout })));
const LandingPage = lazy(() => import('./landing-page').then((m) => ({ default: m.LandingPage })));
const DashboardPage = lazy(() => import('./dashboard-page').then((m) => ({ default: m.DashboardPage })));
const SchedulePage = lazy(() => import('./schedule-page').then((m) => ({ default: m.SchedulePage })));
const EntityRoute = lazy(() => loadEntityRoute().then((m) => ({ default: m.EntityRoute })));
const RouteGuard = lazy(() => loadRouteGuard().then((m) => ({ default: m.RouteGuard })));

/**
 * Nested lazy screens load one after another (shell, then the page's route, then the engine, then the grid
 * once the list renders): on a slow PC each step waits for the one before. Opening a list page by its
 * address asks for all of them at once, side by side with the session's first requests; the grid itself
 * is fetched once for the whole visit (the import is cached), at the latest shortly after the shell's first
 * screen (dashboard, schedule), so the first list does not wait for it.
 */
let gridRequested = false;
function preloadFor(pathname: string): void {
  // Signed out, the address leads to the sign-in page: nothing of the signed-in area is needed yet.
  if (!pathname.startsWith('/sms') || !getSession().user) return;
  const ignore = () => undefined;
  loadShell().catch(ignore);
  const [, , module = '', page = '', mode = ''] = pathname.split('/');
  if (!module || module === 'dashboard' || module === 'schedule') {
    // A signed-in screen without a grid: fetch it after this screen's own work, before the first list.
    if (!gridRequested) window.setTimeout(() => preloadGrid(), 1500);
    return;
  }
  loadRouteGuard().catch(ignore);
  loadEntityRoute().catch(ignore);
  loadEntityPage().catch(ignore);
  if (page && (mode === '' || mode === 'table')) preloadGrid();
}

function preloadGrid(): void {
  if (gridRequested) return;
  gridRequested = true;
  loadGrid().catch(() => {
    // A failed fetch (offline for a moment) is tried again when a list is opened.
    gridRequested = false;
  });
}

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
preloadFor(lastPath);
router.subscribe((state) => {
  if (state.location.pathname !== lastPath) {
    lastPath = state.location.pathname;
    cancelPendingRequests();
    preloadFor(lastPath);
  }
});

export function AppRouter() {
  return <RouterProvider router={router} />;
}
