import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, call, login, startTestServer, type Session, type TestServer } from './test-server';

/*
 * Issue 11, 'Headers': no API answer may be kept by the browser or a proxy (a shared office computer, a
 * school's caching proxy), and the API description is for signed-in users only.
 */
describe.each(backends)('API headers and documentation access on %s', (backend) => {
  let srv: TestServer;
  let admin: Session;
  beforeAll(async () => {
    srv = await startTestServer(backend);
    admin = await login(srv.app);
  });
  afterAll(async () => srv?.close());

  it('sends Cache-Control: no-store with every kind of /api answer', async () => {
    const answers = [
      await call(srv.app, admin, 'GET', '/api/religion/'),
      await call(srv.app, admin, 'GET', '/api/religion/1'),
      await call(srv.app, admin, 'GET', '/api/religion/?page=0'),
      await call(srv.app, admin, 'GET', '/api/religion/999999'),
      await call(srv.app, admin, 'GET', '/api/no_such_thing/'),
      await call(srv.app, admin, 'GET', '/api/health'),
      await call(srv.app, admin, 'GET', '/api/docs/json'),
      await call(srv.app, admin, 'POST', '/api/religion/', { rgn_nm: `Faith ${Date.now()}` }),
      await srv.app.inject({ method: 'GET', url: '/api/religion/' }),
      await srv.app.inject({ method: 'GET', url: '//api/religion/' }),
      await srv.app.inject({ method: 'POST', url: '/api/employee/login/', payload: { usr_nm: 'ADMIN', usr_pwd: 'wrong-password' }, headers: { auth_token: 'login' } }),
      await srv.app.inject({ method: 'POST', url: '/api/employee/login/', payload: { usr_nm: 'ADMIN', usr_pwd: 'Test-Admin-Pass-1' }, headers: { auth_token: 'login' } }),
    ];
    expect(answers.map((r) => [r.statusCode, r.headers['cache-control']])).toEqual(answers.map((r) => [r.statusCode, 'no-store']));
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 400, 404, 404, 200, 200, 201, 401, 401, 401, 200]);
  });

  it('answers the API description to a signed-in user only', async () => {
    for (const url of ['/api/docs/json', '/api/docs/yaml']) {
      const anonymous = await srv.app.inject({ method: 'GET', url });
      expect(anonymous.statusCode, url).toBe(401);
      expect(anonymous.json<{ message: string }>().message).toBe('Sign in to read the API documentation.');
      expect(anonymous.body).not.toContain('/api/religion/');
      const forged = await srv.app.inject({ method: 'GET', url, headers: { auth_token: 'not-a-session-token' } });
      expect(forged.statusCode, url).toBe(401);
      const signedIn = await call(srv.app, admin, 'GET', url);
      expect(signedIn.statusCode, url).toBe(200);
      expect(signedIn.body).toContain('/api/religion/');
    }
  });

  it('stops answering the description once the session has ended', async () => {
    const other = await login(srv.app);
    expect((await call(srv.app, other, 'GET', '/api/docs/json')).statusCode).toBe(200);
    const out = await call(srv.app, other, 'GET', '/api/employee/logout/');
    expect(out.statusCode).toBeLessThan(300);
    expect((await call(srv.app, other, 'GET', '/api/docs/json')).statusCode).toBe(401);
  });

  it("serves the documentation page, whose requests carry the web app's sign-in", async () => {
    const page = await srv.app.inject({ method: 'GET', url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const init = await srv.app.inject({ method: 'GET', url: '/api/docs/static/swagger-initializer.js' });
    expect(init.statusCode).toBe(200);
    expect(init.body).toContain('requestInterceptor');
    expect(init.body).toContain("localStorage.getItem('campus.user')");
  });
});
