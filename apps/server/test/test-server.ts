import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createClient } from 'redis';
import { buildApp } from '../src/app';
import { configFromEnv, type Config } from '../src/config';
import { openDatabase, type Database } from '../src/db/client';
import { migrate } from '../src/db/migrate';
import { generateDemo, type DemoResult } from '../src/db/demo/demo-data';
import { ADMIN_LOGIN, seedIfEmpty } from '../src/db/seed';

export const ADMIN_PASSWORD = 'Test-Admin-Pass-1';

export type Backend = 'pglite' | 'postgres';

/** Every API test runs on PGlite, and on PostgreSQL too when DATABASE_URL is set (as in CI). */
export const backends: Backend[] = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

export interface TestServer {
  app: FastifyInstance;
  database: Database;
  cfg: Config;
  /** With { demo: true }: the demo content and its accounts (random passwords, as printed at first start). */
  demo?: DemoResult;
  close(): Promise<void>;
}

export interface TestServerOptions {
  /** Add the demo school's and college's content (slower); tests use the minimal seed otherwise. */
  demo?: boolean;
}

/** A fresh database (in-memory PGlite, or a new PostgreSQL database) with the demo seed. */
export async function startTestServer(backend: Backend, overrides: Partial<Config> = {}, options: TestServerOptions = {}): Promise<TestServer> {
  let databaseUrl: string | undefined;
  let dropDb: (() => Promise<void>) | undefined;
  if (backend === 'postgres') {
    const base = process.env.DATABASE_URL!;
    const name = `campus_t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const u = new URL(base);
    u.pathname = `/${name}`;
    databaseUrl = u.toString();
    dropDb = async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      // The pool's end() returns before its sockets have closed; terminating them then (FORCE) raises an
      // unhandled 'terminating connection' error in the test process. Wait for them to go first.
      for (let i = 0; i < 50; i++) {
        const { rows } = await c.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
        if (rows[0].n === 0) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    };
  }
  const cfg: Config = {
    ...configFromEnv({}),
    dataDir: 'memory://',
    databaseUrl,
    webDist: undefined,
    failureDelayMs: 0,
    ...overrides,
  };
  const database = await openDatabase({ databaseUrl, dataDir: cfg.dataDir });
  await migrate(database.db);
  await seedIfEmpty(database.db, ADMIN_PASSWORD);
  const demo = options.demo ? await generateDemo(database.db) : undefined;
  const app = await buildApp(cfg, database, { logger: process.env.TEST_LOG === '1' });
  await app.ready();
  return {
    app,
    database,
    cfg,
    demo,
    async close() {
      await app.close();
      await database.close();
      await dropDb?.();
    },
  };
}

export interface Session {
  usr_cd: number;
  usr_nm: string;
  token: string;
  xsrf: string;
  instCd: number;
  acdmCd?: number;
  pagename?: string;
  modulename?: string;
}

export interface LoginBody {
  usr_cd: number;
  usr_nm: string;
  usr_token: string;
  usr_inst_cd: number;
}

export async function login(app: FastifyInstance, usr_nm = ADMIN_LOGIN, usr_pwd = ADMIN_PASSWORD): Promise<Session> {
  const res = await app.inject({ method: 'POST', url: '/api/employee/login/', payload: { usr_nm, usr_pwd }, headers: { auth_token: 'login' } });
  if (res.statusCode !== 200) throw new Error(`login ${usr_nm} failed: ${res.statusCode} ${res.body}`);
  const body = res.json<LoginBody>();
  const xsrf = res.cookies.find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  return { usr_cd: body.usr_cd, usr_nm: body.usr_nm, token: body.usr_token, xsrf, instCd: body.usr_inst_cd };
}

/** The spec's section 7 headers, as the web client sends them. */
export function headersOf(s: Session, method: string): Record<string, string> {
  const h: Record<string, string> = {
    username: s.usr_nm,
    usercode: String(s.usr_cd),
    auth_token: s.token,
    platform: 'test',
    inst_cd: String(s.instCd),
    data_chk: '0',
  };
  if (s.acdmCd) h.acdm_cd = String(s.acdmCd);
  if (s.pagename) h.pagename = s.pagename;
  if (method !== 'GET') {
    if (s.modulename) h.modulename = s.modulename;
    h['x-xsrf-token'] = s.xsrf;
    h.cookie = `XSRF-TOKEN=${s.xsrf}`;
  }
  return h;
}

export function call(
  app: FastifyInstance,
  s: Session,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
  extra: Omit<InjectOptions, 'method' | 'url' | 'payload'> = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url,
    payload: payload as InjectOptions['payload'],
    ...extra,
    headers: { ...headersOf(s, method), ...(extra.headers as Record<string, string> | undefined) },
  });
}

/** A file upload as a browser's form sends it (one `file` part), for the import and upload routes. */
export function multipartFile(fileName: string, content: Buffer | string): { payload: Buffer; headers: Record<string, string> } {
  const boundary = '----campusTestBoundary';
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, Buffer.from(content), tail]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/**
 * Whether the Redis the two-process tests need answers. Outside CI a machine without one skips those cases;
 * CI has one, so there its absence fails the run.
 */
export async function redisAnswers(url: string): Promise<boolean> {
  const probe = createClient({ url, socket: { connectTimeout: 1000, reconnectStrategy: false } });
  probe.on('error', () => undefined);
  const up = await probe.connect().then(
    async () => {
      await probe.quit();
      return true;
    },
    () => false,
  );
  if (!up && process.env.CI) throw new Error(`CI needs Redis at ${url} for the two-process tests.`);
  return up;
}
