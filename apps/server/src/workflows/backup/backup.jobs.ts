import type { JobDefinition } from '../../jobs/job-definition';
import { runBackup } from './backup.service';

export const BACKUP_JOB = 'backup-run';

export interface BackupJobData {
  bckp_cd: number;
  /** 'schedule' (the row's cron) or 'manual' (Back up now). */
  trigger?: string;
}

/** Database + uploads of the backup row bckp_cd; one at a time per row (singletonKey = bckp_cd). */
export const backupRunJob: JobDefinition<BackupJobData> = {
  name: BACKUP_JOB,
  label: 'Backup',
  retryLimit: 2,
  retryDelaySeconds: 60,
  retryBackoff: true,
  expireInSeconds: 3 * 60 * 60,
  oneAtATimePerKey: true,
  // It needs a backup row: 'Back up now' on the backup page.
  runNow: false,
  startedFrom: 'Back up now on the Backup page',
  async run(data, ctx) {
    const bckpCd = Number(data.bckp_cd);
    if (!Number.isInteger(bckpCd)) throw new Error('A backup job needs the backup row (bckp_cd).');
    if (!ctx.database) throw new Error('A backup job runs on the job queue, which gives it the database.');
    const run = await runBackup(ctx.database, ctx.cfg, bckpCd, data.trigger ?? 'schedule', ctx.jobId);
    return { bckp_run_cd: run.bckp_run_cd, size: run.bckp_run_size, file: run.bckp_run_file };
  },
};

export const backupJobs: readonly JobDefinition[] = [backupRunJob];
