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
  /** The refusal's whole answer, for the few that carry more than a sentence (sign-in's two-step set-up). */
  readonly body?: unknown;

  constructor(status: number, message: string, details?: FieldError[], cancelled = false, startedAt?: string, body?: unknown) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.details = details;
    this.cancelled = cancelled;
    this.startedAt = startedAt;
    this.body = body;
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

/** One call in flight: what request() and the progress upload share (headers, cancelling, the loader, errors). */
interface Call {
  fullUrl: string;
  headers: Record<string, string>;
  controller: AbortController;
  dontShowMsg: string | undefined;
  cancelledError: () => HttpError;
  /** Toasts a refusal (unless silent), signs out on a 401 other than sign-in's, and gives the error to throw. */
  refused: (status: number, data: unknown) => HttpError;
  /** Toasts the success sentence the method and URL call for (unless silent or dontShowMsg). */
  succeeded: () => void;
  /** Stops the loader and forgets the call. */
  finish: () => void;
}

function startCall(method: HttpMethod, url: string, json: boolean, hasBody: boolean, opts: RequestOptions): Call {
  if (!verifyStoredUser()) throw new HttpError(401, 'Signed out.', undefined, true);

  const fullUrl = buildUrl(url, opts.query);
  // Only sign-in goes out without a session: a page left over from a sign-out must not call anonymously.
  if (!getSession().user && !isLoginCall(fullUrl)) throw new HttpError(401, 'Signed out.', undefined, true);
  if (signingOut && !isLogoutCall(fullUrl)) throw new HttpError(0, 'Request cancelled.', undefined, true, currentPath());
  const callerHeaders = { ...(opts.headers ?? {}) };
  const dontShowMsg = callerHeaders[DONT_SHOW_MSG];
  delete callerHeaders[DONT_SHOW_MSG];

  const headers: Record<string, string> = { ...contractHeaders(method), ...callerHeaders };
  if (json && hasBody) headers['content-type'] = 'application/json';
  if (method !== 'GET' && method !== 'HEAD' && isRelativeUrl(fullUrl) && typeof document !== 'undefined') {
    const xsrf = readCookie(document.cookie, 'XSRF-TOKEN');
    if (xsrf) headers['X-XSRF-TOKEN'] = xsrf;
  }

  const controller = new AbortController();
  linkSignals(controller, opts.signal);
  const cancellable = !opts.keepOnNavigation;
  if (cancellable) pendingControllers.add(controller);
  const startedAt = currentPath();
  const withLoader = showsLoader(fullUrl);
  const generation = loaderGeneration;
  if (withLoader) loaderStart();

  return {
    fullUrl,
    headers,
    controller,
    dontShowMsg,
    cancelledError: () => new HttpError(0, 'Request cancelled.', undefined, true, startedAt),
    refused: (status, data) => {
      const action = errorAction(status, data);
      if (!opts.silent) toast.danger(action.message);
      // A refused sign-in is the login form's own business; any other 401 means the session is gone.
      if (action.kind === 'unauthorized' && !isLoginCall(fullUrl)) {
        signOut();
        cancelPendingRequests();
        navigateTo('/login');
      }
      return new HttpError(status, action.message, fieldErrors(data), false, undefined, data);
    },
    succeeded: () => {
      if (opts.silent) return;
      const success = successToastMessage(method, fullUrl, dontShowMsg === undefined ? {} : { [DONT_SHOW_MSG]: dontShowMsg });
      if (success) toast.success(success);
    },
    finish: () => {
      // A cancellable request already dropped by cancelPendingRequests had its loader stopped with all the
      // others; so did a kept one that was in flight when the loaders were stopped.
      const stillCounted = cancellable ? pendingControllers.delete(controller) : generation === loaderGeneration;
      if (stillCounted && withLoader) loaderStop();
    },
  };
}

async function request<T>(method: HttpMethod, url: string, body: BodyInit | undefined, json: boolean, opts: RequestOptions = {}): Promise<T> {
  const call = startCall(method, url, json, body !== undefined, opts);
  const { controller } = call;
  try {
    let res: Response;
    try {
      res = await fetch(call.fullUrl, { method, headers: call.headers, body, signal: controller.signal, credentials: 'same-origin' });
    } catch (e) {
      if (controller.signal.aborted) throw call.cancelledError();
      if (!opts.silent) toast.danger(fallbackErrorMessage);
      throw new HttpError(0, e instanceof Error ? e.message : fallbackErrorMessage);
    }

    const data = opts.blob && res.ok ? await res.blob() : await readBody(res);
    if (!res.ok) throw call.refused(res.status, data);
    call.succeeded();
    return data as T;
  } catch (e) {
    if (e instanceof HttpError) throw e;
    // Reading the body can fail too when the request is aborted mid-stream.
    if (controller.signal.aborted) throw call.cancelledError();
    throw new HttpError(0, e instanceof Error ? e.message : fallbackErrorMessage);
  } finally {
    call.finish();
  }
}

/** What the server says while an upload with progress is read, checked and written (see uploadWithProgress). */
export interface ProgressLine {
  phase: string;
  done: number;
  total?: number;
}

export interface ProgressUploadOptions extends RequestOptions {
  /** Bytes of the request sent so far, and of the whole request. */
  onUpload?: (sent: number, total: number) => void;
  /** Each progress line of the answer as it arrives. */
  onProgress?: (line: ProgressLine) => void;
}

const NDJSON = 'application/x-ndjson';

/**
 * Multipart POST that reports progress both ways: the bytes sent (XMLHttpRequest's upload events; fetch has
 * none for a request body) and, when the server answers in NDJSON, its progress lines as they arrive. The
 * answer ends with {"result": ...}, given back as the call's value, or {"error": {statusCode, message}},
 * toasted and thrown as a refusal would be. A server answering plain JSON is read as upload() reads it.
 */
function uploadWithProgress<T>(url: string, formData: FormData, opts: ProgressUploadOptions = {}): Promise<T> {
  let call: Call;
  try {
    call = startCall('POST', url, false, true, opts);
  } catch (e) {
    // Refused before it went out (signed out, signing out): a rejected promise, as the fetch calls give.
    return Promise.reject(e);
  }
  const { controller } = call;
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    let settled = false;
    const settle = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      call.finish();
      fn();
    };
    const fail = (err: HttpError): void => settle(() => reject(err));
    controller.signal.addEventListener('abort', () => {
      xhr.abort();
      fail(call.cancelledError());
    }, { once: true });

    let seen = 0;
    let ending: { result: T } | { error: { statusCode: number; message: string } } | null = null;
    const isNdjson = (): boolean => (xhr.getResponseHeader('content-type') ?? '').includes(NDJSON);
    // Whole lines received so far (a line cut by the network is completed by the next event); at the end, all.
    const readLines = (final: boolean): void => {
      if (xhr.status < 200 || xhr.status >= 300 || !isNdjson()) return;
      const text = xhr.responseText;
      const end = final ? text.length : text.lastIndexOf('\n');
      if (end < seen) return;
      const fresh = text.slice(seen, end);
      seen = end + 1;
      for (const raw of fresh.split('\n')) {
        if (raw.trim() === '') continue;
        const line = JSON.parse(raw) as ProgressLine | { result: T } | { error: { statusCode: number; message: string } };
        if ('result' in line || 'error' in line) ending = line;
        else opts.onProgress?.(line);
      }
    };

    xhr.open('POST', call.fullUrl);
    for (const [k, v] of Object.entries({ ...call.headers, accept: `${NDJSON}, application/json` })) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (ev) => opts.onUpload?.(ev.loaded, ev.lengthComputable ? ev.total : 0);
    xhr.onprogress = () => {
      try {
        readLines(false);
      } catch {
        /* a line that is not JSON: the answer as a whole is judged at the end */
      }
    };
    xhr.onerror = () => {
      if (!opts.silent) toast.danger(fallbackErrorMessage);
      fail(new HttpError(0, fallbackErrorMessage));
    };
    xhr.onload = () => {
      const status = xhr.status;
      if (status >= 200 && status < 300 && isNdjson()) {
        try {
          readLines(true);
        } catch {
          ending = null;
        }
        const last = ending as typeof ending;
        if (last && 'result' in last) {
          call.succeeded();
          settle(() => resolve(last.result));
        } else if (last && 'error' in last) fail(call.refused(last.error.statusCode, last.error));
        else fail(call.refused(500, undefined));
        return;
      }
      const type = xhr.getResponseHeader('content-type') ?? '';
      let data: unknown = xhr.responseText;
      if (type.includes('json') && xhr.responseText !== '') {
        try {
          data = JSON.parse(xhr.responseText);
        } catch {
          data = xhr.responseText;
        }
      }
      if (status < 200 || status >= 300) return fail(call.refused(status, data));
      call.succeeded();
      settle(() => resolve(data as T));
    };
    xhr.send(formData);
  });
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
  /** Multipart POST with upload progress and the server's NDJSON progress lines (see uploadWithProgress). */
  uploadWithProgress<T>(url: string, formData: FormData, opts?: ProgressUploadOptions): Promise<T> {
    return uploadWithProgress<T>(url, formData, opts);
  },
};
