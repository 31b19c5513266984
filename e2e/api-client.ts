import { expect } from 'vitest';

/*
 * Calls the API as the web client does (spec section 7 headers, XSRF double submit), for browser tests
 * that set up or check data behind the screens.
 */

export interface ApiSession {
  usrNm: string;
  usrCd: number;
  token: string;
  instCd: number;
  xsrf: string;
}

/** `userAgent`: sign in as another device would (the 'Signed-in devices' list names it). */
export async function apiLogin(baseUrl: string, usrNm: string, pwd: string, userAgent?: string): Promise<ApiSession> {
  const res = await fetch(`${baseUrl}/api/employee/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', auth_token: 'login', ...(userAgent ? { 'user-agent': userAgent } : {}) },
    body: JSON.stringify({ usr_nm: usrNm, usr_pwd: pwd }),
  });
  expect(res.status, `sign-in of ${usrNm}`).toBe(200);
  const body = (await res.json()) as { usr_nm: string; usr_cd: number; usr_token: string; usr_inst_cd: number };
  const xsrf = res.headers
    .getSetCookie()
    .map((c) => /^XSRF-TOKEN=([^;]*)/.exec(c)?.[1])
    .find((v): v is string => !!v);
  if (!xsrf) throw new Error('the login answer set no XSRF-TOKEN cookie');
  return { usrNm: body.usr_nm, usrCd: body.usr_cd, token: body.usr_token, instCd: body.usr_inst_cd, xsrf };
}

export async function api<T>(
  baseUrl: string,
  s: ApiSession,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  where: { module: string; page: string },
  body?: unknown,
): Promise<{ status: number; json: T }> {
  const headers: Record<string, string> = {
    username: s.usrNm,
    usercode: String(s.usrCd),
    auth_token: s.token,
    inst_cd: String(s.instCd),
    platform: 'web',
    // Sent as 0 on purpose: the server must take 'his students only' from the permission row, not from here.
    data_chk: '0',
    pagename: where.page,
  };
  if (method !== 'GET') {
    headers.modulename = where.module;
    headers['content-type'] = 'application/json';
    headers['x-xsrf-token'] = s.xsrf;
    headers.cookie = `XSRF-TOKEN=${s.xsrf}`;
  }
  const res = await fetch(`${baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, json: (text ? JSON.parse(text) : null) as T };
}
