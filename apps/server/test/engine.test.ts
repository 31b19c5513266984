import { apiPath, hasRoute, requiredMessage, uniqueTogetherFoldsCase, writableFields, type AnyEntity, type DateField, type NumberField } from '@campus/entities/define';
import { pagesOfEntity } from '@campus/entities/pages';
import { entities } from '@campus/entities/registry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedSampleFields, sampleBody } from './sample-values';
import { backends, call, login, startTestServer, type Session, type TestServer } from './test-server';

type Row = Record<string, unknown>;

/**
 * Every entity with a page and the generic create route goes through the same checks. A student discount
 * is left to test/discount.test.ts: its hooks derive the percent from the amount and hold the fee mapping to
 * the student's class, which random sample rows cannot satisfy. A quick menu shortcut is its user's own, to
 * a real page, at most 12 (its POST is not the generic one): test/dashboard-widgets.test.ts.
 */
const derived = new Set(['student_discount', 'quick_menu']);
const crudEntities = entities.filter((e) => pagesOfEntity(e.name).length > 0 && hasRoute(e, 'create') && !derived.has(e.name));
const listOnly = entities.filter((e) => pagesOfEntity(e.name).length > 0 && !hasRoute(e, 'create') && hasRoute(e, 'list'));

describe.each(backends)('generic engine on %s', (backend) => {
  let srv: TestServer;
  let s: Session;
  let other: Session;

  beforeAll(async () => {
    srv = await startTestServer(backend);
    s = await login(srv.app);
    // The admin works in both demo institutes: the same session, the other institute's header.
    other = { ...s, instCd: s.instCd === 1 ? 2 : 1 };
  });
  afterAll(async () => srv?.close());

  const pageOf = (e: AnyEntity, sess: Session): Session => ({ ...sess, pagename: pagesOfEntity(e.name)[0].page, modulename: pagesOfEntity(e.name)[0].module });

  describe.each(crudEntities.map((e) => [e.name, e] as const))('%s', (_name, e) => {
    const api = apiPath(e);
    const titleField = e.fields[e.title];
    const searchable = writableFields(e).find(([, f]) => f.search && f.kind === 'text');

    it('creates, reads, lists, searches, sorts and pages', async () => {
      const sess = pageOf(e, s);
      const body = await sampleBody(srv.app, sess, e);
      const res = await call(srv.app, sess, 'POST', api, body);
      expect(res.statusCode, res.body).toBe(201);
      const row = res.json<Row>();
      const id = Number(row[e.key]);
      expect(id).toBeGreaterThan(0);
      expect(row.row_ver).toBe(1);
      for (const [name, f] of writableFields(e)) {
        if (f.kind === 'password') expect(row).not.toHaveProperty(name);
        else if (f.kind !== 'image' && f.kind !== 'file' && f.kind !== 'json') expect(String(row[name])).toBe(String(body[name]));
      }

      const got = await call(srv.app, sess, 'GET', `${api}${id}`);
      expect(got.statusCode).toBe(200);
      expect(got.json<Row>()[e.key]).toBe(id);

      if (searchable) {
        const term = String(body[searchable[0]]).slice(-6);
        const found = await call(srv.app, sess, 'GET', `${api}?q=${encodeURIComponent(term)}`);
        expect(found.statusCode).toBe(200);
        expect(found.json<{ rows: Row[] }>().rows.map((r) => r[e.key])).toContain(id);
        const none = await call(srv.app, sess, 'GET', `${api}?q=${encodeURIComponent('%zz_no_such_value')}`);
        expect(none.json<{ total: number }>().total).toBe(0);
      }

      for (const [name, f] of Object.entries(e.fields)) {
        if (f.kind === 'password' || f.kind === 'json') continue;
        for (const dir of ['asc', 'desc']) {
          const sorted = await call(srv.app, sess, 'GET', `${api}?sort=${name}&dir=${dir}&size=5`);
          expect(sorted.statusCode, `${name} ${dir}: ${sorted.body}`).toBe(200);
        }
      }
      const bad = await call(srv.app, sess, 'GET', `${api}?sort=${encodeURIComponent('1; drop table x')}`);
      expect(bad.statusCode).toBe(400);

      const all = await call(srv.app, sess, 'GET', `${api}?size=500`);
      const total = all.json<{ total: number }>().total;
      expect(total).toBeGreaterThanOrEqual(1);
      const page1 = await call(srv.app, sess, 'GET', `${api}?size=1&page=1`);
      expect(page1.json<{ rows: Row[]; total: number }>()).toMatchObject({ total });
      expect(page1.json<{ rows: Row[] }>().rows).toHaveLength(1);
      const beyond = await call(srv.app, sess, 'GET', `${api}?size=1&page=${total + 1}`);
      expect(beyond.json<{ rows: Row[] }>().rows).toHaveLength(0);
    });

    it('updates with row_ver, refuses a stale update and keeps the newer data', async () => {
      const sess = pageOf(e, s);
      const created = (await call(srv.app, sess, 'POST', api, await sampleBody(srv.app, sess, e))).json<Row>();
      const id = created[e.key];
      const fresh = await sampleBody(srv.app, sess, e);
      const fixed = fixedSampleFields(e);
      const editable =
        writableFields(e).find(([n, f]) => !f.immutable && f.kind === 'text' && !f.format && n !== e.title && !fixed.has(n)) ??
        writableFields(e).find(([n, f]) => !f.immutable && f.kind === 'text' && !fixed.has(n));
      if (!editable) return;
      const [field] = editable;
      const up = await call(srv.app, sess, 'PUT', `${api}${id}`, { [field]: fresh[field], row_ver: 1 });
      expect(up.statusCode, up.body).toBe(200);
      expect(up.json<Row>()).toMatchObject({ [field]: fresh[field], row_ver: 2 });
      const stale = await call(srv.app, sess, 'PUT', `${api}${id}`, { [field]: 'Overwrite attempt', row_ver: 1 });
      expect(stale.statusCode).toBe(409);
      const after = (await call(srv.app, sess, 'GET', `${api}${id}`)).json<Row>();
      expect(after[field]).toBe(fresh[field]);
    });

    it('takes the row back as it was read: key, read-only and display columns unchanged', async () => {
      const sess = pageOf(e, s);
      const created = (await call(srv.app, sess, 'POST', api, await sampleBody(srv.app, sess, e))).json<Row>();
      const read = (await call(srv.app, sess, 'GET', `${api}${String(created[e.key])}`)).json<Row>();
      const back = await call(srv.app, sess, 'PUT', `${api}${String(created[e.key])}`, read);
      expect(back.statusCode, back.body).toBe(200);
      // Nothing changed, so nothing was written.
      expect(back.json<Row>().row_ver).toBe(read.row_ver);
      const other = await call(srv.app, sess, 'PUT', `${api}${String(created[e.key])}`, { ...read, [e.key]: Number(created[e.key]) + 1 });
      expect(other.statusCode).toBe(400);
    });

    // Registered for the entities it applies to, so that the suite lists no skipped tests.
    if (!hasRoute(e, 'delete')) {
      it('has no delete route: its rows are corrected, never deleted', async () => {
        const sess = pageOf(e, s);
        const a = (await call(srv.app, sess, 'POST', api, await sampleBody(srv.app, sess, e))).json<Row>();
        expect((await call(srv.app, sess, 'DELETE', api, { primids: [a[e.key]] })).statusCode).toBe(404);
        expect((await call(srv.app, sess, 'GET', `${api}${a[e.key]}`)).statusCode).toBe(200);
      });
    } else it('deletes by primids, all or nothing', async () => {
      const sess = pageOf(e, s);
      const a = (await call(srv.app, sess, 'POST', api, await sampleBody(srv.app, sess, e))).json<Row>();
      const b = (await call(srv.app, sess, 'POST', api, await sampleBody(srv.app, sess, e))).json<Row>();
      const missing = await call(srv.app, sess, 'DELETE', api, { primids: [a[e.key], 99_999_999] });
      expect(missing.statusCode).toBe(404);
      expect((await call(srv.app, sess, 'GET', `${api}${a[e.key]}`)).statusCode).toBe(200);
      const del = await call(srv.app, sess, 'DELETE', api, { primids: [a[e.key], b[e.key]] });
      expect(del.statusCode, del.body).toBe(200);
      expect(del.json()).toEqual({ deleted: 2 });
      expect((await call(srv.app, sess, 'GET', `${api}${a[e.key]}`)).statusCode).toBe(404);
      const empty = await call(srv.app, sess, 'DELETE', api, { primids: [] });
      expect(empty.statusCode).toBe(400);
    });

    it('names the missing required field in the spec wording', async () => {
      const sess = pageOf(e, s);
      for (const [name, f] of writableFields(e).filter(([, f]) => f.required)) {
        const body = await sampleBody(srv.app, sess, e);
        body[name] = '';
        const res = await call(srv.app, sess, 'POST', api, body);
        expect(res.statusCode).toBe(400);
        expect(res.json<{ message: string }>().message).toBe(requiredMessage(f));
      }
    });

    it('refuses duplicates of unique fields, bad types and unknown fields', async () => {
      const sess = pageOf(e, s);
      const body = await sampleBody(srv.app, sess, e);
      expect((await call(srv.app, sess, 'POST', api, body)).statusCode).toBe(201);
      for (const [name] of writableFields(e).filter(([, f]) => f.unique)) {
        const dup = await sampleBody(srv.app, sess, e);
        dup[name] = typeof body[name] === 'string' ? String(body[name]).toLowerCase() : body[name];
        const res = await call(srv.app, sess, 'POST', api, dup);
        expect(res.statusCode, `${name}: ${res.body}`).toBe(409);
      }
      for (const u of e.uniqueTogether ?? []) {
        const dup = await sampleBody(srv.app, sess, e);
        // Typed text in another case is still the same combination ('A' and 'a' in one class).
        for (const n of u.fields) dup[n] = uniqueTogetherFoldsCase(e, n) ? String(body[n]).toLowerCase() : body[n];
        const res = await call(srv.app, sess, 'POST', api, dup);
        expect(res.statusCode).toBe(409);
        expect(res.json<{ message: string }>().message).toBe(u.message);
      }
      for (const [name, f] of writableFields(e)) {
        const wrong = f.kind === 'number' || f.kind === 'money' || f.kind === 'link' ? 'abc' : f.kind === 'date' ? '2026-02-30' : f.kind === 'select' ? 'NotAnOption' : f.kind === 'text' ? 'x'.repeat(f.max + 1) : null;
        if (wrong === null) continue;
        const res = await call(srv.app, sess, 'POST', api, { ...(await sampleBody(srv.app, sess, e)), [name]: wrong });
        expect(res.statusCode, `${name}=${wrong}`).toBe(400);
      }
      const unknown = await call(srv.app, sess, 'POST', api, { ...(await sampleBody(srv.app, sess, e)), no_such_field: 1 });
      expect(unknown.statusCode).toBe(400);
      expect(titleField).toBeDefined();
    });

    const ranges = writableFields(e).filter((x): x is [string, DateField & { notBefore: string }] => x[1].kind === 'date' && !!x[1].notBefore);
    if (ranges.length) {
      it('refuses a date before the date it may not precede, on create and on update of either end', async () => {
        const sess = pageOf(e, s);
        for (const [to, f] of ranges) {
          const from = f.notBefore;
          const message = `'${f.label}' cannot be before '${e.fields[from].label}'.`;
          const bad = await call(srv.app, sess, 'POST', api, { ...(await sampleBody(srv.app, sess, e)), [from]: '2026-06-15', [to]: '2026-06-14' });
          expect(bad.statusCode, bad.body).toBe(400);
          expect(bad.json<{ details: unknown[] }>().details).toEqual([{ field: to, message }]);
          const ok = await call(srv.app, sess, 'POST', api, { ...(await sampleBody(srv.app, sess, e)), [from]: '2026-06-15', [to]: '2026-06-15' });
          expect(ok.statusCode, ok.body).toBe(201);
          const row = ok.json<Row>();
          // A patch of one end is checked against the stored other end.
          const early = await call(srv.app, sess, 'PUT', `${api}${row[e.key]}`, { [to]: '2026-06-01', row_ver: row.row_ver });
          expect(early.statusCode, early.body).toBe(400);
          expect(early.json<{ message: string }>().message).toBe(message);
          const late = await call(srv.app, sess, 'PUT', `${api}${row[e.key]}`, { [from]: '2026-07-01', row_ver: row.row_ver });
          expect(late.statusCode, late.body).toBe(400);
          const both = await call(srv.app, sess, 'PUT', `${api}${row[e.key]}`, { [from]: '2026-07-01', [to]: '2026-07-05', row_ver: row.row_ver });
          expect(both.statusCode, both.body).toBe(200);
        }
      });
    }

    const caps = writableFields(e).filter((x): x is [string, NumberField & { notAbove: string }] => x[1].kind === 'number' && !!x[1].notAbove);
    if (caps.length) {
      it('refuses a number above the number it may not exceed, on create, on update of either end and on import', async () => {
        const sess = pageOf(e, s);
        for (const [low, f] of caps) {
          const high = f.notAbove;
          const message = `'${f.label}' cannot be more than '${e.fields[high].label}'.`;
          const bad = await call(srv.app, sess, 'POST', api, { ...(await sampleBody(srv.app, sess, e)), [high]: 50, [low]: 51 });
          expect(bad.statusCode, bad.body).toBe(400);
          expect(bad.json<{ details: unknown[] }>().details).toEqual([{ field: low, message }]);
          const ok = await call(srv.app, sess, 'POST', api, { ...(await sampleBody(srv.app, sess, e)), [high]: 50, [low]: 50 });
          expect(ok.statusCode, ok.body).toBe(201);
          const row = ok.json<Row>();
          // A patch of one end is checked against the stored other end.
          const raised = await call(srv.app, sess, 'PUT', `${api}${row[e.key]}`, { [low]: 60, row_ver: row.row_ver });
          expect(raised.statusCode, raised.body).toBe(400);
          expect(raised.json<{ message: string }>().message).toBe(message);
          const lowered = await call(srv.app, sess, 'PUT', `${api}${row[e.key]}`, { [high]: 40, row_ver: row.row_ver });
          expect(lowered.statusCode, lowered.body).toBe(400);
          const both = await call(srv.app, sess, 'PUT', `${api}${row[e.key]}`, { [high]: 100, [low]: 35, row_ver: row.row_ver });
          expect(both.statusCode, both.body).toBe(200);
          if (hasRoute(e, 'import')) {
            const sample = { ...(await sampleBody(srv.app, sess, e)), [high]: 10, [low]: 11 };
            const cols = Object.keys(sample).filter((n) => typeof sample[n] === 'number' || typeof sample[n] === 'string');
            const csv = `${cols.join(',')}\n${cols.map((n) => String(sample[n])).join(',')}\n`;
            const boundary = '----campusRangeBoundary';
            const payload = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`);
            const imp = await call(srv.app, sess, 'POST', `${api}import?dryRun=1`, payload, { headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
            expect(imp.statusCode, imp.body).toBe(200);
            expect(imp.json<{ errors: { field: string; message: string }[] }>().errors).toEqual([expect.objectContaining({ field: low, message })]);
          }
        }
      });
    }

    if (e.scope === 'institute' || e.scope === 'academic-year') {
      it("never shows or changes another institute's rows", async () => {
        const sess = pageOf(e, s);
        const row = (await call(srv.app, sess, 'POST', api, await sampleBody(srv.app, sess, e))).json<Row>();
        const id = row[e.key];
        const there = pageOf(e, other);
        expect((await call(srv.app, there, 'GET', `${api}${id}`)).statusCode).toBe(404);
        // The same list shape in both institutes: a statement prepared for the first must bind the second's own scope.
        const newestFirst = `${api}?size=500&sort=${e.key}&dir=desc`;
        const here = await call(srv.app, sess, 'GET', newestFirst);
        expect(here.json<{ rows: Row[] }>().rows.map((r) => r[e.key])).toContain(id);
        const list = await call(srv.app, there, 'GET', newestFirst);
        expect(list.json<{ rows: Row[] }>().rows.map((r) => r[e.key])).not.toContain(id);
        expect((await call(srv.app, there, 'PUT', `${api}${id}`, { row_ver: 1 })).statusCode).toBe(404);
        expect((await call(srv.app, there, 'DELETE', api, { primids: [id] })).statusCode).toBe(404);
        expect((await call(srv.app, sess, 'GET', `${api}${id}`)).statusCode).toBe(200);
      });
    }
  });

  describe.each(listOnly.map((e) => [e.name, e] as const))('%s (read-only)', (_name, e) => {
    it('lists, searches and sorts, and has no generic write routes', async () => {
      const sess = pageOf(e, s);
      const list = await call(srv.app, sess, 'GET', `${apiPath(e)}?q=a&size=5`);
      expect(list.statusCode, list.body).toBe(200);
      for (const name of Object.keys(e.fields)) {
        if (e.fields[name].kind === 'json' || e.fields[name].kind === 'password') continue;
        expect((await call(srv.app, sess, 'GET', `${apiPath(e)}?sort=${name}&size=2`)).statusCode).toBe(200);
      }
      if (e.name !== 'user_permission') {
        const post = await call(srv.app, sess, 'POST', apiPath(e), {});
        // A promotion or a rollover is run by its workflow at the entity's own path: an empty body is refused there.
        expect(post.statusCode).toBe(['promotion', 'migration'].includes(e.name) ? 400 : 404);
      }
    });
  });

  it('refuses to delete a row still referenced, naming what refers to it', async () => {
    const sess: Session = { ...s, pagename: 'role', modulename: 'master' };
    const roles = (await call(srv.app, sess, 'GET', '/api/role/?q=ADMIN')).json<{ rows: Row[] }>().rows;
    const admin = roles.find((r) => r.rl_nm === 'ADMIN')!;
    const res = await call(srv.app, sess, 'DELETE', '/api/role/', { primids: [admin.rl_cd] });
    expect(res.statusCode).toBe(409);
    expect(res.json<{ message: string }>().message).toBe("'ADMIN' cannot be deleted: it is used by 1 Employee record(s).");
  });

  it('audits every write into action history with before and after', async () => {
    const sess: Session = { ...s, pagename: 'religion', modulename: 'master' };
    const created = (await call(srv.app, sess, 'POST', '/api/religion/', { rgn_nm: 'Audit Test Religion' })).json<Row>();
    await call(srv.app, sess, 'PUT', `/api/religion/${created.rgn_cd}`, { rgn_desc: 'changed', row_ver: 1 });
    const hist = await call(srv.app, { ...s, pagename: 'action', modulename: 'history' }, 'GET', `/api/action_history/actionhistory?q=${created.rgn_cd}&size=50`);
    expect(hist.statusCode).toBe(200);
    const rowsOf = hist.json<{ rows: Row[] }>().rows.filter((r) => r.actn_hsty_entity === 'religion' && r.actn_hsty_row_key === String(created.rgn_cd));
    expect(rowsOf.map((r) => r.actn_hsty_mthd).sort()).toEqual(['POST', 'PUT']);
    const put = rowsOf.find((r) => r.actn_hsty_mthd === 'PUT')!;
    expect(put).toMatchObject({ actn_hsty_mdl: 'master', actn_hsty_pg_nm: 'religion', usr_full_nm: 'Administrator', actn_hsty_pfm: 'test' });
    expect((put.actn_hsty_before as Row).rgn_desc).toBeNull();
    expect((put.actn_hsty_after as Row).rgn_desc).toBe('changed');
  });
});
