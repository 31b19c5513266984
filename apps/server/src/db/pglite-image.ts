/**
 * A migrated, empty PGlite database made at build time (issue 10: start to healthy). Creating a database
 * (initdb) and applying every migration took most of a first start (2.2 s + 1.1 s quiet, 9 s + 3 s on a
 * busy machine); copying a folder made once by `npm run build:server` and opening it takes a fraction of that.
 *
 * The image is a plain PGlite data folder (dist/pglite-image/data) with image.json next to it naming the
 * checksum it was made for: the migration files and the PGlite version. A first start copies it only when
 * the checksum still matches; any other start (an existing database, no image, a stale one) goes the old way,
 * initdb and every migration, so an image can never give a database another schema than migrating would.
 *
 * PGlite's own loadDataDir (a tarball) was measured first: unpacking through its file system took as long as
 * initdb (5 s on a loaded box); copying the folder took 0.2-0.4 s.
 */
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { createHash } from 'node:crypto';
import { constants, existsSync, readdirSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pgliteExtensions, type Db } from './client';
import { migrate, migrationsDir } from './migrate';

/** apps/server/dist/pglite-image (a build artefact, not in git). */
export const defaultImageDir = join(dirname(fileURLToPath(import.meta.url)), '../../dist/pglite-image');

interface ImageInfo {
  checksum: string;
  pglite: string;
  migrations: number;
}

/** The installed PGlite's version: a new PGlite may write its catalog differently. */
function pgliteVersion(): string {
  const require = createRequire(import.meta.url);
  let dir = dirname(require.resolve('@electric-sql/pglite'));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      const { name, version } = JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string; version?: string };
      if (name === '@electric-sql/pglite' && version) return version;
    }
    const up = dirname(dir);
    if (up === dir) return 'unknown';
    dir = up;
  }
}

/** What an image must have been made from to be used: every migration file (name and text) and PGlite's version. */
export function imageChecksum(dir: string = migrationsDir): { checksum: string; pglite: string; migrations: number } {
  const h = createHash('sha256');
  const pglite = pgliteVersion();
  h.update(`pglite ${pglite}\0`);
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort();
  for (const f of files) h.update(`${f}\0`).update(readFileSync(join(dir, f))).update('\0');
  return { checksum: h.digest('hex'), pglite, migrations: files.length };
}

async function readInfo(imageDir: string): Promise<ImageInfo | undefined> {
  try {
    return JSON.parse(await readFile(join(imageDir, 'image.json'), 'utf8')) as ImageInfo;
  } catch {
    return undefined;
  }
}

/** The image folder when it is there and made from today's migrations, otherwise why not. */
async function usableImage(imageDir: string, checksum: string): Promise<'ok' | 'no-image' | 'stale'> {
  const info = await readInfo(imageDir);
  if (!info || !existsSync(join(imageDir, 'data/PG_VERSION'))) return 'no-image';
  return info.checksum === checksum ? 'ok' : 'stale';
}

/**
 * Makes the image (initdb and every migration, in a folder of its own) unless one for today's migrations is
 * there already. Written under another name and renamed, so a start meanwhile copies a whole image or none.
 */
export async function buildPgliteImage(imageDir: string = defaultImageDir): Promise<{ built: boolean; ms: number; migrations: number }> {
  const t0 = performance.now();
  const want = imageChecksum();
  if ((await usableImage(imageDir, want.checksum)) === 'ok') return { built: false, ms: performance.now() - t0, migrations: want.migrations };
  const tmp = `${imageDir}.${process.pid}.tmp`;
  await rm(tmp, { recursive: true, force: true });
  await mkdir(tmp, { recursive: true });
  const client = await PGlite.create(join(tmp, 'data'), { extensions: pgliteExtensions });
  try {
    await migrate(drizzle(client) as unknown as Db);
  } finally {
    await client.close();
  }
  const info: ImageInfo = want;
  await writeFile(join(tmp, 'image.json'), `${JSON.stringify(info, null, 1)}\n`);
  await rm(imageDir, { recursive: true, force: true });
  try {
    await rename(tmp, imageDir);
  } catch (err) {
    // Another build (an e2e run beside a bench) put its image there first: keep it if it is as good as ours.
    await rm(tmp, { recursive: true, force: true });
    if ((await usableImage(imageDir, want.checksum)) !== 'ok') throw err;
  }
  return { built: true, ms: performance.now() - t0, migrations: want.migrations };
}

/**
 * Every file of the image at once (some 1,700 files, 48 MB): 0.16-0.18 s where fs.cp, one file after another,
 * took 0.45-0.55 s (a fresh process on a loaded box). Copy-on-write where the file system offers it (btrfs,
 * xfs, APFS), a plain copy elsewhere.
 */
async function copyTree(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true });
  const entries = await readdir(from, { withFileTypes: true });
  await Promise.all(
    entries.map((e) =>
      e.isDirectory() ? copyTree(join(from, e.name), join(to, e.name)) : copyFile(join(from, e.name), join(to, e.name), constants.COPYFILE_FICLONE),
    ),
  );
}

export type ImageUse = 'copied' | 'not-empty' | 'no-image' | 'stale' | 'memory';

/**
 * Before PGlite opens dataDir: a folder that is missing or empty gets a copy of the image, when the image
 * matches today's migrations. Anything already in the folder is left alone (PGlite resumes it, or creates
 * the database there as before). The copy goes to a folder beside it first and is renamed into place, so a
 * start stopped half-way leaves no half database that a later start would take for a whole one.
 */
export async function restorePgliteImage(dataDir: string, imageDir: string = defaultImageDir): Promise<ImageUse> {
  if (dataDir.includes('://') && !dataDir.startsWith('file://')) return 'memory';
  const target = resolve(dataDir.startsWith('file://') ? dataDir.slice('file://'.length) : dataDir);
  let existing: string[] | undefined;
  try {
    existing = await readdir(target);
  } catch {
    existing = undefined;
  }
  if (existing && existing.length > 0) return 'not-empty';
  const state = await usableImage(imageDir, imageChecksum().checksum);
  if (state !== 'ok') return state;
  const tmp = `${target}.image-${process.pid}.tmp`;
  await rm(tmp, { recursive: true, force: true });
  await mkdir(dirname(target), { recursive: true });
  try {
    await copyTree(join(imageDir, 'data'), tmp);
  } catch {
    // The image went away under the copy (a build replacing it): create the database the ordinary way.
    await rm(tmp, { recursive: true, force: true });
    return 'no-image';
  }
  if (existing) await rmdir(target);
  await rename(tmp, target);
  return 'copied';
}
