import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, rows, sql, type Db } from '../src/db/client';
import { sha256Of } from '../src/workflows/backup/backup-archive';
import { BACKUP_JOB } from '../src/workflows/backup/backup.jobs';
import type { BackupRunRow } from '../src/workflows/backup/backup.service';
import { restoreBackup } from '../src/workflows/backup/restore.service';
import { backends, call, login, startTestServer, type Backend, type Session, type TestServer } from './test-server';

/** Every table of the product (schema public): its row count and an md5 of its rows' text, in order. */
async function tableChecksums(db: Db): Promise<Record<string, string>> {
  const tables = await rows<{ t: string }>(db, sql`SELECT tablename AS t FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`);
  const out: Record<string, string> = {};
  for (const { t } of tables) {
    const [r] = await rows<{ n: number; h: string }>(
      db,
      sql`SELECT count(*)::int AS n, md5(coalesce(string_agg(x::text, E'\n' ORDER BY x::text), '')) AS h FROM ${sql.identifier(t)} x`,
    );
    out[t] = `${r.n}:${r.h}`;
  }
  return out;
}

async function until<T>(what: () => Promise<T | undefined | null | false>, ms = 90_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await what();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe.each(backends)('backup and restore on %s', (backend: Backend) => {
  let srv: TestServer;
  let admin: Session;
  let root: string;
  let uploads: string;
  let scratch: string;
  let dailyCd: number;
  const page = { pagename: 'backup', modulename: 'master' };

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'campus-backup-test-'));
    root = join(scratch, 'backups');
    uploads = join(scratch, 'uploads');
    mkdirSync(join(uploads, 'ab'), { recursive: true });
    writeFileSync(join(uploads, 'ab', 'report-card.pdf'), Buffer.from('%PDF-1.4 a pupil report card\n'));
    mkdirSync(root, { recursive: true });
    // One good backup kept per row: the second run below prunes the first one's file.
    srv = await startTestServer(backend, { backupRoot: root, uploadDir: uploads, backupKeep: 1 }, { demo: true });
    await srv.app.jobs.start();
    admin = { ...(await login(srv.app)), ...page };
    const [daily] = await rows<{ bckp_cd: number }>(srv.database.db, sql`SELECT bckp_cd FROM backup WHERE bckp_fldr_nm = 'daily'`);
    dailyCd = daily.bckp_cd;
  }, 120_000);

  afterAll(async () => {
    await srv?.close();
    await rm(scratch, { recursive: true, force: true });
  });

  it('refuses a backup folder outside BACKUP_ROOT or a Run At that does not fit, and schedules a good row', async () => {
    const row = { bckp_fldr_nm: 'term-end', bckp_typ: 'Weekly', bckp_typ_vl: 'Friday 18:30', bckp_ptrn: 'term_YYYYMMDD', bckp_is_zip: true };
    symlinkSync(tmpdir(), join(root, 'escape'));
    for (const bckp_path of ['/etc', '../elsewhere', 'daily/../../elsewhere', 'escape/inside']) {
      const res = await call(srv.app, admin, 'POST', '/api/backup/', { ...row, bckp_path });
      expect(res.statusCode, bckp_path).toBe(400);
      expect(res.json().message).toContain(`The backup path '${bckp_path}' is outside the backup folder`);
    }
    const badTime = await call(srv.app, admin, 'POST', '/api/backup/', { ...row, bckp_path: 'term', bckp_typ: 'Daily', bckp_typ_vl: '25:00' });
    expect(badTime.statusCode).toBe(400);
    expect(badTime.json().message).toBe("'Run At' of a daily backup is a time like 02:00 (24-hour clock), not '25:00'.");
    const badDay = await call(srv.app, admin, 'POST', '/api/backup/', { ...row, bckp_path: 'term', bckp_typ: 'Monthly', bckp_typ_vl: '32' });
    expect(badDay.statusCode).toBe(400);

    const ok = await call(srv.app, admin, 'POST', '/api/backup/', { ...row, bckp_path: join(root, 'term') });
    expect(ok.statusCode, ok.body).toBe(201);
    const made = await rows<{ bckp_cd: number }>(srv.database.db, sql`SELECT bckp_cd FROM backup WHERE bckp_fldr_nm = 'term-end'`);
    // The schedules follow the rows (synced after the save's answer): the demo's four and the new one.
    const all = await rows<{ bckp_cd: number }>(srv.database.db, sql`SELECT bckp_cd FROM backup`);
    await until(async () => (await srv.app.jobs.scheduleKeys(BACKUP_JOB)).includes(String(made[0].bckp_cd)));
    const [sched] = await rows<{ cron: string }>(srv.database.db, sql`SELECT cron FROM pgboss.schedule WHERE name = ${`${BACKUP_JOB}__${made[0].bckp_cd}`}`);
    expect(sched.cron).toBe('30 18 * * 5');
    expect((await srv.app.jobs.scheduleKeys(BACKUP_JOB)).sort()).toEqual(all.map((r) => String(r.bckp_cd)).sort());

    const del = await call(srv.app, admin, 'DELETE', '/api/backup/', { primids: [made[0].bckp_cd] });
    expect(del.statusCode, del.body).toBe(200);
    await until(async () => !(await srv.app.jobs.scheduleKeys(BACKUP_JOB)).includes(String(made[0].bckp_cd)));
  }, 60_000);

  it('backs up the demo and restores it into a fresh database: every table identical, uploads too', async () => {
    const before = await tableChecksums(srv.database.db);
    const t0 = Date.now();
    const jobId = await srv.app.jobs.send(BACKUP_JOB, { bckp_cd: dailyCd, trigger: 'manual' }, { singletonKey: String(dailyCd) });
    expect(jobId).toBeTruthy();
    const run = await until(async () => {
      const [r] = await rows<BackupRunRow>(srv.database.db, sql`SELECT * FROM backup_run WHERE bckp_run_job_id = ${jobId} AND bckp_run_result <> 'running'`);
      return r;
    });
    const backupMs = Date.now() - t0;
    expect(run.bckp_run_error).toBeNull();
    expect(run.bckp_run_result).toBe('ok');
    const file = join(root, run.bckp_run_file!);
    expect(run.bckp_run_file).toMatch(/^backups\/daily\/campus_daily_\d{8}(_\d{6})?\.campus\.tar\.gz$/);
    expect(Number(run.bckp_run_size)).toBeGreaterThan(1000);
    expect(run.bckp_run_sha256).toBe(await sha256Of(file));
    // No partial file is left beside it.
    expect(readFileSync(file).length).toBe(Number(run.bckp_run_size));

    let restoredDb: Db;
    let closeRestored: () => Promise<void>;
    const restoredUploads = join(scratch, 'restored-uploads');
    const t1 = Date.now();
    if (backend === 'postgres') {
      const base = process.env.DATABASE_URL!;
      const name = `campus_r_${Date.now().toString(36)}`;
      const admin = new pg.Client({ connectionString: base });
      admin.on('error', () => undefined);
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      const u = new URL(base);
      u.pathname = `/${name}`;
      await restoreBackup(file, { databaseUrl: u.toString(), dataDir: 'unused', uploadDir: restoredUploads });
      const restored = await openDatabase({ databaseUrl: u.toString() });
      restoredDb = restored.db;
      closeRestored = async () => {
        await restored.close();
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
      };
      // Into a database that holds tables: refused, with a sentence.
      await expect(restoreBackup(file, { databaseUrl: u.toString(), dataDir: 'unused', uploadDir: join(scratch, 'u2') })).rejects.toThrow(
        /The database at DATABASE_URL already holds \d+ tables: restore only into an empty database/,
      );
    } else {
      const dataDir = join(scratch, 'restored-data');
      await restoreBackup(file, { dataDir, uploadDir: restoredUploads });
      const restored = await openDatabase({ dataDir });
      restoredDb = restored.db;
      closeRestored = () => restored.close();
      await expect(restoreBackup(file, { dataDir, uploadDir: join(scratch, 'u2') })).rejects.toThrow(/DATA_DIR .* is not empty: restore only into an empty or new folder/);
    }
    const restoreMs = Date.now() - t1;
    try {
      const after = await tableChecksums(restoredDb);
      // The run's own row is in its backup as it was while the dump ran: 'running'.
      const { backup_run: runsAfter, ...restOfAfter } = after;
      const { backup_run: runsBefore, ...restOfBefore } = before;
      expect(Object.keys(restOfBefore).length).toBeGreaterThan(60);
      expect(restOfAfter).toEqual(restOfBefore);
      expect(runsBefore.startsWith('0:')).toBe(true);
      const inBackup = await rows<{ bckp_run_result: string }>(restoredDb, sql`SELECT bckp_run_result FROM backup_run`);
      expect(inBackup).toEqual([{ bckp_run_result: 'running' }]);
      expect(runsAfter.startsWith('1:')).toBe(true);
    } finally {
      await closeRestored();
    }
    expect(readFileSync(join(restoredUploads, 'ab', 'report-card.pdf'), 'utf8')).toBe('%PDF-1.4 a pupil report card\n');
    console.log(`[measure] ${backend}: demo backup ${backupMs} ms (${run.bckp_run_size} bytes, job ${run.bckp_run_ms} ms), restore ${restoreMs} ms`);
  }, 180_000);

  it("'Back up now' queues one run per row at a time, lists it with size, checksum and result, prunes past BACKUP_KEEP", async () => {
    const first = await rows<{ bckp_run_file: string }>(srv.database.db, sql`SELECT bckp_run_file FROM backup_run WHERE bckp_cd = ${dailyCd} AND bckp_run_result = 'ok'`);
    expect(existsSync(join(root, first[0].bckp_run_file))).toBe(true);

    const now = await call(srv.app, admin, 'POST', '/api/backup/run/', { bckp_cd: dailyCd });
    expect(now.statusCode, now.body).toBe(202);
    const again = await call(srv.app, admin, 'POST', '/api/backup/run/', { bckp_cd: dailyCd });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe("A backup of 'daily' is already waiting or running.");
    const gone = await call(srv.app, admin, 'POST', '/api/backup/run/', { bckp_cd: 999_999 });
    expect(gone.statusCode).toBe(404);

    const listed = await until(async () => {
      const res = await call(srv.app, admin, 'GET', `/api/backup/runs/?bckp_cd=${dailyCd}`);
      const body = res.json<{ rows: BackupRunRow[] }>();
      // The run records its result, then prunes past BACKUP_KEEP: wait for both.
      return body.rows.length === 2 && body.rows[0].bckp_run_result !== 'running' && body.rows[1].bckp_run_pruned_at !== null ? body.rows : null;
    });
    expect(listed[0]).toMatchObject({ bckp_run_result: 'ok', bckp_run_trigger: 'manual', bckp_run_error: null });
    expect(Number(listed[0].bckp_run_size)).toBeGreaterThan(1000);
    expect(listed[0].bckp_run_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(Number(listed[0].bckp_run_ms)).toBeGreaterThan(0);
    // BACKUP_KEEP=1: the older run's file is deleted, its row says so.
    expect(listed[1].bckp_run_pruned_at).not.toBeNull();
    expect(existsSync(join(root, first[0].bckp_run_file))).toBe(false);
    expect(existsSync(join(root, listed[0].bckp_run_file!))).toBe(true);

    // The jobs page lists the runs (administrators only).
    // The run's own row says ok before the queue marks its job completed (run() returns first): wait for both.
    const body = await until(async () => {
      const jobs = await call(srv.app, admin, 'GET', `/api/job/?name=${BACKUP_JOB}`);
      expect(jobs.statusCode, jobs.body).toBe(200);
      const b = jobs.json<{ rows: { state: string; name: string; label: string }[]; total: number }>();
      return b.rows.every((r) => r.state === 'completed') ? b : null;
    }, 30_000);
    expect(body.total).toBe(2);
    expect(body.rows.every((r) => r.label === 'Backup')).toBe(true);
    const runNow = await call(srv.app, admin, 'POST', '/api/job/run/', { name: BACKUP_JOB });
    expect(runNow.statusCode).toBe(400);
  }, 180_000);

  it('the jobs page is for administrators only', async () => {
    const teacher = srv.demo!.accounts.find((a) => a.login === 'TEACHER')!;
    const t = await login(srv.app, teacher.login, teacher.password);
    const res = await call(srv.app, t, 'GET', '/api/job/');
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Only an administrator may see and run the background jobs.');
    const run = await call(srv.app, t, 'POST', '/api/job/run/', { name: 'statistics-refresh' });
    expect(run.statusCode).toBe(403);
  });
});
