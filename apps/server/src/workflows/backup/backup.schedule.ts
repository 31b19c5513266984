import type { FastifyBaseLogger } from 'fastify';
import { sql, type Db } from '../../db/client';
import type { JobQueueService } from '../../jobs/job-queue';
import { BACKUP_JOB } from './backup.jobs';
import { backupRows } from './backup.service';
import { backupTiming } from './backup-timing';

/**
 * The backup rows' schedules, made to match the rows: one keyed schedule per row (key = bckp_cd), removed
 * for rows that are gone. Run at start and after every write to the backup page; idempotent, so any process
 * may run it at any time.
 */
export async function syncBackupSchedules(jobs: JobQueueService, db: Db, log: FastifyBaseLogger): Promise<void> {
  // A run left 'running' past the job's expiry (3 h) died with its process (or came back in a restored
  // database): say so rather than show it running for ever.
  await db.execute(sql`UPDATE backup_run SET bckp_run_result = 'failed', bckp_run_error = 'Interrupted: the server stopped while this backup ran.'
                       WHERE bckp_run_result = 'running' AND bckp_run_started_at < now() - interval '190 minutes'`);
  const found = await backupRows(db);
  const keep = new Set<string>();
  for (const r of found) {
    const t = backupTiming(r.bckp_typ, r.bckp_typ_vl);
    if ('refusal' in t) {
      // A row saved before the check: not scheduled until corrected (the page's save would refuse it now).
      log.warn({ bckp_cd: r.bckp_cd, refusal: t.refusal }, 'backup row not scheduled');
      continue;
    }
    keep.add(String(r.bckp_cd));
    await jobs.schedule(BACKUP_JOB, t.cron, { bckp_cd: r.bckp_cd, trigger: 'schedule' }, String(r.bckp_cd));
  }
  for (const key of await jobs.scheduleKeys(BACKUP_JOB)) {
    if (!keep.has(key)) await jobs.unschedule(BACKUP_JOB, key);
  }
}
