import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { createGzip } from 'node:zlib';
import { cp, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import * as tar from 'tar';
import type { Database } from '../../db/client';
import { pgliteOf } from '../../jobs/job-queue';

/**
 * A backup is one tar file (gzip-compressed when the row says so):
 *   manifest.json              what made it (format, database kind, when, the last migration)
 *   database.pgdump            PostgreSQL: pg_dump's custom format (restored with pg_restore)
 *   database.pglite.tar.gz     PGlite: its own dump of the data directory (dumpDataDir)
 *   uploads/...                the uploaded files (UPLOAD_DIR)
 */
export const BACKUP_FORMAT = 'campus-backup';
export const BACKUP_FORMAT_VERSION = 1;
export const PG_DUMP_FILE = 'database.pgdump';
export const PGLITE_DUMP_FILE = 'database.pglite.tar.gz';

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  version: number;
  kind: 'pglite' | 'postgres';
  created_at: string;
  migration: string | null;
  uploads: number;
}

/** Runs a PostgreSQL client program; its error output is the failure's message. The password goes by PGPASSWORD, never on the command line. */
export function runPgTool(program: 'pg_dump' | 'pg_restore', args: string[], databaseUrl: string): Promise<void> {
  const u = new URL(databaseUrl);
  const password = decodeURIComponent(u.password);
  u.password = '';
  return new Promise((done, fail) => {
    const child = spawn(program, [...args, `--dbname=${u.toString()}`], {
      env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()).length > 4000 && (err = err.slice(-4000)));
    child.on('error', (e: NodeJS.ErrnoException) =>
      fail(new Error(e.code === 'ENOENT' ? `${program} is not installed on this server (Debian: apt-get install postgresql-client).` : e.message)),
    );
    child.on('close', (code) => (code === 0 ? done() : fail(new Error(`${program} failed: ${err.trim() || `exit code ${code}`}`))));
  });
}

async function countFiles(dir: string): Promise<number> {
  if (!existsSync(dir)) return 0;
  const { readdir } = await import('node:fs/promises');
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).length;
}

export const sha256Of = (file: string): Promise<string> =>
  new Promise((done, fail) => {
    const h = createHash('sha256');
    createReadStream(file)
      .on('data', (d) => h.update(d))
      .on('error', fail)
      .on('end', () => done(h.digest('hex')));
  });

export interface WriteBackupOptions {
  database: Database;
  databaseUrl?: string;
  uploadDir: string;
  backupRoot: string;
  /** The final file; written as a hidden partial file beside it and renamed only when complete. */
  file: string;
  gzip: boolean;
  migration: string | null;
}

/** Writes one backup file; a failure leaves nothing under the final name (nor the partial files). */
export async function writeBackup(o: WriteBackupOptions): Promise<{ size: number; sha256: string }> {
  const dir = resolve(o.file, '..');
  const base = o.file.slice(dir.length + 1);
  const staging = join(dir, `.${base}.partial.d`);
  const partial = join(dir, `.${base}.partial`);
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  try {
    const entries = ['manifest.json'];
    if (o.database.kind === 'postgres') {
      await runPgTool('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', `--file=${join(staging, PG_DUMP_FILE)}`], o.databaseUrl!);
      entries.push(PG_DUMP_FILE);
    } else {
      const pglite = pgliteOf(o.database);
      // Written out first, so the dump holds little WAL to replay; committed work is in it either way.
      await pglite.exec('CHECKPOINT');
      // Uncompressed: PGlite holds its query lock while it makes the dump, and compressing inside it kept
      // every request waiting ~4 s for the demo; gzip runs afterwards, off the lock, in zlib's threads.
      const dump = await pglite.dumpDataDir('none');
      await pipeline(Readable.fromWeb(dump.stream() as NodeReadableStream<Uint8Array>), createGzip({ level: 6 }), createWriteStream(join(staging, PGLITE_DUMP_FILE)));
      entries.push(PGLITE_DUMP_FILE);
    }
    const uploads = resolve(o.uploadDir);
    if (existsSync(uploads)) {
      const root = resolve(o.backupRoot);
      // Never the backups themselves, should BACKUP_ROOT be inside the uploads folder.
      await cp(uploads, join(staging, 'uploads'), { recursive: true, filter: (src) => src !== root && !resolve(src).startsWith(root + sep) });
      entries.push('uploads');
    }
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      version: BACKUP_FORMAT_VERSION,
      kind: o.database.kind,
      created_at: new Date().toISOString(),
      migration: o.migration,
      uploads: await countFiles(join(staging, 'uploads')),
    };
    await writeFile(join(staging, 'manifest.json'), JSON.stringify(manifest, null, 2));
    await tar.create({ file: partial, cwd: staging, gzip: o.gzip, portable: true }, entries);
    const [size, sha256] = [(await stat(partial)).size, await sha256Of(partial)];
    const { rename } = await import('node:fs/promises');
    await rename(partial, o.file);
    return { size, sha256 };
  } catch (err) {
    await rm(partial, { force: true });
    throw err;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** Unpacks a backup file into dir and reads its manifest (refusing a file that is not a Campus backup). */
export async function unpackBackup(file: string, dir: string): Promise<BackupManifest> {
  if (!existsSync(file)) throw new Error(`No such file: ${file}`);
  await mkdir(dir, { recursive: true });
  try {
    await tar.extract({ file, cwd: dir, strict: true });
  } catch (err) {
    throw new Error(`${file} is not a Campus backup (it cannot be read as one: ${(err as Error).message}).`);
  }
  const mf = join(dir, 'manifest.json');
  if (!existsSync(mf)) throw new Error(`${file} is not a Campus backup (no manifest.json in it).`);
  const manifest = JSON.parse(await readFile(mf, 'utf8')) as BackupManifest;
  if (manifest.format !== BACKUP_FORMAT) throw new Error(`${file} is not a Campus backup (format '${String(manifest.format)}').`);
  if (manifest.version > BACKUP_FORMAT_VERSION) throw new Error(`${file} was written by a newer Campus (backup format ${manifest.version}): upgrade first.`);
  return manifest;
}

export const relativeToRoot = (root: string, file: string): string => relative(root, file);
