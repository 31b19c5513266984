/** Signing in through the API and the spec's section 7 headers, as the web client sends them. */

export interface ApiSession {
  base: string;
  usr_cd: number;
  usr_nm: string;
  token: string;
  xsrf: string;
  instCd: number;
  acdmCd: number;
}

export async function signIn(base: string, usr_nm: string, usr_pwd: string, instCd: number, acdmCd: number): Promise<ApiSession> {
  const res = await fetch(`${base}/api/employee/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', auth_token: 'login' },
    body: JSON.stringify({ usr_nm, usr_pwd }),
  });
  if (res.status !== 200) throw new Error(`sign-in of ${usr_nm} refused: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { usr_cd: number; usr_nm: string; usr_token: string };
  const cookies = res.headers.getSetCookie();
  const xsrf = cookies.map((c) => /^XSRF-TOKEN=([^;]*)/.exec(c)?.[1]).find(Boolean) ?? '';
  return { base, usr_cd: body.usr_cd, usr_nm: body.usr_nm, token: body.usr_token, xsrf, instCd, acdmCd };
}

/** pagename picks the page whose permission the server checks; modulename goes with writes. */
export function headersOf(s: ApiSession, pagename: string, method = 'GET', modulename?: string): Record<string, string> {
  const h: Record<string, string> = {
    username: s.usr_nm,
    usercode: String(s.usr_cd),
    auth_token: s.token,
    platform: 'bench',
    inst_cd: String(s.instCd),
    // 0 = no year chosen yet (institute-wide pages), as the web client sends before a year is picked.
    acdm_cd: s.acdmCd ? String(s.acdmCd) : '',
    data_chk: '0',
    pagename,
    'accept-encoding': 'gzip, br',
  };
  if (method !== 'GET') {
    if (modulename) h.modulename = modulename;
    h['x-xsrf-token'] = s.xsrf;
    h.cookie = `XSRF-TOKEN=${s.xsrf}`;
  }
  return h;
}
