import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../../config';
import { rows, sql, type Database, type Db } from '../../db/client';
import { backupDir } from './backup-path';
import { backupFileStem } from './backup-timing';
import { relativeToRoot, writeBackup } from './backup-archive';

export interface BackupRow {
  bckp_cd: number;
  bckp_fldr_nm: string;
  bckp_path: string;
  bckp_typ: string;
  bckp_typ_vl: string | null;
  bckp_ptrn: string | null;
  bckp_is_zip: boolean;
}

export interface BackupRunRow {
  bckp_run_cd: number;
  bckp_cd: number;
  bckp_run_trigger: string;
  bckp_run_started_at: string;
  bckp_run_finished_at: string | null;
  bckp_run_ms: number | null;
  bckp_run_size: number | null;
  bckp_run_sha256: string | null;
  bckp_run_result: 'running' | 'ok' | 'failed';
  bckp_run_error: string | null;
  bckp_run_file: string | null;
  bckp_run_pruned_at: string | null;
}

export const backupRows = (db: Db): Promise<BackupRow[]> =>
  rows<BackupRow>(db, sql`SELECT bckp_cd, bckp_fldr_nm, bckp_path, bckp_typ, bckp_typ_vl, bckp_ptrn, bckp_is_zip FROM backup ORDER BY bckp_cd`);

const unusedName = (dir: string, stem: string, ext: string, at: Date): string => {
  const two = (n: number): string => String(n).padStart(2, '0');
  const candidates = [stem, `${stem}_${two(at.getHours())}${two(at.getMinutes())}${two(at.getSeconds())}`];
  for (const c of candidates) if (!existsSync(join(dir, c + ext))) return c + ext;
  for (let i = 2; ; i++) if (!existsSync(join(dir, `${candidates[1]}-${i}${ext}`))) return `${candidates[1]}-${i}${ext}`;
};

/**
 * One run of a backup row: recorded in backup_run (running, then ok or failed), written under a temporary
 * name and renamed when whole, then the row's runs beyond the newest BACKUP_KEEP good ones are pruned (their
 * files deleted; only files this table recorded, never anything else in the folder).
 */
export async function runBackup(database: Database, cfg: Config, bckpCd: number, trigger: string, jobId: string | null): Promise<BackupRunRow> {
  const db = database.db;
  const [row] = await rows<BackupRow>(db, sql`SELECT bckp_cd, bckp_fldr_nm, bckp_path, bckp_typ, bckp_typ_vl, bckp_ptrn, bckp_is_zip FROM backup WHERE bckp_cd = ${bckpCd}`);
  if (!row) throw new Error(`Backup ${bckpCd} no longer exists.`);
  const [run] = await rows<{ bckp_run_cd: number; started: string }>(
    db,
    sql`INSERT INTO backup_run (bckp_cd, bckp_run_job_id, bckp_run_trigger, bckp_run_result) VALUES (${bckpCd}, ${jobId}, ${trigger}, 'running')
        RETURNING bckp_run_cd, bckp_run_started_at AS started`,
  );
  const started = Date.now();
  try {
    const dir = backupDir(row.bckp_path, cfg.backupRoot);
    await mkdir(dir, { recursive: true });
    const at = new Date();
    const name = unusedName(dir, backupFileStem(row.bckp_ptrn, at), row.bckp_is_zip ? '.campus.tar.gz' : '.campus.tar', at);
    const file = join(dir, name);
    const [mig] = await rows<{ name: string }>(db, sql`SELECT name FROM campus_migration ORDER BY name DESC LIMIT 1`);
    const { size, sha256 } = await writeBackup({
      database,
      databaseUrl: cfg.databaseUrl,
      uploadDir: cfg.uploadDir,
      backupRoot: cfg.backupRoot,
      file,
      gzip: row.bckp_is_zip,
      migration: mig?.name ?? null,
    });
    const [done] = await rows<BackupRunRow>(
      db,
      sql`UPDATE backup_run SET bckp_run_result = 'ok', bckp_run_finished_at = now(), bckp_run_ms = ${Date.now() - started},
            bckp_run_size = ${size}, bckp_run_sha256 = ${sha256}, bckp_run_file = ${relativeToRoot(cfg.backupRoot, file)}
          WHERE bckp_run_cd = ${run.bckp_run_cd} RETURNING *`,
    );
    await prune(db, cfg, bckpCd);
    return done;
  } catch (err) {
    const message = (err as Error).message.slice(0, 1000);
    await db.execute(
      sql`UPDATE backup_run SET bckp_run_result = 'failed', bckp_run_finished_at = now(), bckp_run_ms = ${Date.now() - started}, bckp_run_error = ${message}
          WHERE bckp_run_cd = ${run.bckp_run_cd}`,
    );
    throw err;
  }
}

async function prune(db: Db, cfg: Config, bckpCd: number): Promise<void> {
  const old = await rows<{ bckp_run_cd: number; bckp_run_file: string }>(
    db,
    sql`SELECT bckp_run_cd, bckp_run_file FROM backup_run
        WHERE bckp_cd = ${bckpCd} AND bckp_run_result = 'ok' AND bckp_run_pruned_at IS NULL AND bckp_run_file IS NOT NULL
        ORDER BY bckp_run_started_at DESC, bckp_run_cd DESC OFFSET ${cfg.backupKeep}`,
  );
  for (const r of old) {
    const file = join(cfg.backupRoot, r.bckp_run_file);
    // Only inside the root: a recorded name is never followed out of it.
    if (!file.startsWith(cfg.backupRoot)) continue;
    await rm(file, { force: true });
    await db.execute(sql`UPDATE backup_run SET bckp_run_pruned_at = now() WHERE bckp_run_cd = ${r.bckp_run_cd}`);
  }
}

/** Runs newest first, with their backup's folder name (null once the row is deleted). */
export const backupRuns = (db: Db, bckpCd: number | null, limit: number): Promise<(BackupRunRow & { bckp_fldr_nm: string | null })[]> =>
  rows<BackupRunRow & { bckp_fldr_nm: string | null }>(
    db,
    sql`SELECT r.*, b.bckp_fldr_nm FROM backup_run r LEFT JOIN backup b ON b.bckp_cd = r.bckp_cd
        ${bckpCd === null ? sql`` : sql`WHERE r.bckp_cd = ${bckpCd}`} ORDER BY r.bckp_run_started_at DESC, r.bckp_run_cd DESC LIMIT ${limit}`,
  );
