import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, migrationsDir } from '../src/db/migrate';
import { pgliteExtensions, type Db } from '../src/db/client';
import { buildPgliteImage, imageChecksum, restorePgliteImage } from '../src/db/pglite-image';

/** Everything the migrations make, as text: tables and columns, constraints, indexes, views, functions, triggers. */
async function schemaListing(pg: PGlite): Promise<string[]> {
  const q = async (text: string) => (await pg.query<{ x: string }>(text)).rows.map((r) => r.x);
  return [
    ...(await q(`SELECT 'ext ' || extname AS x FROM pg_extension ORDER BY 1`)),
    ...(await q(`SELECT 'col ' || table_name || '.' || column_name || ' ' || data_type || ' ' || coalesce(character_maximum_length::text, '')
                   || ' ' || is_nullable || ' ' || coalesce(column_default, '') AS x
                 FROM information_schema.columns WHERE table_schema = 'public' ORDER BY 1`)),
    ...(await q(`SELECT 'con ' || conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid) AS x
                 FROM pg_constraint WHERE connamespace = 'public'::regnamespace ORDER BY 1`)),
    ...(await q(`SELECT 'idx ' || indexdef AS x FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1`)),
    ...(await q(`SELECT 'view ' || viewname || ' ' || definition AS x FROM pg_views WHERE schemaname = 'public' ORDER BY 1`)),
    ...(await q(`SELECT 'fn ' || pg_get_functiondef(p.oid) AS x FROM pg_proc p
                 WHERE p.pronamespace = 'public'::regnamespace AND p.prokind = 'f'
                   AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e') ORDER BY 1`)),
    ...(await q(`SELECT 'trg ' || pg_get_triggerdef(oid) AS x FROM pg_trigger WHERE NOT tgisinternal ORDER BY 1`)),
    ...(await q(`SELECT 'seq ' || sequencename || ' ' || coalesce(last_value::text, 'unused') AS x FROM pg_sequences WHERE schemaname = 'public' ORDER BY 1`)),
    ...(await q(`SELECT 'mig ' || name AS x FROM campus_migration ORDER BY 1`)),
  ];
}

describe('the migrated empty database made at build time (pglite-image)', () => {
  let work: string;
  let imageDir: string;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'campus-image-test-'));
    imageDir = join(work, 'image');
    const made = await buildPgliteImage(imageDir);
    expect(made.built).toBe(true);
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('a first start from it has exactly the schema that migrating from scratch gives, and nothing left to migrate', async () => {
    const dataDir = join(work, 'fresh', 'data');
    expect(await restorePgliteImage(dataDir, imageDir)).toBe('copied');
    const restored = await PGlite.create(dataDir, { extensions: pgliteExtensions });
    const scratch = await PGlite.create('memory://', { extensions: pgliteExtensions });
    try {
      const applied = await migrate(drizzle(scratch) as unknown as Db);
      expect(applied.length).toBeGreaterThan(20);
      const want = await schemaListing(scratch);
      expect(want.filter((l) => l.startsWith('trg ')).length).toBeGreaterThan(0);
      expect(await schemaListing(restored)).toEqual(want);
      // The server still runs the migrations at every start: on the copy there is none left.
      expect(await migrate(drizzle(restored) as unknown as Db)).toEqual([]);
      // And it is a working database, not a read-only one.
      await restored.query(`INSERT INTO institute (inst_nm, inst_typ, is_active) VALUES ('Image Test School', 'school', true)`);
      expect((await restored.query<{ n: number }>(`SELECT count(*)::int AS n FROM institute`)).rows[0].n).toBe(1);
    } finally {
      await restored.close();
      await scratch.close();
    }
    // The image itself is left as it was (the copy is the database's own).
    const again = join(work, 'again');
    expect(await restorePgliteImage(again, imageDir)).toBe('copied');
    const second = await PGlite.create(again, { extensions: pgliteExtensions });
    expect((await second.query<{ n: number }>(`SELECT count(*)::int AS n FROM institute`)).rows[0].n).toBe(0);
    await second.close();
  });

  it('is not used once the migrations have changed since it was made, nor in a folder that has anything in it', async () => {
    const info = join(imageDir, 'image.json');
    const original = readFileSync(info, 'utf8');
    try {
      // As after a pull that brought a new migration, without npm run build:server since.
      writeFileSync(info, JSON.stringify({ ...JSON.parse(original), checksum: 'made-from-older-migrations' }));
      const stale = join(work, 'stale');
      expect(await restorePgliteImage(stale, imageDir)).toBe('stale');
      expect(existsSync(stale)).toBe(false);
    } finally {
      writeFileSync(info, original);
    }
    // A folder with anything in it (here a database without its PG_VERSION) is never written over.
    const occupied = join(work, 'occupied');
    cpSync(join(imageDir, 'data'), occupied, { recursive: true });
    rmSync(join(occupied, 'PG_VERSION'));
    const before = readdirSync(occupied).sort();
    expect(await restorePgliteImage(occupied, imageDir)).toBe('not-empty');
    expect(readdirSync(occupied).sort()).toEqual(before);
    expect(existsSync(join(occupied, 'PG_VERSION'))).toBe(false);
    expect(await restorePgliteImage('memory://', imageDir)).toBe('memory');
    expect(await restorePgliteImage(join(work, 'none'), join(work, 'no-image-here'))).toBe('no-image');
  });

  it('its checksum follows every migration file: a new one or an edited one makes the image stale', () => {
    const copy = join(work, 'migrations');
    cpSync(migrationsDir, copy, { recursive: true });
    const today = imageChecksum(copy).checksum;
    expect(imageChecksum(migrationsDir).checksum).toBe(today);
    writeFileSync(join(copy, '9999_next.sql'), 'ALTER TABLE institute ADD COLUMN x integer;');
    const added = imageChecksum(copy).checksum;
    expect(added).not.toBe(today);
    rmSync(join(copy, '9999_next.sql'));
    const first = readdirSync(copy).filter((f) => f.endsWith('.sql')).sort()[0];
    writeFileSync(join(copy, first), `${readFileSync(join(copy, first), 'utf8')}\n-- edited`);
    expect(imageChecksum(copy).checksum).not.toBe(today);
    // The JSON snapshots are not applied by migrate(): they do not count.
    rmSync(join(copy, first));
    cpSync(join(migrationsDir, first), join(copy, first));
    writeFileSync(join(copy, 'snapshot.json'), '{}');
    expect(imageChecksum(copy).checksum).toBe(today);
  });
});
