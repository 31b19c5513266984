import { QueryClient, useQuery } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cancelPendingRequests, http, HttpError } from '../lib/http-client';
import { signIn } from '../lib/session-store';
import { clerkUser } from '../test-support/fixtures';
import { jsonResponse, renderWithProviders, resetTestState, stubBrowser, stubFetch } from '../test-support/render-app';
import { queryDefaults, retryDelay, shouldRetry } from './query-client';

const aborted = (startedAt: string): HttpError => new HttpError(0, 'Request cancelled.', undefined, true, startedAt);

beforeEach(() => {
  stubBrowser();
  window.history.pushState({}, '', '/sms/master/religion/create');
});

afterEach(resetTestState);

describe('shouldRetry', () => {
  it('asks again for a request aborted by a move within its own page, a few times', () => {
    const error = aborted('/sms/master/religion/table');
    expect(shouldRetry(0, error)).toBe(true);
    expect(shouldRetry(2, error)).toBe(true);
    expect(shouldRetry(3, error)).toBe(false);
    expect(retryDelay(0, error)).toBe(0);
  });

  it('never resends a request of a page being left, nor one refused because the user signed out', () => {
    expect(shouldRetry(0, aborted('/sms/master/community/table'))).toBe(false);
    expect(shouldRetry(0, aborted('/landing'))).toBe(false);
    expect(shouldRetry(0, new HttpError(401, 'Signed out.', undefined, true))).toBe(false);
  });

  it('retries 5xx and network errors once, refusals never', () => {
    expect(shouldRetry(0, new HttpError(500, 'boom'))).toBe(true);
    expect(shouldRetry(1, new HttpError(500, 'boom'))).toBe(false);
    expect(shouldRetry(0, new HttpError(404, 'gone'))).toBe(false);
    expect(shouldRetry(0, new HttpError(0, 'Failed to fetch'))).toBe(true);
    expect(retryDelay(0, new HttpError(500, 'boom'))).toBe(1000);
  });
});

function Religions() {
  const query = useQuery({ queryKey: ['religions'], queryFn: ({ signal }) => http.get<{ total: number }>('/api/religion/', { signal }) });
  if (query.isError) return <div>ERROR</div>;
  if (query.isPending) return <div>LOADING</div>;
  return <div>TOTAL {query.data.total}</div>;
}

describe('a query aborted while its component stays mounted', () => {
  it('is fetched again rather than left in error', async () => {
    signIn(clerkUser);
    let calls = 0;
    stubFetch((_url, init) => {
      calls += 1;
      if (calls === 1) {
        // The first answer never comes: the navigation table -> create aborts it.
        return new Promise((_resolve, reject) => {
          init.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
        });
      }
      return Promise.resolve(jsonResponse({ total: 4 }));
    });
    window.history.pushState({}, '', '/sms/master/religion/table');
    renderWithProviders(<Religions />, { queryClient: new QueryClient({ defaultOptions: queryDefaults }) });
    expect(await screen.findByText('LOADING')).toBeTruthy();
    await vi.waitFor(() => expect(calls).toBe(1));
    window.history.pushState({}, '', '/sms/master/religion/create');
    cancelPendingRequests();
    expect(await screen.findByText('TOTAL 4')).toBeTruthy();
    expect(screen.queryByText('ERROR')).toBeNull();
    expect(calls).toBe(2);
  });
});
