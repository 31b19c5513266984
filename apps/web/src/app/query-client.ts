import { QueryClient } from '@tanstack/react-query';
import { HttpError } from '../lib/http-client';
import { getSession, subscribeSession } from '../lib/session-store';

export const ACADEMIC_YEARS_KEY = 'academic-active';

/** Retrying a refusal (4xx) or a cancelled request only repeats the toast; retry network blips and 5xx once. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof HttpError && (error.cancelled || (error.status >= 400 && error.status < 500))) return false;
  return failureCount < 1;
}

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: shouldRetry, refetchOnWindowFocus: false, staleTime: 30_000 },
    mutations: { retry: false },
  },
});

/**
 * Cached answers belong to one user, institute and academic year (the headers say which). On a switch
 * they are dropped: mounted pages are re-keyed by the shell and fetch again under the new headers.
 */
function contextKey(): { user: string; context: string } {
  const s = getSession();
  return {
    user: s.user ? `${s.user.usr_cd}:${s.user.usr_token}` : '',
    context: `${s.institute?.inst_cd ?? ''}:${s.year?.acdm_cd ?? ''}`,
  };
}

let previous = contextKey();
subscribeSession(() => {
  const next = contextKey();
  if (next.user !== previous.user) queryClient.clear();
  else if (next.context !== previous.context) {
    // The years list is keyed by institute and is what picks the new year: keep it.
    queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== ACADEMIC_YEARS_KEY });
  }
  previous = next;
});
