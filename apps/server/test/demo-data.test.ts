import { bodySchema, writableFields } from '@campus/entities/define';
import { livePages } from '@campus/entities/pages';
import { entity } from '@campus/entities/registry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, rows, sql, type Db } from '../src/db/client';
import { generateDemo } from '../src/db/demo/demo-data';
import { migrate } from '../src/db/migrate';
import { seedIfEmpty } from '../src/db/seed';
import { backends, call, login, startTestServer, type Session, type TestServer } from './test-server';

type Row = Record<string, unknown>;

async function count(db: Db, table: string, where = sql`true`): Promise<number> {
  const [r] = await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} WHERE ${where}`);
  return r.n;
}

/** Names in insertion order: what 'same seed, same data' is judged on. */
async function names(db: Db): Promise<{ students: string[]; staff: string[]; books: string[] }> {
  const col = async (q: ReturnType<typeof sql>) => (await rows<{ v: string }>(db, q)).map((r) => r.v);
  return {
    students: await col(sql`SELECT stud_fs_nm || '/' || stud_fthr_nm || '/' || stud_adm_cd AS v FROM student ORDER BY stud_cd`),
    staff: await col(sql`SELECT usr_full_nm AS v FROM employee ORDER BY usr_cd`),
    books: await col(sql`SELECT bk_nm || '/' || bk_barcd AS v FROM book ORDER BY bk_cd`),
  };
}

describe.each(backends)('demo data on %s', (backend) => {
  let srv: TestServer;
  let admin: Session;
  let school: number;

  beforeAll(async () => {
    srv = await startTestServer(backend, {}, { demo: true });
    admin = await login(srv.app);
    school = admin.instCd;
    console.log(`demo data on ${backend}: ${(srv.demo!.ms / 1000).toFixed(2)} s`, srv.demo!.counts);
  });
  afterAll(async () => srv?.close());

  it('holds what the README promises', async () => {
    const db = srv.database.db;
    const inSchool = sql`inst_cd = ${school}`;
    const inCollege = sql`inst_cd <> ${school}`;
    expect(await count(db, 'class', inSchool)).toBe(10);
    expect(await count(db, 'section', inSchool)).toBe(20);
    expect(await count(db, 'student', inSchool)).toBe(600);
    // The seed's ADMIN is the 41st.
    expect(await count(db, 'employee', inSchool)).toBe(41);
    expect(await count(db, 'class', inCollege)).toBe(4);
    expect(await count(db, 'student', inCollege)).toBe(204);
    expect(await count(db, 'tender_type', inSchool)).toBe(6);
    expect(await count(db, 'tender_type', sql`${inSchool} AND NOT tnd_typ_sts`)).toBe(2);
    expect(await count(db, 'book', inSchool)).toBeGreaterThan(50);
    expect(await count(db, 'holiday', sql`${inSchool} AND hly_nm IN ('Pongal', 'Deepavali', 'Independence Day', 'Christmas')`)).toBe(4);
    expect(await count(db, 'exam', inSchool)).toBe(5 * 20);
    // Every section has each of its subjects mapped to a teacher of its own institute.
    expect(await count(db, 'subject_detail', sql`usr_cd IS NULL`)).toBe(0);
    const stray = sql`EXISTS (SELECT 1 FROM employee e WHERE e.usr_cd = subject_detail.usr_cd AND e.inst_cd <> subject_detail.inst_cd)`;
    expect(await count(db, 'subject_detail', stray)).toBe(0);
    // A student's section belongs to the student's class.
    const wrongSection = sql`EXISTS (SELECT 1 FROM section x WHERE x.sec_cd = student.sec_cd AND x.cls_cd <> student.cls_cd)`;
    expect(await count(db, 'student', wrongSection)).toBe(0);
  });

  it("passes the entities' own validation (a sample of every entity it writes)", async () => {
    for (const name of Object.keys(srv.demo!.counts)) {
      const e = entity(name);
      const fields = writableFields(e);
      // Dates and money as the API sends them (text), not as the driver parses them.
      const cols = fields.map(([n, f]) => (f.kind === 'date' || f.kind === 'money' ? sql`${sql.identifier(n)}::text AS ${sql.identifier(n)}` : sql.identifier(n)));
      const sample = await rows<Row>(
        srv.database.db,
        sql`SELECT ${sql.join(cols, sql`, `)} FROM ${sql.identifier(e.table)} WHERE ${sql.identifier(e.key)} % 7 = 1 OR ${sql.identifier(e.key)} < 30 ORDER BY ${sql.identifier(e.key)} LIMIT 200`,
      );
      expect(sample.length, name).toBeGreaterThan(0);
      const schema = bodySchema(e, 'create');
      for (const r of sample) {
        const parsed = schema.safeParse(r);
        expect(parsed.success ? 'ok' : `${name} ${JSON.stringify(r)}: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`).toBe('ok');
      }
    }
  });

  it('gives the three demo accounts exactly their pages', async () => {
    const accounts = srv.demo!.accounts;
    expect(accounts.map((a) => a.login)).toEqual(['TEACHER', 'ACCOUNTANT', 'LIBRARIAN']);
    expect(new Set(accounts.map((a) => a.password)).size).toBe(3);
    for (const a of accounts) {
      const s = await login(srv.app, a.login, a.password);
      const res = await call(srv.app, s, 'GET', '/api/user_permission/userDetail');
      expect(res.statusCode).toBe(200);
      const perms = res.json<{ permissions: { usr_prms_mdl: string; usr_prms_page: string; usr_prms_btns: string; usr_need_data_chk: boolean }[] }>().permissions;
      expect(perms.map((p) => `${p.usr_prms_mdl}/${p.usr_prms_page}`).sort()).toEqual([...a.pages].sort());
      if (a.login === 'TEACHER') expect(perms).toMatchObject([{ usr_prms_btns: 'view,export', usr_need_data_chk: true }]);
    }
    // Every built page of their module, and only those: a fee page built later reaches the accountant too.
    const moduleOf = (m: string) => livePages().filter((pg) => pg.module === m).map((pg) => `${pg.module}/${pg.page}`);
    expect(accounts.find((a) => a.login === 'ACCOUNTANT')!.pages).toEqual(moduleOf('fee'));
    expect(accounts.find((a) => a.login === 'LIBRARIAN')!.pages).toEqual(moduleOf('library'));
    expect(moduleOf('fee')).toEqual(expect.arrayContaining(['fee/tender_type', 'fee/fee_type', 'fee/fee_group', 'fee/fee']));
  });

  it("shows the teacher only the students of the sections mapped to them, read-only", async () => {
    const a = srv.demo!.accounts.find((x) => x.login === 'TEACHER')!;
    const t = { ...(await login(srv.app, a.login, a.password)), pagename: 'profile', modulename: 'student' };
    const mine = await rows<{ n: number }>(
      srv.database.db,
      sql`SELECT count(*)::int AS n FROM student s WHERE EXISTS (SELECT 1 FROM subject_detail d WHERE d.sec_cd = s.sec_cd AND d.usr_cd = ${t.usr_cd})`,
    );
    const res = await call(srv.app, t, 'GET', '/api/student/?size=500');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ total: number; rows: { cls_nm: string; sec_nm: string }[] }>();
    expect(body.total).toBe(mine[0].n);
    expect(body.total).toBe(60);
    expect(new Set(body.rows.map((r) => `${r.cls_nm} ${r.sec_nm}`))).toEqual(new Set(['VI A', 'VI B']));
    const all = await call(srv.app, { ...admin, pagename: 'profile', modulename: 'student' }, 'GET', '/api/student/?size=1');
    expect(all.json<{ total: number }>().total).toBe(600);
    const create = await call(srv.app, t, 'POST', '/api/student/', { stud_fs_nm: 'New Child' });
    expect(create.statusCode).toBe(403);
    const fees = await call(srv.app, { ...t, pagename: 'fee_type', modulename: 'fee' }, 'GET', '/api/fee_type/');
    expect(fees.statusCode).toBe(403);
  });

  it('keeps the accountant to the fee pages and the librarian to the library', async () => {
    const acc = srv.demo!.accounts.find((x) => x.login === 'ACCOUNTANT')!;
    const lib = srv.demo!.accounts.find((x) => x.login === 'LIBRARIAN')!;
    const a = await login(srv.app, acc.login, acc.password);
    const l = await login(srv.app, lib.login, lib.password);
    expect((await call(srv.app, { ...a, pagename: 'fee_type', modulename: 'fee' }, 'GET', '/api/fee_type/')).json<{ total: number }>().total).toBe(9);
    expect((await call(srv.app, { ...a, pagename: 'book', modulename: 'library' }, 'GET', '/api/book/')).statusCode).toBe(403);
    expect((await call(srv.app, { ...l, pagename: 'book', modulename: 'library' }, 'GET', '/api/book/')).statusCode).toBe(200);
    expect((await call(srv.app, { ...l, pagename: 'fee_group', modulename: 'fee' }, 'GET', '/api/fee_group/')).statusCode).toBe(403);
  });

  if (backend === 'pglite') {
    it('gives the same names for the same seed', async () => {
      const again = await openDatabase({ dataDir: 'memory://' });
      try {
        await migrate(again.db);
        await seedIfEmpty(again.db, 'Another-Admin-Pass-1');
        const second = await generateDemo(again.db);
        expect(second.counts).toEqual(srv.demo!.counts);
        const [x, y] = [await names(srv.database.db), await names(again.db)];
        expect(y).toEqual(x);
        expect(new Set(x.students).size).toBe(x.students.length);
        // A second run on a filled database does nothing.
        expect((await generateDemo(again.db)).created).toBe(false);
      } finally {
        await again.close();
      }
    });
  }
});
