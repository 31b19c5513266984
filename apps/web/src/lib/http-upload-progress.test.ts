import { notifications } from '@mantine/notifications';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { registerNavigate } from './app-navigation';
import { cancelPendingRequests, http, HttpError, type ProgressLine } from './http-client';
import { signIn, signOut, type SessionUser } from './session-store';

/**
 * http.uploadWithProgress (the import page's Check and Commit): XMLHttpRequest, so the bytes sent can be
 * shown, and the server's NDJSON progress lines read as they arrive, with the same headers, toasts and
 * cancelling as the other calls.
 */

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

/** Just enough of XMLHttpRequest: the test plays the server by feeding the answer in pieces. */
class FakeXhr {
  static last: FakeXhr | null = null;
  method = '';
  url = '';
  headers: Record<string, string> = {};
  status = 0;
  responseText = '';
  aborted = false;
  private responseHeaders: Record<string, string> = {};
  upload: { onprogress: ((e: { loaded: number; total: number; lengthComputable: boolean }) => void) | null } = { onprogress: null };
  onprogress: (() => void) | null = null;
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;

  open(method: string, url: string): void {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(k: string, v: string): void {
    this.headers[k] = v;
  }
  getResponseHeader(k: string): string | null {
    return this.responseHeaders[k.toLowerCase()] ?? null;
  }
  send(): void {
    FakeXhr.last = this;
  }
  abort(): void {
    this.aborted = true;
  }
  /** The server's answer, arriving in the given pieces. */
  answer(status: number, type: string, pieces: string[]): void {
    this.status = status;
    this.responseHeaders['content-type'] = type;
    for (const p of pieces) {
      this.responseText += p;
      this.onprogress?.();
    }
    this.onload?.();
  }
}

const sent = (): FakeXhr => {
  if (!FakeXhr.last) throw new Error('nothing was sent');
  return FakeXhr.last;
};
const shown = (): { message: unknown; color: unknown }[] => vi.mocked(notifications.show).mock.calls.map(([n]) => ({ message: n.message, color: n.color }));

beforeEach(() => {
  FakeXhr.last = null;
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  vi.spyOn(notifications, 'show').mockImplementation(() => 'id');
  window.history.pushState({}, '', '/sms/student/profile/import');
  document.cookie = 'XSRF-TOKEN=xsrf123; path=/';
  signIn(user);
});

afterEach(() => {
  signOut();
  registerNavigate(null);
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('upload with progress', () => {
  it('sends the contract headers and the XSRF token, reports bytes sent and each line as it arrives, and gives back the result', async () => {
    const lines: ProgressLine[] = [];
    const bytes: number[] = [];
    const call = http.uploadWithProgress<{ ok: boolean; total: number }>('/api/student/import', new FormData(), {
      query: { dryRun: 1 },
      headers: { dontShowMsg: '1' },
      onUpload: (n) => bytes.push(n),
      onProgress: (l) => lines.push(l),
    });
    const xhr = sent();
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('/api/student/import?dryRun=1');
    expect(xhr.headers).toMatchObject({ auth_token: 'tok', pagename: 'profile', modulename: 'student', 'X-XSRF-TOKEN': 'xsrf123' });
    expect(xhr.headers.accept).toContain('application/x-ndjson');
    expect(xhr.headers.dontShowMsg).toBeUndefined();
    xhr.upload.onprogress?.({ loaded: 400, total: 1000, lengthComputable: true });
    // A line cut between two pieces is reported once, whole.
    xhr.answer(200, 'application/x-ndjson; charset=utf-8', ['{"phase":"read","done":1000}\n{"phase":"che', 'ck","done":500,"total":1000}\n', '{"result":{"ok":true,"total":1000}}\n']);
    await expect(call).resolves.toEqual({ ok: true, total: 1000 });
    expect(bytes).toEqual([400]);
    expect(lines).toEqual([
      { phase: 'read', done: 1000 },
      { phase: 'check', done: 500, total: 1000 },
    ]);
    expect(shown()).toEqual([]);
  });

  it('toasts and throws a refusal that came as the last line, after progress had started', async () => {
    const call = http.uploadWithProgress('/api/student/import', new FormData(), { headers: { dontShowMsg: '1' } });
    sent().answer(200, 'application/x-ndjson', ['{"phase":"read","done":50000}\n{"error":{"statusCode":400,"message":"At most 50000 rows can be imported at once."}}\n']);
    const err = await call.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect(err).toMatchObject({ status: 400, message: 'At most 50000 rows can be imported at once.' });
    expect(shown()).toEqual([{ message: 'At most 50000 rows can be imported at once.', color: 'red' }]);
  });

  it('reads an ordinary JSON refusal as upload does', async () => {
    const call = http.uploadWithProgress('/api/student/import', new FormData());
    sent().answer(400, 'application/json; charset=utf-8', ['{"statusCode":400,"message":"The file is not a valid .xlsx workbook."}']);
    await expect(call).rejects.toMatchObject({ status: 400, message: 'The file is not a valid .xlsx workbook.' });
    expect(shown()).toEqual([{ message: 'The file is not a valid .xlsx workbook.', color: 'red' }]);
  });

  it('signed out, it sends nothing and gives a rejected promise rather than throwing', async () => {
    signOut();
    const call = http.uploadWithProgress('/api/student/import', new FormData());
    await expect(call).rejects.toMatchObject({ status: 401, cancelled: true });
    expect(FakeXhr.last).toBeNull();
  });

  it('is cancelled with the page: the request is aborted and nothing is toasted', async () => {
    const call = http.uploadWithProgress('/api/student/import', new FormData());
    const xhr = sent();
    cancelPendingRequests();
    await expect(call).rejects.toMatchObject({ cancelled: true, status: 0 });
    expect(xhr.aborted).toBe(true);
    expect(shown()).toEqual([]);
  });
});
