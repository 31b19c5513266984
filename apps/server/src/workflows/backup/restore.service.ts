import { PGlite } from '@electric-sql/pglite';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { pgliteExtensions } from '../../db/client';
import { PG_DUMP_FILE, PGLITE_DUMP_FILE, runPgTool, unpackBackup, type BackupManifest } from './backup-archive';

export interface RestoreTarget {
  /** PostgreSQL (DATABASE_URL); otherwise PGlite in dataDir. */
  databaseUrl?: string;
  dataDir: string;
  uploadDir: string;
}

export interface RestoreResult {
  kind: 'pglite' | 'postgres';
  manifest: BackupManifest;
  uploads: number;
  ms: number;
}

const isEmptyDir = async (dir: string): Promise<boolean> => !existsSync(dir) || (await readdir(dir)).length === 0;

/** Tables (and rows in them) of a PostgreSQL database outside the system schemas. */
async function tablesIn(databaseUrl: string): Promise<number> {
  const c = new pg.Client({ connectionString: databaseUrl });
  c.on('error', () => undefined);
  await c.connect();
  try {
    const r = await c.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace
       WHERE c.relkind IN ('r', 'p') AND s.nspname NOT IN ('pg_catalog', 'information_schema') AND s.nspname NOT LIKE 'pg\\_toast%'`,
    );
    return r.rows[0].n;
  } finally {
    await c.end();
  }
}

/**
 * Restores a backup file into an empty database: PostgreSQL (pg_restore of its custom-format dump) or PGlite
 * (its data directory, loaded into an empty DATA_DIR), and the uploads into an empty UPLOAD_DIR. Everything
 * is checked before anything is written: a database with tables, a non-empty folder, a backup of the other
 * kind of database are refused with a sentence.
 */
export async function restoreBackup(file: string, target: RestoreTarget): Promise<RestoreResult> {
  const started = Date.now();
  const work = await mkdtemp(join(tmpdir(), 'campus-restore-'));
  try {
    const manifest = await unpackBackup(resolve(file), work);
    const kind = target.databaseUrl ? 'postgres' : 'pglite';
    if (manifest.kind !== kind) {
      throw new Error(
        manifest.kind === 'postgres'
          ? 'This backup was made on PostgreSQL: restore it with DATABASE_URL set to a new, empty PostgreSQL database.'
          : 'This backup was made on the built-in database (PGlite): restore it without DATABASE_URL, into an empty DATA_DIR.',
      );
    }
    if (target.databaseUrl) {
      const n = await tablesIn(target.databaseUrl);
      if (n > 0) throw new Error(`The database at DATABASE_URL already holds ${n} tables: restore only into an empty database (e.g. createdb campus_restored, then point DATABASE_URL at it).`);
    } else if (!(await isEmptyDir(target.dataDir))) {
      throw new Error(`DATA_DIR ${resolve(target.dataDir)} is not empty: restore only into an empty or new folder (set DATA_DIR to one).`);
    }
    const uploadsIn = join(work, 'uploads');
    const uploadDir = resolve(target.uploadDir);
    // With PGlite the uploads folder is usually inside DATA_DIR, which was just found empty.
    if (existsSync(uploadsIn) && !(await isEmptyDir(uploadDir))) {
      throw new Error(`UPLOAD_DIR ${uploadDir} is not empty: restore only into an empty uploads folder.`);
    }

    if (target.databaseUrl) {
      await runPgTool('pg_restore', ['--no-owner', '--no-privileges', '--exit-on-error', join(work, PG_DUMP_FILE)], target.databaseUrl);
    } else {
      const dump = await readFile(join(work, PGLITE_DUMP_FILE));
      const db = await PGlite.create(target.dataDir, { loadDataDir: new Blob([dump]), extensions: pgliteExtensions });
      await db.query('SELECT 1');
      await db.close();
    }
    let uploads = 0;
    if (existsSync(uploadsIn)) {
      await cp(uploadsIn, uploadDir, { recursive: true });
      uploads = (await readdir(uploadsIn, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).length;
    }
    return { kind, manifest, uploads, ms: Date.now() - started };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
