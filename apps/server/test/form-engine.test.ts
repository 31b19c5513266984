import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeFixture, type Fixture, type Row } from './student-workflow-fixture';
import { call, startTestServer, type Session, type TestServer } from './test-server';

/*
 * The generic form engine as the browser uses it: a dependent (`within`) dropdown's choices, a PUT of the row
 * as it was read, and the one stored form of a phone number.
 */
describe('form engine on the server', () => {
  let srv: TestServer;
  let fx: Fixture;
  const opts = async (query: string) => call(srv.app, fx.as(fx.admin, 'student', 'profile'), 'GET', `/api/section/options?${query}`);

  beforeAll(async () => {
    srv = await startTestServer('pglite');
    fx = await makeFixture(srv);
  });
  afterAll(async () => srv?.close());

  describe('a dependent dropdown (section within class)', () => {
    it('offers only the sections of the chosen class', async () => {
      const res = await opts(`f_cls_cd=${fx.cls1}`);
      expect(res.statusCode, res.body).toBe(200);
      const got = res.json<{ value: number; label: string }[]>();
      expect(got.map((o) => o.value).sort()).toEqual([fx.secA, fx.secB].sort());
      // The class is chosen beside it, so the section's own name is enough.
      expect(got.map((o) => o.label).sort()).toEqual(['A', 'B']);
      const other = (await opts(`f_cls_cd=${fx.cls2}`)).json<{ value: number; label: string }[]>();
      expect(other).toEqual([{ value: fx.secC, label: 'C' }]);
      const both = (await opts(`f_cls_cd=${fx.cls1},${fx.cls2}`)).json<{ value: number }[]>();
      expect(both.map((o) => o.value).sort()).toEqual([fx.secA, fx.secB, fx.secC].sort());
    });

    it('names each section with its class when no class is chosen, and finds it by either', async () => {
      const cls = (await call(srv.app, fx.as(fx.admin, 'class_section', 'class'), 'GET', `/api/class/${fx.cls1}`)).json<Row>();
      const res = await opts(`ids=${fx.secA}`);
      expect(res.json()).toEqual([{ value: fx.secA, label: `${String(cls.cls_nm)} - A` }]);
      const found = (await opts(`q=${encodeURIComponent(`${String(cls.cls_nm)} - B`)}`)).json<{ value: number }[]>();
      expect(found.map((o) => o.value)).toEqual([fx.secB]);
    });

    it('filters only by a declared within partner, with a checked value', async () => {
      const unknown = await opts('f_sec_nm=A');
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json<{ message: string }>().message).toBe("Choices of Section cannot be filtered by 'sec_nm'.");
      const bad = await opts(`f_cls_cd=${encodeURIComponent('1) OR (1=1')}`);
      expect(bad.statusCode).toBe(400);
      expect(bad.json<{ message: string }>().message).toContain("'Class' is not a valid choice.");
    });

    it('still refuses a section of another class on save', async () => {
      const res = await call(srv.app, fx.as(fx.admin, 'student', 'profile'), 'POST', '/api/student/', {
        stud_fs_nm: 'Mismatch',
        stud_adm_cd: `MM${Date.now()}`,
        cls_cd: fx.cls2,
        sec_cd: fx.secA,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json<{ message: string }>().message).toBe("Section 'A' is not a section of the chosen class.");
    });
  });

  it('tells apart two students of the same name by their admission numbers', async () => {
    const page = fx.as(fx.admin, 'student', 'profile');
    const add = async (adm: string) =>
      (await call(srv.app, page, 'POST', '/api/student/', { stud_fs_nm: 'Amit Twin', stud_adm_cd: adm, cls_cd: fx.cls1, sec_cd: fx.secA })).json<Row>();
    const one = await add(`TW1${Date.now()}`);
    const two = await add(`TW2${Date.now()}`);
    const got = (await call(srv.app, page, 'GET', '/api/student/options?q=Amit%20Twin')).json<{ value: number; label: string }[]>();
    expect(got.map((o) => o.label).sort()).toEqual([`Amit Twin (${String(one.stud_adm_cd)})`, `Amit Twin (${String(two.stud_adm_cd)})`].sort());
    // One of them alone needs no number.
    const single = (await call(srv.app, page, 'GET', `/api/student/options?ids=${String(one.stud_cd)}`)).json<{ label: string }[]>();
    expect(single.map((o) => o.label)).toEqual(['Amit Twin']);
  });

  describe('a PUT of the row as it was read', () => {
    const page = () => fx.as(fx.admin, 'student', 'profile');
    const read = async (id: number): Promise<Row> => (await call(srv.app, page(), 'GET', `/api/student/${id}`)).json<Row>();

    it('accepts the key, read-only and display columns unchanged, and saves the change', async () => {
      const id = fx.studA[0];
      const row = await read(id);
      expect(row).toHaveProperty('cls_nm');
      expect(row).toHaveProperty('rgn_cd');
      const res = await call(srv.app, page(), 'PUT', `/api/student/${id}`, { ...row, stud_fthr_nm: 'Raman' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<Row>().stud_fthr_nm).toBe('Raman');
      // Sent back untouched once more: nothing changes, and nothing is refused.
      const again = await read(id);
      const same = await call(srv.app, page(), 'PUT', `/api/student/${id}`, again);
      expect(same.statusCode, same.body).toBe(200);
      expect(same.json<Row>().row_ver).toBe(again.row_ver);
    });

    it('refuses another key, a changed display column and unknown names', async () => {
      const id = fx.studA[1];
      const row = await read(id);
      const key = await call(srv.app, page(), 'PUT', `/api/student/${id}`, { ...row, stud_cd: fx.studA[2] });
      expect(key.statusCode).toBe(400);
      expect(key.json<{ message: string }>().message).toBe(`'Code' ${fx.studA[2]} does not match the record being updated (${id}).`);
      const display = await call(srv.app, page(), 'PUT', `/api/student/${id}`, { ...row, cls_nm: 'Some other class' });
      expect(display.statusCode).toBe(400);
      expect(display.json<{ message: string }>().message).toBe("'Class' is changed by choosing another class, not by its name.");
      const unknown = await call(srv.app, page(), 'PUT', `/api/student/${id}`, { ...row, stud_nick: 'Kutty' });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json<{ message: string }>().message).toBe('Unknown field(s): stud_nick.');
      expect((await read(id)).row_ver).toBe(row.row_ver);
    });

    it('accepts a server-stamped date unchanged and refuses it changed', async () => {
      const circular = fx.as(fx.admin, 'institute', 'circular');
      const made = await call(srv.app, circular, 'POST', '/api/circular/', { crlr_sub: 'Sports day', crlr_dt: '2026-01-20' });
      expect(made.statusCode, made.body).toBe(201);
      const id = Number(made.json<Row>().crlr_cd);
      const row = (await call(srv.app, circular, 'GET', `/api/circular/${id}`)).json<Row>();
      expect(row.crlr_crt_dt).toMatch(/^\d{4}-\d{2}-\d{2}/);
      const ok = await call(srv.app, circular, 'PUT', `/api/circular/${id}`, { ...row, crlr_sub: 'Sports day (postponed)' });
      expect(ok.statusCode, ok.body).toBe(200);
      const now = ok.json<Row>();
      const changed = await call(srv.app, circular, 'PUT', `/api/circular/${id}`, { ...now, crlr_crt_dt: '1999-01-01' });
      expect(changed.statusCode).toBe(400);
      expect(changed.json<{ message: string }>().message).toBe("'Created Date' cannot be changed.");
    });
  });

  describe('phone numbers', () => {
    const add = async (phone: string): Promise<{ status: number; row: Row }> => {
      const res = await call(srv.app, fx.as(fx.admin, 'student', 'profile'), 'POST', '/api/student/', {
        stud_fs_nm: `Phone ${phone}`,
        stud_adm_cd: `PH${Math.random().toString(36).slice(2, 10)}`,
        cls_cd: fx.cls1,
        sec_cd: fx.secA,
        stud_ph: phone,
      });
      return { status: res.statusCode, row: res.json<Row>() };
    };

    it('stores an Indian mobile in one form however it was typed', async () => {
      for (const typed of ['9876543210', '98765 43210', '098765-43210', '+919876543210', '+91 98765-43210', '91 98765 43210']) {
        const { status, row } = await add(typed);
        expect(status, typed).toBe(201);
        expect(row.stud_ph, typed).toBe('+91 98765 43210');
      }
    });

    it('finds a student by the mobile typed as people say it, in the grid and at the fee counter', async () => {
      const { row } = await add('94431 27650');
      expect(row.stud_ph).toBe('+91 94431 27650');
      const found = async (page: Session, url: string, q: string): Promise<number[]> =>
        (await call(srv.app, page, 'GET', `${url}?q=${encodeURIComponent(q)}`)).json<{ rows: { stud_cd: number }[] }>().rows.map((r) => r.stud_cd);
      const grid = fx.as(fx.admin, 'student', 'profile');
      const counter = fx.as(fx.admin, 'fee', 'quick_fee_collection');
      for (const typed of ['9443127650', '09443127650', '+919443127650', '94431 27650', '27650']) {
        expect(await found(grid, '/api/student/', typed), typed).toContain(row.stud_cd);
        expect(await found(counter, '/api/student/detail/', typed), typed).toContain(row.stud_cd);
      }
      expect(await found(grid, '/api/student/', '9443127651')).not.toContain(row.stud_cd);
    });

    it('keeps landlines and other countries as typed, and still refuses letters', async () => {
      expect((await add('044 2434  5678')).row.stud_ph).toBe('044 2434 5678');
      expect((await add('+44 20 7946 0958')).row.stud_ph).toBe('+44 20 7946 0958');
      expect((await add('98765 4321O')).status).toBe(400);
    });
  });
});
