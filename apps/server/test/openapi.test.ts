import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, login, startTestServer, type Session, type TestServer } from './test-server';

interface Operation {
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, { schema: { required?: string[]; properties?: Record<string, { description?: string }> } }> };
}

/* The published API documentation is read by integrators: bodies and list parameters must be there. */
describe('API documentation (OpenAPI at /api/docs)', () => {
  let srv: TestServer;
  let admin: Session;
  beforeAll(async () => {
    srv = await startTestServer('pglite');
    admin = await login(srv.app);
  });
  afterAll(async () => srv?.close());

  it('describes every entity route with its body and list parameters, from the declarations', async () => {
    const res = await call(srv.app, admin, 'GET', '/api/docs/json');
    expect(res.statusCode).toBe(200);
    const doc = res.json<{ paths: Record<string, Record<string, Operation>> }>();
    const religion = doc.paths['/api/religion/'];
    const create = religion.post.requestBody?.content['application/json'].schema;
    expect(create?.required).toEqual(['rgn_nm']);
    expect(create?.properties?.rgn_nm.description).toBe('Religion Name');
    const params = (religion.get.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
    expect(params).toEqual(expect.arrayContaining(['q', 'sort', 'dir', 'page', 'size', 'f_rgn_nm']));
    const update = doc.paths['/api/religion/{id}'].put.requestBody?.content['application/json'].schema;
    expect(update?.required).toEqual(['row_ver']);
    expect(doc.paths['/api/religion/'].delete.requestBody?.content['application/json'].schema.required).toEqual(['primids']);
    // Passwords are write-only: in the body, never a filter.
    expect(doc.paths['/api/employee/'].post.requestBody?.content['application/json'].schema.properties?.usr_pwd).toBeDefined();
    expect((doc.paths['/api/employee/'].get.parameters ?? []).map((p) => p.name)).not.toContain('f_usr_pwd');
  });
});
