import type { FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { configFromEnv, type Config } from '../src/config';
import { genericPlanDb, MAX_NAMED_STATEMENTS, NamedStatementClient, openDatabase, rows, sql, type Database, type Db } from '../src/db/client';
import { migrate } from '../src/db/migrate';
import { seedIfEmpty } from '../src/db/seed';
import { ADMIN_PASSWORD, backends, call, login, type Session } from './test-server';

type Row = Record<string, unknown>;

/** A server like the test server's, whose every SQL statement is recorded (startTestServer has no hook). */
async function startCounted(backend: 'pglite' | 'postgres', poolSize?: number, preparedStatements?: boolean): Promise<{ app: FastifyInstance; database: Database; cfg: Config; statements: string[]; close(): Promise<void> }> {
  let databaseUrl: string | undefined;
  let name = '';
  if (backend === 'postgres') {
    name = `campus_t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const u = new URL(process.env.DATABASE_URL!);
    u.pathname = `/${name}`;
    databaseUrl = u.toString();
  }
  const statements: string[] = [];
  const database = await openDatabase({ databaseUrl, dataDir: 'memory://', onQuery: (text) => statements.push(text), poolSize, preparedStatements });
  await migrate(database.db);
  await seedIfEmpty(database.db, ADMIN_PASSWORD);
  const cfg: Config = { ...configFromEnv({}), dataDir: 'memory://', databaseUrl, webDist: undefined, failureDelayMs: 0 };
  const app = await buildApp(cfg, database, { logger: false });
  await app.ready();
  return {
    app,
    database,
    cfg,
    statements,
    async close() {
      await app.close();
      await database.close();
      if (name) {
        const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await c.end();
      }
    },
  };
}

describe.each(backends)('request path on %s', (backend) => {
  let srv: Awaited<ReturnType<typeof startCounted>>;
  let s: Session;
  beforeAll(async () => {
    srv = await startCounted(backend);
    s = await login(srv.app);
  });
  afterAll(async () => srv?.close());

  const asReligion = (): Session => ({ ...s, pagename: 'religion', modulename: 'master' });

  it('answers a signed-in list with the context in one statement, the permission read once (3 statements in all)', async () => {
    srv.statements.length = 0;
    const res = await call(srv.app, asReligion(), 'GET', '/api/religion/?page=1&size=50');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ rows: Row[] }>().rows.length).toBeGreaterThan(0);
    const sent = [...srv.statements];
    // Before: session, user, institutes, years, the permission rows twice, the page, the count = 8.
    expect(sent.length, sent.join('\n---\n')).toBeGreaterThan(0);
    expect(sent.length, sent.join('\n---\n')).toBeLessThanOrEqual(3);
    expect(sent.filter((t) => /user_permission p/.test(t))).toHaveLength(1);
    expect(sent.filter((t) => /\bsession\b/i.test(t))).toHaveLength(1);
  });

  it('sends a JSON list compressed to a client that accepts it, with the same content; small answers and PDFs-to-be stay plain', async () => {
    const url = '/api/user_permission/crudpage';
    const who = { ...s, pagename: 'permission' };
    const plain = await call(srv.app, who, 'GET', url);
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    const gz = await call(srv.app, who, 'GET', url, undefined, { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toMatch(/accept-encoding/i);
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString('utf8'))).toEqual(plain.json());
    expect(gz.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    const br = await call(srv.app, who, 'GET', url, undefined, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString('utf8'))).toEqual(plain.json());
    // Under 1 KB the bytes saved do not pay for the work.
    const health = await srv.app.inject({ method: 'GET', url: '/api/health', headers: { 'accept-encoding': 'gzip' } });
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(health.json<Row>().status).toBe('ok');
  });

  describe('session rules in the one statement', () => {
    const tokenHash = async (token: string): Promise<string> => (await import('../src/access/session')).hashToken(token);
    const seen = async (token: string): Promise<number> => {
      const [r] = await rows<{ seen: string | Date }>(srv.database.db, sql`SELECT sess_seen_at AS seen FROM session WHERE sess_token_hash = ${await tokenHash(token)}`);
      return new Date(r.seen).getTime();
    };
    const setSeen = async (token: string, minutesAgo: number): Promise<void> => {
      await srv.database.db.execute(
        sql`UPDATE session SET sess_seen_at = now() - make_interval(secs => ${minutesAgo * 60}) WHERE sess_token_hash = ${await tokenHash(token)}`,
      );
    };

    it('refreshes last-seen at most once a minute, and ends a session idle too long or past its expiry', async () => {
      const me = await login(srv.app);
      await setSeen(me.token, 0.5);
      const before = await seen(me.token);
      expect((await call(srv.app, me, 'GET', '/api/dashboard/')).statusCode).toBe(200);
      expect(await seen(me.token)).toBe(before);

      await setSeen(me.token, 5);
      expect((await call(srv.app, me, 'GET', '/api/dashboard/')).statusCode).toBe(200);
      expect(Date.now() - (await seen(me.token))).toBeLessThan(30_000);

      await setSeen(me.token, srv.cfg.sessionIdleMinutes + 1);
      const idle = await call(srv.app, me, 'GET', '/api/dashboard/');
      expect(idle.statusCode).toBe(401);
      expect(idle.json<Row>().message).toBe('Your session has ended. Please sign in again.');

      const other = await login(srv.app);
      await srv.database.db.execute(sql`UPDATE session SET sess_expires_at = now() - interval '1 second' WHERE sess_token_hash = ${await tokenHash(other.token)}`);
      expect((await call(srv.app, other, 'GET', '/api/dashboard/')).statusCode).toBe(401);
    });

    it('decides in the same order as before: a bad token is 401 whatever the institute header; a malformed or foreign one is 403', async () => {
      const bad = await call(srv.app, { ...s, token: 'not-a-token' }, 'GET', '/api/dashboard/', undefined, { headers: { inst_cd: 'x1' } });
      expect(bad.statusCode).toBe(401);
      const malformed = await call(srv.app, s, 'GET', '/api/dashboard/', undefined, { headers: { inst_cd: 'x1' } });
      expect(malformed.statusCode).toBe(403);
      expect(malformed.json<Row>().message).toBe('You are not mapped to this institute.');
      const foreign = await call(srv.app, { ...s, instCd: 999 }, 'GET', '/api/dashboard/');
      expect(foreign.statusCode).toBe(403);
      const edited = await call(srv.app, { ...s, usr_cd: s.usr_cd + 1 }, 'GET', '/api/dashboard/');
      expect(edited.statusCode).toBe(401);
    });
  });
});

describe.runIf(!!process.env.DATABASE_URL)('named statements on PostgreSQL', () => {
  it('prepares a parameterized statement once per connection, up to the bound, and keeps answering past it and inside a transaction', async () => {
    const c = new NamedStatementClient({ connectionString: process.env.DATABASE_URL });
    await c.connect();
    try {
      for (let i = 0; i < 3; i++) expect((await c.query('SELECT $1::int + 1 AS n', [i])).rows[0].n).toBe(i + 1);
      const prepared = async () => Number((await c.query('SELECT count(*)::int AS n FROM pg_prepared_statements')).rows[0].n);
      expect(await prepared()).toBe(1);
      await c.query('BEGIN');
      expect((await c.query('SELECT $1::text AS t', ['in a transaction'])).rows[0].t).toBe('in a transaction');
      await c.query('ROLLBACK');
      for (let k = 0; k < MAX_NAMED_STATEMENTS + 5; k++) {
        expect((await c.query(`SELECT $1::int + ${k} AS n`, [1])).rows[0].n).toBe(1 + k);
      }
      expect(await prepared()).toBe(MAX_NAMED_STATEMENTS);
    } finally {
      await c.end();
    }
  });
});

describe.runIf(!!process.env.DATABASE_URL)('a lost database connection on PostgreSQL', () => {
  it('an idle connection ended by the database server is reported, not thrown: the process lives on and the next query gets a new connection', async () => {
    const lost: string[] = [];
    const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, poolSize: 2, onConnectionLost: (err) => lost.push(err.message) });
    try {
      const [me] = await rows<{ pid: number }>(database.db, sql`SELECT pg_backend_pid() AS pid`);
      const killer = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await killer.connect();
      await killer.query('SELECT pg_terminate_backend($1)', [me.pid]);
      await killer.end();
      // Without the pool's listener node-postgres throws this event and vitest reports an uncaught error.
      for (let i = 0; i < 100 && lost.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(lost.join()).toMatch(/terminat/);
      const [again] = await rows<{ pid: number }>(database.db, sql`SELECT pg_backend_pid() AS pid`);
      expect(again.pid).not.toBe(me.pid);
    } finally {
      await database.close();
    }
  });
});

describe.runIf(!!process.env.DATABASE_URL)('plans of list statements on PostgreSQL', () => {
  let srv: Awaited<ReturnType<typeof startCounted>>;
  let s: Session;
  beforeAll(async () => {
    // One connection per pool, so the prepared statements read below are those the requests used.
    srv = await startCounted('postgres', 1);
    s = await login(srv.app);
  });
  afterAll(async () => srv?.close());

  interface Prepared {
    statement: string;
    generic_plans: number;
    custom_plans: number;
  }
  const prepared = (db: Db): Promise<Prepared[]> =>
    rows<Prepared>(db, sql`SELECT statement, generic_plans::int AS generic_plans, custom_plans::int AS custom_plans FROM pg_prepared_statements`);
  const religion = (p: Prepared): boolean => /from "religion"/.test(p.statement);

  it('plans a list page once and reuses the plan at every call; a quick search is planned for its own words', async () => {
    const who = { ...s, pagename: 'religion', modulename: 'master' };
    for (let i = 0; i < 8; i++) {
      const page = await call(srv.app, who, 'GET', '/api/religion/?page=1&size=50');
      expect(page.statusCode, page.body).toBe(200);
      expect(page.json<{ rows: Row[] }>().rows.length).toBeGreaterThan(0);
      expect((await call(srv.app, who, 'GET', `/api/religion/?q=${['hin', 'chr', 'isl'][i % 3]}&size=50`)).statusCode).toBe(200);
    }
    const db = srv.database.db;
    const generic = (await prepared(genericPlanDb(db))).filter(religion);
    const custom = (await prepared(db)).filter(religion);
    // The page: one statement, its generic plan used all 8 times, never re-planned for its values (before:
    // every call planned anew; PostgreSQL's 'auto' mode keeps custom plans for a LIMIT it cannot see).
    const page = [...generic, ...custom].filter((p) => !/ LIKE /.test(p.statement));
    expect(page, JSON.stringify(page)).toHaveLength(1);
    expect(page[0]).toMatchObject({ generic_plans: 8, custom_plans: 0 });
    // The search: on the connections that plan for the values, where the trigram and prefix indexes are chosen per pattern.
    expect(custom.filter((p) => / LIKE /.test(p.statement)).map((p) => p.custom_plans)).toEqual([expect.any(Number)]);
    expect(generic.filter((p) => / LIKE /.test(p.statement))).toEqual([]);
  });
});

describe.runIf(!!process.env.DATABASE_URL)('PG_PREPARED_STATEMENTS=0 on PostgreSQL', () => {
  let srv: Awaited<ReturnType<typeof startCounted>>;
  let s: Session;
  beforeAll(async () => {
    // One connection: the statements counted below are those the requests used (a pooler in transaction mode
    // would hand the next request another connection, where a name parsed here does not exist).
    srv = await startCounted('postgres', 1, false);
    s = await login(srv.app);
  });
  afterAll(async () => srv?.close());

  it('answers lists, again and again, without leaving a named statement on the connection', async () => {
    const who = { ...s, pagename: 'religion', modulename: 'master' };
    for (let i = 0; i < 3; i++) {
      for (const url of ['/api/religion/?page=1&size=50', '/api/religion/?page=1&size=2&sort=rgn_nm&dir=desc', '/api/religion/?q=hin']) {
        const res = await call(srv.app, who, 'GET', url);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json<{ rows: Row[] }>().rows.length).toBeGreaterThan(0);
      }
    }
    const [{ n }] = await rows<{ n: number }>(srv.database.db, sql`SELECT count(*)::int AS n FROM pg_prepared_statements`);
    expect(n).toBe(0);
  });
});
