import { waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cancelPendingRequests } from '../lib/http-client';
import { getSession, signIn } from '../lib/session-store';
import { adminUser } from '../test-support/fixtures';
import { jsonResponse, renderHookWithProviders, resetTestState, stubBrowser, stubFetch } from '../test-support/render-app';
import { useAcademicYears } from './use-academic-years';
import { useAllowedPages } from './use-allowed-pages';
import { logout } from './user-menu';

type Pending = { url: string; signal: AbortSignal | null | undefined; answer: (body: unknown) => void };
let pending: Pending[] = [];

beforeEach(() => {
  pending = [];
  stubBrowser();
  // Every answer waits until the test gives it, and fails as an abort would if its signal fires first.
  stubFetch(
    (url, init) =>
      new Promise<Response>((resolve, reject) => {
        init.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
        pending.push({ url, signal: init.signal, answer: (body) => resolve(jsonResponse(body)) });
      }),
  );
  window.history.pushState({}, '', '/sms/master/religion/table');
  signIn(adminUser);
});

afterEach(resetTestState);

const call = (part: string): Pending => {
  const found = pending.find((p) => p.url.includes(part));
  if (!found) throw new Error(`no call to ${part}`);
  return found;
};

describe('shell requests survive a navigation', () => {
  it('keeps the user detail (menu) in flight when the route changes', async () => {
    const { result } = renderHookWithProviders(() => useAllowedPages());
    await waitFor(() => expect(pending).toHaveLength(1));
    cancelPendingRequests();
    expect(call('userDetail').signal?.aborted).toBe(false);
    call('userDetail').answer({ permissions: [{ usr_prms_mdl: 'master', usr_prms_page: 'religion', usr_prms_is_alw: 1 }] });
    await waitFor(() => expect(result.current.items.map((i) => i.page.page)).toEqual(['religion']));
    expect(result.current.isError).toBe(false);
  });

  it('keeps the active years in flight, so a year is still chosen', async () => {
    const { result } = renderHookWithProviders(() => useAcademicYears());
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
