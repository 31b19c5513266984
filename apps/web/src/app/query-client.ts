import { QueryClient, type DefaultOptions } from '@tanstack/react-query';
import { HttpError } from '../lib/http-client';
import { routeNamesFromPath } from '../lib/http-rules';
import { getSession, subscribeSession } from '../lib/session-store';

export const ACADEMIC_YEARS_KEY = 'academic-active';
export const USER_DETAIL_KEY = 'user-detail';

/** Times a query aborted by navigations is asked again before it is left in error. */
const ABORTED_RETRIES = 3;

/** The page a browser path shows: module/page inside sms, else the path itself (landing, login). */
function pageOf(pathname: string): string {
  const { module, page } = routeNamesFromPath(pathname);
  return module ? `${module}/${page}` : pathname;
}

function stillOnPageOf(startedAt: string | undefined): boolean {
  if (startedAt === undefined || typeof window === 'undefined') return false;
  return pageOf(startedAt) === pageOf(window.location.pathname);
}

/**
 * Retrying a refusal (4xx) only repeats the toast; network blips and 5xx are retried once. A request aborted by
 * a navigation within its own page (table -> create) is asked again, or its still-mounted component would
 * stay in error. Once the component unmounts, TanStack Query cancels the retry itself; a request of a page
 * being left is never resent, since it would go out under the new page's pagename. Refused before it went out
 * (signed out): never.
 */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof HttpError && error.cancelled) return error.aborted && failureCount < ABORTED_RETRIES && stillOnPageOf(error.startedAt);
  if (error instanceof HttpError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 1;
}

/** An aborted request is asked again at once (nothing failed on the server); others back off as by default. */
export function retryDelay(failureCount: number, error: unknown): number {
  if (error instanceof HttpError && error.aborted) return 0;
  return Math.min(1000 * 2 ** failureCount, 30_000);
}

export const queryDefaults: DefaultOptions = {
  queries: { retry: shouldRetry, retryDelay, refetchOnWindowFocus: false, staleTime: 30_000 },
  mutations: { retry: false },
};

export const queryClient = new QueryClient({ defaultOptions: queryDefaults });

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
