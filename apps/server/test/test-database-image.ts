/**
 * The database every startTestServer begins with (migrated, with the minimal seed), made once per vitest run
 * (global-setup.ts) instead of once per file and backend.
 *
 * - PGlite: a data folder (image.json beside it, as the build's image) that each file copies to a folder of its
 *   own; creating a database in memory (initdb) and applying every migration took 4-10 s per file on two cores,
 *   the copy a fraction of a second.
 * - PostgreSQL (when DATABASE_URL is set): a template database; each file's database is CREATE DATABASE ...
 *   TEMPLATE, a file copy inside the server instead of 36 migrations over the wire.
 *
 * The locations reach the test workers through the environment (they are forked after this runs). Without
 * them (a bench importing test-server.ts, or this setup not configured) startTestServer builds the database the
 * old way, so nothing depends on this setup having run.
 */
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { randomBytes } from 'node:crypto';
import { accessSync, constants, mkdtempSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase, pgliteExtensions, type Db } from '../src/db/client';
import { migrate } from '../src/db/migrate';
import { imageChecksum } from '../src/db/pglite-image';
import { seedIfEmpty } from '../src/db/seed';

/** The seeded ADMIN's password in every test database (test-server.ts exports it to the tests). */
export const TEST_ADMIN_PASSWORD = 'Test-Admin-Pass-1';
/** Where the run's PGlite image is (set by the global setup, read by startTestServer in the workers). */
export const PGLITE_IMAGE_ENV = 'CAMPUS_TEST_PGLITE_IMAGE';
/** The run's PostgreSQL template database. */
export const PG_TEMPLATE_ENV = 'CAMPUS_TEST_PG_TEMPLATE';

/**
 * Where the image and each file's copy of it go: memory (/dev/shm) where the machine has it. On the disk, copying
 * the 48 MB image and PGlite's writes and close took seconds per file on a busy machine.
 */
export function scratchRoot(): string {
  try {
    accessSync('/dev/shm', constants.W_OK);
    return '/dev/shm';
  } catch {
    return tmpdir();
  }
}

/** Until no connection to database `name` is left (a pool's end() returns before its sockets have closed). */
export async function waitForNoConnections(c: pg.Client, name: string, maxMs = 5000): Promise<void> {
  const until = Date.now() + maxMs;
  for (;;) {
    const { rows } = await c.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
    if (rows[0].n === 0 || Date.now() > until) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A PGlite data folder (imageDir/data) migrated and seeded, with the image.json restorePgliteImage checks. */
export async function buildPgliteTestImage(imageDir: string): Promise<void> {
  const client = await PGlite.create(join(imageDir, 'data'), { extensions: pgliteExtensions });
  try {
    const db = drizzle(client) as unknown as Db;
    await migrate(db);
    await seedIfEmpty(db, TEST_ADMIN_PASSWORD);
  } finally {
    await client.close();
  }
  await writeFile(join(imageDir, 'image.json'), `${JSON.stringify(imageChecksum(), null, 1)}\n`);
}

/** A migrated, seeded database on the DATABASE_URL server, marked as a template; its name. */
export async function buildPostgresTemplate(base: string): Promise<string> {
  const name = `campus_tpl_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
    const u = new URL(base);
    u.pathname = `/${name}`;
    const database = await openDatabase({ databaseUrl: u.toString() });
    try {
      await migrate(database.db);
      await seedIfEmpty(database.db, TEST_ADMIN_PASSWORD);
    } finally {
      await database.close();
    }
    // CREATE DATABASE ... TEMPLATE refuses while anyone is connected to the template.
    await waitForNoConnections(admin, name);
    await admin.query(`ALTER DATABASE ${name} WITH IS_TEMPLATE true`);
  } finally {
    await admin.end();
  }
  return name;
}

async function dropTemplate(base: string, name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`ALTER DATABASE ${name} WITH IS_TEMPLATE false`);
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/** Builds what the backends in use need; returns the teardown. `postgres: false` for runs that only use PGlite (e2e). */
export async function prepareTestDatabases(options: { postgres: boolean }): Promise<() => Promise<void>> {
  const imageDir = mkdtempSync(join(scratchRoot(), 'campus-test-image-'));
  const base = options.postgres ? process.env.DATABASE_URL : undefined;
  const [, template] = await Promise.all([buildPgliteTestImage(imageDir), base ? buildPostgresTemplate(base) : undefined]);
  process.env[PGLITE_IMAGE_ENV] = imageDir;
  if (template) process.env[PG_TEMPLATE_ENV] = template;
  return async () => {
    await rm(imageDir, { recursive: true, force: true });
    if (base && template) await dropTemplate(base, template);
  };
}

