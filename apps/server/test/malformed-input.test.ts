import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestValueError } from '../src/lib/http-error';
import { findNul } from '../src/lib/malformed-input';
import { backends, call, login, multipartFile, startTestServer, type Session, type TestServer } from './test-server';

/*
 * Issue 11, '500 on malformed input': a NUL character in a search, a filter or a name, a code past the integer
 * range and a page number past any list each answered 500. Each is the sender's mistake: 400, and a sentence
 * that says which value and what it may be.
 */

const NUL_IN = (name: string) => `The value of '${name}' contains a NUL character (code 0), which no value may contain.`;
const NUL_IN_NAME = 'A name in the request contains a NUL character (code 0), which no name or value may contain.';
const WHOLE = (name: string, max = 2147483647) => `The value of '${name}' must be a whole number from 1 to ${max}.`;

describe.each(backends)('malformed input on %s: 400 with a sentence, never 500', (backend) => {
  let srv: TestServer;
  let admin: Session;
  beforeAll(async () => {
    srv = await startTestServer(backend);
    admin = await login(srv.app);
  });
  afterAll(async () => srv?.close());

  const refused = async (url: string, message: string) => {
    const res = await call(srv.app, admin, 'GET', url);
    expect({ url, status: res.statusCode, message: res.json<{ message: string }>().message }).toEqual({ url, status: 400, message });
  };

  it('refuses a NUL character in the search, a filter, a sort, the columns, a name and a record code', async () => {
    await refused('/api/religion/?q=%00', NUL_IN('q'));
    await refused('/api/religion/?q=Hin%00du', NUL_IN('q'));
    await refused('/api/religion/?f_rgn_nm=a%00', NUL_IN('f_rgn_nm'));
    await refused('/api/religion/?sort=%00', NUL_IN('sort'));
    await refused('/api/religion/?cols=rgn_nm,%00', NUL_IN('cols'));
    await refused('/api/religion/?%00=1', NUL_IN_NAME);
    await refused('/api/religion/?f_rgn_nm%00=1', NUL_IN_NAME);
    await refused('/api/religion/options?q=%00', NUL_IN('q'));
    await refused('/api/religion/1%00', NUL_IN('id'));
  });

  it('refuses a NUL character in a body, naming where it sits', async () => {
    const res = await call(srv.app, admin, 'POST', '/api/religion/', { rgn_nm: 'Zoroastrian\u0000', rgn_desc: 'x' });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toBe(NUL_IN('rgn_nm'));
    const nested = await call(srv.app, admin, 'DELETE', '/api/religion/', { primids: [1], notes: [{ text: 'a\u0000b' }] });
    expect(nested.json<{ message: string }>().message).toBe(NUL_IN('notes[0].text'));
    // Nothing was written.
    const list = await call(srv.app, admin, 'GET', '/api/religion/?q=Zoroastrian');
    expect(list.json<{ total: number }>().total).toBe(0);
  });

  it('refuses a NUL character at sign-in, before any account is looked at', async () => {
    for (const payload of [{ usr_nm: 'a\u0000', usr_pwd: 'x' }, { usr_nm: 'ADMIN', usr_pwd: 'pass\u0000word' }]) {
      const res = await srv.app.inject({ method: 'POST', url: '/api/employee/login/', payload, headers: { auth_token: 'login' } });
      expect(res.statusCode).toBe(400);
      expect(res.json<{ message: string }>().message).toBe(NUL_IN(Object.keys(payload).find((k) => payload[k as keyof typeof payload].includes('\u0000'))!));
    }
  });

  it('refuses a record code, a filter code or a page past the integer range', async () => {
    await refused('/api/religion/2147483648', 'The record code must be a whole number from 1 to 2147483647.');
    await refused('/api/religion/99999999999999999999', 'The record code must be a whole number from 1 to 2147483647.');
    await refused('/api/section/?f_cls_cd=2147483648', WHOLE('f_cls_cd'));
    await refused('/api/religion/?page=1e308', WHOLE('page'));
    await refused('/api/religion/?page=1e17', WHOLE('page'));
    await refused('/api/religion/?page=100000000000000000', WHOLE('page'));
    await refused('/api/religion/?page=2147483648', WHOLE('page'));
    await refused('/api/religion/?page=0x10', WHOLE('page'));
    await refused('/api/religion/?page=0', WHOLE('page'));
    await refused('/api/religion/?size=1e2', WHOLE('size', 500));
    await refused('/api/religion/?size=501', WHOLE('size', 500));
    // The largest code is simply not there; the last page of the range is simply empty.
    expect((await call(srv.app, admin, 'GET', '/api/religion/2147483647')).statusCode).toBe(404);
    const last = await call(srv.app, admin, 'GET', '/api/religion/?page=2147483647&size=500');
    expect(last.statusCode).toBe(200);
    expect(last.json<{ rows: unknown[] }>().rows).toEqual([]);
  });

  it('says in a sentence what is wrong with an address or a body the server cannot read, and lets none be kept', async () => {
    const cases: [string, { url: string; method?: 'GET' | 'POST'; payload?: string }, number, string][] = [
      ['bad escape', { url: '/api/religion/%ED%A0%80' }, 400, "The address is not valid: a '%' must be followed by two hexadecimal digits that spell UTF-8 text."],
      ['over-long part', { url: `/api/religion/${'1'.repeat(101)}` }, 414, 'A part of the address is too long (at most 100 characters).'],
      ['broken JSON', { url: '/api/employee/login/', method: 'POST', payload: '{"usr_nm":' }, 400, 'The request body is not valid JSON.'],
      ['empty JSON', { url: '/api/employee/login/', method: 'POST', payload: '' }, 400, 'The request body is empty, but its type says JSON.'],
    ];
    for (const [what, req, status, message] of cases) {
      const res = await srv.app.inject({
        method: req.method ?? 'GET',
        url: req.url,
        payload: req.payload,
        headers: { auth_token: 'login', ...(req.payload !== undefined ? { 'content-type': 'application/json' } : {}) },
      });
      expect({ what, status: res.statusCode, message: res.json<{ message: string }>().message, cache: res.headers['cache-control'] }).toEqual({
        what,
        status,
        message,
        cache: 'no-store',
      });
    }
  });

  it('refuses to empty a yes/no field on update (the database would refuse a NULL there)', async () => {
    const row = (await call(srv.app, admin, 'GET', '/api/institute/1')).json<{ row_ver: number; is_active: boolean }>();
    for (const emptied of ['', null]) {
      const res = await call(srv.app, admin, 'PUT', '/api/institute/1', { is_active: emptied, row_ver: row.row_ver });
      expect(res.statusCode).toBe(400);
      expect(res.json<{ details: { field: string; message: string }[] }>().details).toEqual([{ field: 'is_active', message: "'Active' must be yes or no." }]);
    }
    expect((await call(srv.app, admin, 'GET', '/api/institute/1')).json<{ row_ver: number; is_active: boolean }>()).toMatchObject(row);
  });

  it('answers a NUL character the checks do not see (inside an imported file) with 400, not 500', async () => {
    const { payload, headers } = multipartFile('religions.csv', 'Religion Name,Description\nBaha\u0000i,faith\n');
    const res = await call(srv.app, admin, 'POST', '/api/religion/import', payload, { headers });
    expect(res.statusCode).toBeLessThan(500);
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
  });
});

describe('the database refusals a request value can cause', () => {
  const refusal = (code: string) => requestValueError(Object.assign(new Error('wrapped'), { cause: { code } }));
  it("are each a 400 with a sentence, and other errors stay the server's", () => {
    for (const code of ['22021', '22P05', '22003', '22P02', '22001', '22007', '22008']) {
      expect(refusal(code)?.statusCode, code).toBe(400);
      expect(refusal(code)?.message, code).toMatch(/^[A-Z].+\.$/);
    }
    expect(refusal('22012')).toBeNull();
    expect(refusal('42P01')).toBeNull();
  });

  it('finds a NUL in a value or a name however deep, without recursion', () => {
    let deep: unknown = 'a\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findNul(deep, 'x')?.path.startsWith('x[0][0]')).toBe(true);
    expect(findNul({ a: { 'b\u0000': 1 } }, '')).toEqual({ path: 'a', inName: true });
    expect(findNul({ a: ['ok', { b: 'x\u0000' }] }, '')).toEqual({ path: 'a[1].b', inName: false });
    expect(findNul({ a: ['ok'] }, '')).toBeNull();
    // A raw body (the payment webhook's bytes) is its route's to read.
    expect(findNul(Buffer.from([0, 0]), '')).toBeNull();
  });
});
