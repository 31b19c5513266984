import { QueryClient } from '@tanstack/react-query';
import { HttpError } from '../lib/http-client';
import { getSession, subscribeSession } from '../lib/session-store';

export const ACADEMIC_YEARS_KEY = 'academic-active';
export const USER_DETAIL_KEY = 'user-detail';

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
function contextKey(): { user: string; institute: string; year: string } {
  const s = getSession();
  return {
    user: s.user ? `${s.user.usr_cd}:${s.user.usr_token}` : '',
    institute: String(s.institute?.inst_cd ?? ''),
    year: String(s.year?.acdm_cd ?? ''),
  };
}

/** Answers that do not depend on the academic year: permissions and the years list itself. */
const yearIndependent = new Set<unknown>([ACADEMIC_YEARS_KEY, USER_DETAIL_KEY]);

let previous = contextKey();
subscribeSession(() => {
  const next = contextKey();
  if (next.user !== previous.user) queryClient.clear();
  else if (next.institute !== previous.institute) {
    // The years list is keyed by institute and is what picks the new year: keep it.
    queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== ACADEMIC_YEARS_KEY });
  } else if (next.year !== previous.year) {
    queryClient.removeQueries({ predicate: (q) => !yearIndependent.has(q.queryKey[0]) });
  }
  previous = next;
});
