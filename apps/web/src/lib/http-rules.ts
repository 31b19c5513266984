/**
 * Pure decisions of the HTTP client (spec sections 7, 8 and 9), kept apart from fetch so they can be
 * tested without a browser and read in one place.
 */

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE';

/** Substrings of URLs that never get a success toast (spec section 8, verbatim). */
export const noSuccessToastUrlParts: readonly string[] = [
  'employee_attendance',
  'login',
  'getStudentFeeSummary',
  'refresh',
  'tablesettings',
  'executequery',
  'mob_notification',
  'theme',
  'validate',
  'discount',
  'fileupload',
  'reportFilter',
  'quickmail',
  'relation',
  'sendInvoice',
  'dashboard',
  'cleared',
  'certificate',
  'getFeeCollectionDetails',
  'updateUserInstitute',
];

/** POST paths that never get a success toast (spec section 8). */
export const noSuccessToastPostPaths: readonly string[] = ['/api/academic_fee_collect/pending_fee', '/api/mark/list'];

/** Substrings of URLs that never show the global loader (spec section 9). */
export const noLoaderUrlParts: readonly string[] = ['usr_prms_page', 'fileupload', 'autocomplete', 'admit'];

/**
 * Statuses the global handler stays silent about (spec section 8); 401 has its own toast and redirect.
 * Only the global handler: the HTTP client still toasts them ("Other HTTP errors: a toast"), so the global
 * handler must not repeat a toast the client already showed.
 */
export const silentStatuses: readonly number[] = [404, 405, 504];

export const fallbackErrorMessage = 'Internal server error, Please try again later.';

const ORIGIN_PLACEHOLDER = 'http://relative.invalid';

/** The path of a URL without query or hash, whether the URL is relative or absolute. */
export function urlPath(url: string): string {
  try {
    return new URL(url, ORIGIN_PLACEHOLDER).pathname;
  } catch {
    return url.split(/[?#]/)[0] ?? '';
  }
}

/** True for URLs that stay on the page's own origin, the only ones that may carry the XSRF token. */
export function isRelativeUrl(url: string): boolean {
  return !/^[a-z][a-z0-9+.-]*:/i.test(url) && !url.startsWith('//');
}

/**
 * The {ENTITY} of the success toast: the upper-cased second-to-last segment of the URL path, so that
 * '/api/religion/' and '/api/religion/5' both name RELIGION.
 */
export function entityNameFromUrl(url: string): string {
  const segments = urlPath(url).split('/');
  return (segments[segments.length - 2] ?? '').toUpperCase();
}

export function successToastMessage(method: string, url: string, headers: Record<string, string> = {}): string | null {
  const m = method.toUpperCase();
  if (m !== 'POST' && m !== 'PUT') return null;
  if (headerValue(headers, 'dontShowMsg') === '1') return null;
  if (noSuccessToastUrlParts.some((part) => url.includes(part))) return null;
  if (m === 'POST') {
    const path = trimTrailingSlash(urlPath(url));
    if (noSuccessToastPostPaths.some((p) => trimTrailingSlash(p) === path)) return null;
  }
  const entity = entityNameFromUrl(url);
  return m === 'POST' ? `${entity} Created Successfully.` : `${entity} Updated Successfully.`;
}

export function showsLoader(url: string): boolean {
  if (urlPath(url).toLowerCase().endsWith('.json')) return false;
  return !noLoaderUrlParts.some((part) => url.includes(part));
}

export type ErrorAction = { kind: 'unauthorized'; message: string } | { kind: 'toast'; message: string };

/**
 * What the client does with a failed response (spec section 8): 401 toasts and signs out; every other status,
 * 404/405/504 included, toasts the server's sentence or the fallback. Staying quiet is the caller's choice
 * (the `silent` request option), never the status's.
 */
export function errorAction(status: number, body: unknown): ErrorAction {
  const message = serverMessage(body) ?? fallbackErrorMessage;
  if (status === 401) return { kind: 'unauthorized', message };
  return { kind: 'toast', message };
}

/** The human sentence of an error body ({ message }), ignoring bodies that are not ours (HTML, text). */
export function serverMessage(body: unknown): string | undefined {
  if (body && typeof body === 'object' && 'message' in body) {
    const m = (body as { message: unknown }).message;
    if (typeof m === 'string' && m.trim() !== '') return m;
  }
  return undefined;
}

export interface RouteNames {
  module: string;
  page: string;
}

/** pagename / modulename headers: the {module} and {page} of the browser path sms/{module}/{page}/... */
export function routeNamesFromPath(pathname: string): RouteNames {
  const segments = pathname.split('/').filter(Boolean);
  const at = segments.indexOf('sms');
  if (at === -1) return { module: '', page: '' };
  return { module: segments[at + 1] ?? '', page: segments[at + 2] ?? '' };
}

export function readCookie(cookieHeader: string, name: string): string | undefined {
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() === name) {
      const raw = part.slice(eq + 1).trim();
      try {
        return decodeURIComponent(raw);
      } catch {
        return raw;
      }
    }
  }
  return undefined;
}

export function buildUrl(url: string, query?: Record<string, string | number | undefined>): string {
  if (!query) return url;
  const params = Object.entries(query)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  if (params.length === 0) return url;
  return `${url}${url.includes('?') ? '&' : '?'}${params.join('&')}`;
}

function headerValue(headers: Record<string, string>, name: string): string | undefined {
  const lower = name.toLowerCase();
  const key = Object.keys(headers).find((k) => k.toLowerCase() === lower);
  return key === undefined ? undefined : headers[key];
}

function trimTrailingSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}
