import { notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cancelPendingRequests } from '../lib/http-client';
import { getSession, signIn, signOut, type SessionUser } from '../lib/session-store';
import { useAcademicYears } from './use-academic-years';
import { useAllowedPages } from './use-allowed-pages';
import { logout } from './user-menu';

const admin: SessionUser = {
  usr_nm: 'ADMIN',
  usr_cd: 1,
  usr_id: null,
  usr_token: 'tok',
  rl_nm: 'ADMIN',
  usr_inst_cd: 1,
  usr_full_nm: 'Admin',
  is_admin: true,
  institutes: [{ inst_cd: 1, inst_nm: 'School', inst_typ: 'school' }],
};

type Pending = { url: string; signal: AbortSignal | null | undefined; answer: (body: unknown) => void };
let pending: Pending[] = [];

const wrapper = ({ children }: { children: ReactNode }) => (
  <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>{children}</QueryClientProvider>
);

beforeEach(() => {
  pending = [];
  vi.spyOn(notifications, 'show').mockImplementation(() => 'id');
  // Every answer waits until the test gives it, and fails as an abort would if its signal fires first.
  vi.stubGlobal(
    'fetch',
    vi.fn(
      (url: string, init: RequestInit) =>
        new Promise<Response>((resolve, reject) => {
          init.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
          pending.push({
            url,
            signal: init.signal,
            answer: (body) => resolve(new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } })),
          });
        }),
    ),
  );
  window.history.pushState({}, '', '/sms/master/religion/table');
  signIn(admin);
});

afterEach(() => {
  cleanup();
  signOut();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const call = (part: string): Pending => {
  const found = pending.find((p) => p.url.includes(part));
  if (!found) throw new Error(`no call to ${part}`);
  return found;
};

describe('shell requests survive a navigation', () => {
  it('keeps the user detail (menu) in flight when the route changes', async () => {
    const { result } = renderHook(() => useAllowedPages(), { wrapper });
    await waitFor(() => expect(pending).toHaveLength(1));
    cancelPendingRequests();
    expect(call('userDetail').signal?.aborted).toBe(false);
    call('userDetail').answer({ permissions: [{ usr_prms_mdl: 'master', usr_prms_page: 'religion', usr_prms_is_alw: 1 }] });
    await waitFor(() => expect(result.current.pages.map((p) => p.page)).toEqual(['religion']));
    expect(result.current.isError).toBe(false);
  });

  it('keeps the active years in flight, so a year is still chosen', async () => {
    const { result } = renderHook(() => useAcademicYears(), { wrapper });
    await waitFor(() => expect(pending).toHaveLength(1));
    cancelPendingRequests();
    expect(call('/api/academic/active').signal?.aborted).toBe(false);
    call('/api/academic/active').answer([{ acdm_cd: 7, label: '2026-27' }]);
    await waitFor(() => expect(getSession().year).toEqual({ acdm_cd: 7, label: '2026-27' }));
    expect(result.current.isError).toBe(false);
  });

  it('lets the logout call reach the server although sign-out navigates away', async () => {
    const done = logout('ADMIN');
    await waitFor(() => expect(pending).toHaveLength(1));
    cancelPendingRequests();
    expect(call('/api/employee/logout/').signal?.aborted).toBe(false);
    call('/api/employee/logout/').answer({ ok: true });
    await done;
    expect(getSession().user).toBeNull();
  });
});
