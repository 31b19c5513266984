import { navigateTo } from './app-navigation';
import {
  buildUrl,
  errorAction,
  fallbackErrorMessage,
  isRelativeUrl,
  readCookie,
  routeNamesFromPath,
  showsLoader,
  successToastMessage,
  type HttpMethod,
} from './http-rules';
import { loaderStart, loaderStop, loaderStopAll } from './loader-store';
import { getSession, signOut, verifyStoredUser } from './session-store';
import { toast } from './toast';

export interface RequestOptions {
  signal?: AbortSignal;
  headers?: Record<string, string>;
  query?: Record<string, string | number | undefined>;
  /** No toasts from this call, neither success nor error; the caller shows its own feedback. */
  silent?: boolean;
  /** Answer the body as a Blob (files, images) instead of JSON or text. */
  blob?: boolean;
  /**
   * Not cancelled when the route changes: for the shell's own calls (user detail, active years, logout),
   * which outlive every page. Aborting them would leave the menu or the year empty.
   */
  keepOnNavigation?: boolean;
}

export interface FieldError {
  field: string;
  message: string;
}

export class HttpError extends Error {
  readonly status: number;
  readonly details?: FieldError[];
  /** The request was aborted (navigation or the caller), not refused: nothing to show. */
  readonly cancelled: boolean;
  /**
   * Browser path when an aborted request went out. Sending it again is only right while the browser is still
   * on that page: the pagename/modulename headers are read from the current path.
   */
  readonly startedAt?: string;

  constructor(status: number, message: string, details?: FieldError[], cancelled = false, startedAt?: string) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.details = details;
    this.cancelled = cancelled;
    this.startedAt = startedAt;
  }

  /** Aborted in flight (by a navigation or the caller), as opposed to refused before it went out (signed out). */
  get aborted(): boolean {
    return this.cancelled && this.status === 0;
  }
}

/** Header the caller may set to suppress the success toast (spec section 8); never sent to the server. */
const DONT_SHOW_MSG = 'dontShowMsg';

const pendingControllers = new Set<AbortController>();
/**
 * Bumped whenever all loaders are stopped, so that a request that survived it (keepOnNavigation) does not
 * later stop the loader of a request started after it.
 */
let loaderGeneration = 0;

/**
 * From the Logout click until the local session is gone. The server revokes the token first, so any call the
 * page still makes with it (a lazily loaded screen's first query) would come back 401 and toast 'signed out'
 * at someone who just chose to sign out: such calls are cancelled here instead of being sent.
 */
let signingOut = false;

export function startSignOut(): void {
  signingOut = true;
  cancelPendingRequests();
}

export function endSignOut(): void {
  signingOut = false;
}

/** Aborts every request in flight except the shell's (keepOnNavigation); the app calls it on route changes. */
export function cancelPendingRequests(): void {
  for (const c of pendingControllers) c.abort();
  pendingControllers.clear();
  loaderGeneration += 1;
  loaderStopAll();
}

const currentPath = (): string => (typeof window === 'undefined' ? '' : window.location.pathname);

function contractHeaders(method: HttpMethod): Record<string, string> {
  const { user, institute, year, dataChk } = getSession();
  const { module, page } = routeNamesFromPath(currentPath());
  const headers: Record<string, string> = {
    username: user?.usr_nm ?? '',
    usercode: user ? String(user.usr_cd) : '',
    auth_token: user?.usr_token ?? 'login',
    acdm_year: year?.label ?? '',
    platform: 'web',
    pagename: page,
    acdm_cd: year ? String(year.acdm_cd) : '',
    inst_cd: institute ? String(institute.inst_cd) : user ? String(user.usr_inst_cd) : '',
    data_chk: dataChk ? '1' : '0',
  };
  if (method !== 'GET' && method !== 'HEAD') headers.modulename = module;
  return headers;
}

function linkSignals(own: AbortController, other?: AbortSignal): void {
  if (!other) return;
  if (other.aborted) own.abort();
  else other.addEventListener('abort', () => own.abort(), { once: true });
}

async function readBody(res: Response): Promise<unknown> {
  if (res.status === 204) return undefined;
  const text = await res.text();
  if (text === '') return undefined;
  const type = res.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

function fieldErrors(body: unknown): FieldError[] | undefined {
  if (!body || typeof body !== 'object' || !('details' in body)) return undefined;
  const details = (body as { details: unknown }).details;
  if (!Array.isArray(details)) return undefined;
  return details.filter(
    (d): d is FieldError => !!d && typeof d === 'object' && typeof (d as FieldError).field === 'string' && typeof (d as FieldError).message === 'string',
  );
}

function isLoginCall(url: string): boolean {
  return url.includes('/employee/login');
}

const isLogoutCall = (url: string): boolean => url.includes('/employee/logout');

async function request<T>(method: HttpMethod, url: string, body: BodyInit | undefined, json: boolean, opts: RequestOptions = {}): Promise<T> {
  if (!verifyStoredUser()) throw new HttpError(401, 'Signed out.', undefined, true);

  const fullUrl = buildUrl(url, opts.query);
  // Only sign-in goes out without a session: a page left over from a sign-out must not call anonymously.
  if (!getSession().user && !isLoginCall(fullUrl)) throw new HttpError(401, 'Signed out.', undefined, true);
  if (signingOut && !isLogoutCall(fullUrl)) throw new HttpError(0, 'Request cancelled.', undefined, true, currentPath());
  const callerHeaders = { ...(opts.headers ?? {}) };
  const dontShowMsg = callerHeaders[DONT_SHOW_MSG];
  delete callerHeaders[DONT_SHOW_MSG];

  const headers: Record<string, string> = { ...contractHeaders(method), ...callerHeaders };
  if (json && body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && method !== 'HEAD' && isRelativeUrl(fullUrl) && typeof document !== 'undefined') {
    const xsrf = readCookie(document.cookie, 'XSRF-TOKEN');
    if (xsrf) headers['X-XSRF-TOKEN'] = xsrf;
  }

  const controller = new AbortController();
  linkSignals(controller, opts.signal);
  const cancellable = !opts.keepOnNavigation;
  if (cancellable) pendingControllers.add(controller);
  const startedAt = currentPath();
  const cancelledError = (): HttpError => new HttpError(0, 'Request cancelled.', undefined, true, startedAt);
  const withLoader = showsLoader(fullUrl);
  const generation = loaderGeneration;
  if (withLoader) loaderStart();

  try {
    let res: Response;
    try {
      res = await fetch(fullUrl, { method, headers, body, signal: controller.signal, credentials: 'same-origin' });
    } catch (e) {
      if (controller.signal.aborted) throw cancelledError();
      if (!opts.silent) toast.danger(fallbackErrorMessage);
      throw new HttpError(0, e instanceof Error ? e.message : fallbackErrorMessage);
    }

    const data = opts.blob && res.ok ? await res.blob() : await readBody(res);
    if (!res.ok) {
      const action = errorAction(res.status, data);
      if (!opts.silent) toast.danger(action.message);
      // A refused sign-in is the login form's own business; any other 401 means the session is gone.
      if (action.kind === 'unauthorized' && !isLoginCall(fullUrl)) {
        signOut();
        cancelPendingRequests();
        navigateTo('/login');
      }
      throw new HttpError(res.status, action.message, fieldErrors(data));
    }

    if (!opts.silent) {
      const success = successToastMessage(method, fullUrl, dontShowMsg === undefined ? {} : { [DONT_SHOW_MSG]: dontShowMsg });
      if (success) toast.success(success);
    }
    return data as T;
  } catch (e) {
    if (e instanceof HttpError) throw e;
    // Reading the body can fail too when the request is aborted mid-stream.
    if (controller.signal.aborted) throw cancelledError();
    throw new HttpError(0, e instanceof Error ? e.message : fallbackErrorMessage);
  } finally {
    // A cancellable request already dropped by cancelPendingRequests had its loader stopped with all the others;
    // so did a kept one that was in flight when the loaders were stopped.
    const stillCounted = cancellable ? pendingControllers.delete(controller) : generation === loaderGeneration;
    if (stillCounted && withLoader) loaderStop();
  }
}

const jsonBody = (body: unknown): string | undefined => (body === undefined ? undefined : JSON.stringify(body));

export const http = {
  get<T>(url: string, opts?: RequestOptions): Promise<T> {
    return request<T>('GET', url, undefined, false, opts);
  },
  post<T>(url: string, body?: unknown, opts?: RequestOptions): Promise<T> {
    return request<T>('POST', url, jsonBody(body), true, opts);
  },
  put<T>(url: string, body?: unknown, opts?: RequestOptions): Promise<T> {
    return request<T>('PUT', url, jsonBody(body), true, opts);
  },
  del<T>(url: string, body?: unknown, opts?: RequestOptions): Promise<T> {
    return request<T>('DELETE', url, jsonBody(body), true, opts);
  },
  /** Multipart POST; the browser sets the boundary, so no content-type here. */
  upload<T>(url: string, formData: FormData, opts?: RequestOptions): Promise<T> {
    return request<T>('POST', url, formData, false, opts);
  },
};
