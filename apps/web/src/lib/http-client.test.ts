import { notifications } from '@mantine/notifications';
import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { registerNavigate } from './app-navigation';
import { cancelPendingRequests, endSignOut, http, HttpError, startSignOut } from './http-client';
import { useGlobalLoading } from './loader-store';
import { setAcademicYear, signIn, signOut, type SessionUser } from './session-store';

const user: SessionUser = {
  usr_nm: 'ADMIN',
  usr_cd: 1,
  usr_id: null,
  usr_token: 'tok',
  rl_nm: 'ADMIN',
  usr_inst_cd: 3,
  usr_full_nm: 'Admin',
  is_admin: true,
  institutes: [{ inst_cd: 3, inst_nm: 'School', inst_typ: 'school' }],
};

type Call = { url: string; init: RequestInit };
let calls: Call[] = [];
let respond: (url: string, init: RequestInit) => Promise<Response>;
const json = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const headersOf = (c: Call): Record<string, string> => c.init.headers as Record<string, string>;
const shown = (): { message: unknown; title: unknown; color: unknown }[] =>
  vi.mocked(notifications.show).mock.calls.map(([n]) => ({ message: n.message, title: n.title, color: n.color }));

beforeEach(() => {
  calls = [];
  respond = async () => json(200, { ok: true });
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init: RequestInit) => {
      calls.push({ url, init });
      return respond(url, init);
    }),
  );
  vi.spyOn(notifications, 'show').mockImplementation(() => 'id');
  window.history.pushState({}, '', '/sms/master/religion/table');
  document.cookie = 'XSRF-TOKEN=xsrf123; path=/';
});

afterEach(() => {
  signOut();
  registerNavigate(null);
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('headers', () => {
  it('sends auth_token login on sign-in, with the XSRF token', async () => {
    await http.post('/api/employee/login/', { usr_nm: 'A', usr_pwd: 'B' }, { silent: true });
    const h = headersOf(calls[0]!);
    expect(h.auth_token).toBe('login');
    expect(h.platform).toBe('web');
    expect(h.data_chk).toBe('0');
    expect(h['X-XSRF-TOKEN']).toBe('xsrf123');
  });

  it('refuses to call anything but sign-in without a session', async () => {
    await expect(http.get('/api/religion/')).rejects.toMatchObject({ status: 401, cancelled: true });
    expect(calls).toHaveLength(0);
  });

  it('carries the session, institute, year and route names', async () => {
    signIn(user);
    setAcademicYear({ acdm_cd: 9, label: '2026-27' });
    await http.get('/api/religion/', { query: { q: 'hin', page: 1 } });
    expect(calls[0]!.url).toBe('/api/religion/?q=hin&page=1');
    const g = headersOf(calls[0]!);
    expect(g).toMatchObject({ username: 'ADMIN', usercode: '1', auth_token: 'tok', acdm_year: '2026-27', acdm_cd: '9', inst_cd: '3', pagename: 'religion' });
    expect(g.modulename).toBeUndefined();
    expect(g['X-XSRF-TOKEN']).toBeUndefined();

    await http.put('/api/religion/4', { rgn_nm: 'x' });
    const p = headersOf(calls[1]!);
    expect(p.modulename).toBe('master');
    expect(p['X-XSRF-TOKEN']).toBe('xsrf123');
    expect(p['content-type']).toBe('application/json');
  });

  it('never sends the XSRF token to another origin', async () => {
    signIn(user);
    await http.post('https://elsewhere.example/api/x/', {});
    expect(headersOf(calls[0]!)['X-XSRF-TOKEN']).toBeUndefined();
  });
});

describe('toasts', () => {
  beforeEach(() => signIn(user));

  it('announces a create and an update', async () => {
    await http.post('/api/religion/', { rgn_nm: 'x' });
    await http.put('/api/religion/4', { rgn_nm: 'y' });
    expect(shown().map((s) => s.message)).toEqual(['RELIGION Created Successfully.', 'RELIGION Updated Successfully.']);
  });

  it('keeps quiet for dontShowMsg, which is not sent on', async () => {
    await http.post('/api/religion/', {}, { headers: { dontShowMsg: '1' } });
    expect(shown()).toEqual([]);
    expect(headersOf(calls[0]!).dontShowMsg).toBeUndefined();
  });

  it('toasts the server sentence as ERROR and throws it with details', async () => {
    respond = async () => json(400, { statusCode: 400, message: 'Bad data.', details: [{ field: 'rgn_nm', message: 'Too long.' }] });
    const err = await http.post('/api/religion/', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect(err).toMatchObject({ status: 400, message: 'Bad data.', details: [{ field: 'rgn_nm', message: 'Too long.' }] });
    expect(shown()).toEqual([{ message: 'Bad data.', title: 'ERROR', color: 'red' }]);
  });

  it('falls back to the generic sentence', async () => {
    respond = async () => new Response('<html>', { status: 500 });
    await expect(http.get('/api/religion/')).rejects.toMatchObject({ status: 500, message: 'Internal server error, Please try again later.' });
    expect(shown().map((s) => s.message)).toEqual(['Internal server error, Please try again later.']);
  });

  // Spec section 8: only the global handler is silent for 404, 405 and 504; the client toasts them once.
  it('toasts 404, 405 and 504 once each, with the server sentence or the fallback', async () => {
    respond = async () => json(404, { message: 'Not here.' });
    await expect(http.get('/api/religion/77')).rejects.toMatchObject({ status: 404, message: 'Not here.' });
    respond = async () => json(405, { statusCode: 405, error: 'Method Not Allowed', message: 'Route PATCH:/api/religion/ not found' });
    await expect(http.put('/api/religion/', {})).rejects.toMatchObject({ status: 405 });
    respond = async () => new Response('Gateway Timeout', { status: 504 });
    await expect(http.get('/api/religion/')).rejects.toMatchObject({ status: 504, message: 'Internal server error, Please try again later.' });
    expect(shown()).toEqual([
      { message: 'Not here.', title: 'ERROR', color: 'red' },
      { message: 'Route PATCH:/api/religion/ not found', title: 'ERROR', color: 'red' },
      { message: 'Internal server error, Please try again later.', title: 'ERROR', color: 'red' },
    ]);
  });

  it('honours silent, for 404 too', async () => {
    respond = async () => json(409, { message: 'Exists.' });
    await http.post('/api/religion/', {}, { silent: true }).catch(() => undefined);
    respond = async () => json(404, { message: 'Not here.' });
    await expect(http.get('/api/user_permission/5', { silent: true })).rejects.toMatchObject({ status: 404, message: 'Not here.' });
    expect(shown()).toEqual([]);
  });

  it('toasts a network failure', async () => {
    respond = async () => {
      throw new TypeError('Failed to fetch');
    };
    await expect(http.get('/api/religion/')).rejects.toMatchObject({ status: 0, cancelled: false });
    expect(shown().map((s) => s.message)).toEqual(['Internal server error, Please try again later.']);
  });
});

describe('401 and cancellation', () => {
  it('signs out and goes to login on 401', async () => {
    const navigate = vi.fn();
    registerNavigate(navigate);
    signIn(user);
    respond = async () => json(401, { message: 'Your session has ended.' });
    await expect(http.get('/api/religion/')).rejects.toMatchObject({ status: 401 });
    expect(shown().map((s) => s.message)).toEqual(['Your session has ended.']);
    expect(navigate).toHaveBeenCalledWith('/login');
    expect(localStorage.getItem('campus.user')).toBeNull();
  });

  it('while signing out, sends only the logout: a screen loading meanwhile gets no 401 toast', async () => {
    signIn(user);
    respond = (url) => Promise.resolve(url.includes('/logout') ? json(200, { ok: true }) : json(401, { message: 'Your session has ended.' }));
    startSignOut();
    try {
      await expect(http.get('/api/dashboard/')).rejects.toMatchObject({ status: 0, cancelled: true });
      await http.get('/api/employee/logout/', { query: { usr_nm: 'ADMIN' }, silent: true, keepOnNavigation: true });
    } finally {
      endSignOut();
    }
    expect(calls.map((c) => c.url)).toEqual(['/api/employee/logout/?usr_nm=ADMIN']);
    expect(shown()).toEqual([]);
    // Signed in again, calls go out as before.
    respond = async () => json(200, { ok: true });
    await http.get('/api/dashboard/');
    expect(calls).toHaveLength(2);
  });

  it('aborts pending requests without a toast', async () => {
    signIn(user);
    respond = (_url, init) =>
      new Promise((_resolve, reject) => {
        init.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
      });
    const pending = http.get('/api/religion/');
    cancelPendingRequests();
    await expect(pending).rejects.toMatchObject({ status: 0, cancelled: true });
    expect(shown()).toEqual([]);
  });

  it('leaves keepOnNavigation requests running and records where a cancelled one started', async () => {
    signIn(user);
    const answers: ((r: Response) => void)[] = [];
    respond = (_url, init) =>
      new Promise((resolve, reject) => {
        answers.push(resolve);
        init.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
      });
    const shell = http.get<{ rows: number }>('/api/academic/active', { keepOnNavigation: true });
    const page = http.get('/api/religion/');
    cancelPendingRequests();
    await expect(page).rejects.toMatchObject({ status: 0, cancelled: true, aborted: true, startedAt: '/sms/master/religion/table' });
    expect(calls[0]!.init.signal?.aborted).toBe(false);
    answers[0]!(json(200, { rows: 1 }));
    await expect(shell).resolves.toEqual({ rows: 1 });
  });

  it('keeps the loader of a later request on when a kept request ends after a cancellation', async () => {
    signIn(user);
    const answers: ((r: Response) => void)[] = [];
    respond = () => new Promise((resolve) => answers.push(resolve));
    const loading = renderHook(() => useGlobalLoading());
    let shell: Promise<unknown> = Promise.resolve();
    let next: Promise<unknown> = Promise.resolve();
    act(() => {
      shell = http.get('/api/user_permission/userDetail', { keepOnNavigation: true });
    });
    expect(loading.result.current).toBe(true);
    act(() => cancelPendingRequests());
    expect(loading.result.current).toBe(false);
    act(() => {
      next = http.get('/api/religion/');
    });
    expect(loading.result.current).toBe(true);
    await act(async () => {
      answers[0]!(json(200, {}));
      await shell;
    });
    // The kept request's own loader was stopped with the others: it must not stop the newer one's.
    expect(loading.result.current).toBe(true);
    await act(async () => {
      answers[1]!(json(200, {}));
      await next;
    });
    expect(loading.result.current).toBe(false);
    loading.unmount();
  });

  it('follows the caller signal too', async () => {
    signIn(user);
    respond = (_url, init) =>
      new Promise((_resolve, reject) => {
        init.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
      });
    const controller = new AbortController();
    const pending = http.get('/api/religion/', { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ cancelled: true });
  });
});
