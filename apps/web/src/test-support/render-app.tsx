// Shared setup for the web tests: jsdom stubs, fetch answers and rendering under the app's providers.
// Only *.test.tsx files import this; main.tsx never reaches it, so vite leaves it out of the bundle.
import { MantineProvider } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, renderHook, type RenderHookResult, type RenderResult } from '@testing-library/react';
import { createInstance, type i18n } from 'i18next';
import type { ReactNode } from 'react';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { vi, type Mock } from 'vitest';
import english from '../../public/assets/language/english.json';
import tamil from '../../public/assets/language/tamil.json';
import { signOut } from '../lib/session-store';

/**
 * Call in beforeEach. Fills in what jsdom lacks and the app's components ask for, and catches
 * toasts: no <Notifications /> is mounted in tests, so a toast is checked by the messages returned.
 */
export function stubBrowser(): { shown: string[] } {
  // Mantine asks matchMedia for the colour scheme; forms and the paging bar for the phone layout.
  vi.stubGlobal('matchMedia', vi.fn(() => ({ matches: false, addEventListener: () => undefined, removeEventListener: () => undefined })));
  // Mantine's scroll areas and AG Grid watch their size.
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe(): void {}
      unobserve(): void {}
      disconnect(): void {}
    },
  );
  // Textarea autosize listens on document.fonts; a property of document, so unstubAllGlobals would not undo it.
  if (!('fonts' in document)) {
    Object.defineProperty(document, 'fonts', { configurable: true, value: { addEventListener: () => undefined, removeEventListener: () => undefined } });
  }
  const shown: string[] = [];
  vi.spyOn(notifications, 'show').mockImplementation((n) => {
    shown.push(String(n.message));
    return 'id';
  });
  return { shown };
}

/** Call in afterEach: without vitest globals testing-library does not unmount by itself, and the session store outlives a test. */
export function resetTestState(): void {
  cleanup();
  signOut();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
}

/** A JSON answer as the server gives it (http-client reads the content type). */
export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

export type FetchHandler = (url: string, init: RequestInit) => Promise<Response>;

/** Replaces fetch until resetTestState; the mock is returned so a test can count the calls. */
export function stubFetch(handler: FetchHandler): Mock<FetchHandler> {
  const mock = vi.fn(handler);
  vi.stubGlobal('fetch', mock);
  return mock;
}

/** An i18next instance of its own per test, so a language switch in one test does not leak into the next. */
export async function createTestI18n(): Promise<i18n> {
  const lang = createInstance();
  await lang.use(initReactI18next).init({
    lng: 'english',
    fallbackLng: false,
    resources: { english: { translation: english }, tamil: { translation: tamil } },
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
  });
  return lang;
}

/** No retries: a test that answers an error wants to see it at once, not after the app's back-off. */
export function testQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false } } });
}

export interface ProviderOptions {
  /** Defaults to testQueryClient(); pass one built from queryDefaults to test the app's own retry policy. */
  queryClient?: QueryClient;
  /** Wraps the tree in I18nextProvider; without it components use react-i18next's global instance. */
  i18n?: i18n;
}

export interface RouteOptions extends ProviderOptions {
  /** The path ui is mounted at and the router starts on. */
  route: string;
  /** Other pages the test may navigate to or be sent to (login, denied, ...). */
  routes?: RouteObject[];
}

type MemoryRouter = ReturnType<typeof createMemoryRouter>;

/** Where RouteGuard sends a user away, as text a test can find: pass as routes next to the guarded page. */
export const guardExitRoutes: RouteObject[] = [
  { path: '/login', element: <div>LOGIN</div> },
  { path: '/page_not_autherised', element: <div>DENIED</div> },
];

function Providers({ children, queryClient, i18n: lang }: { children: ReactNode; queryClient: QueryClient; i18n?: i18n }) {
  const tree = (
    <MantineProvider>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </MantineProvider>
  );
  return lang ? <I18nextProvider i18n={lang}>{tree}</I18nextProvider> : tree;
}

/** Renders ui as the app does (Mantine, TanStack Query, optionally i18n), under a memory router when a route is given. */
export function renderWithProviders(ui: ReactNode, options: RouteOptions): RenderResult & { router: MemoryRouter; queryClient: QueryClient };
export function renderWithProviders(ui: ReactNode, options?: ProviderOptions): RenderResult & { router: undefined; queryClient: QueryClient };
export function renderWithProviders(
  ui: ReactNode,
  options: ProviderOptions & Partial<RouteOptions> = {},
): RenderResult & { router: MemoryRouter | undefined; queryClient: QueryClient } {
  const queryClient = options.queryClient ?? testQueryClient();
  const router =
    options.route === undefined
      ? undefined
      : createMemoryRouter([{ path: options.route, element: ui }, ...(options.routes ?? [])], { initialEntries: [options.route] });
  const result = render(
    <Providers queryClient={queryClient} i18n={options.i18n}>
      {router ? <RouterProvider router={router} /> : ui}
    </Providers>,
  );
  return { ...result, router, queryClient };
}

/** renderHook under the same providers as renderWithProviders. */
export function renderHookWithProviders<Result>(hook: () => Result, options: ProviderOptions = {}): RenderHookResult<Result, unknown> {
  const queryClient = options.queryClient ?? testQueryClient();
  return renderHook(hook, {
    wrapper: ({ children }: { children: ReactNode }) => (
      <Providers queryClient={queryClient} i18n={options.i18n}>
        {children}
      </Providers>
    ),
  });
}
