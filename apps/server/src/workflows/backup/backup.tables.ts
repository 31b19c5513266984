import { bigint, index, integer, pgTable, timestamp, varchar } from 'drizzle-orm/pg-core';

/**
 * One run of a backup row (scheduled or 'Back up now'): what was written, how big, how long, its SHA-256,
 * and whether it worked. Kept after the backup row is deleted (no foreign key): the files stay too until
 * removed by hand. bckp_run_pruned_at: the file was deleted by the retention setting.
 */
export const backupRun = pgTable(
  'backup_run',
  {
    bckp_run_cd: integer('bckp_run_cd').primaryKey().generatedByDefaultAsIdentity(),
    bckp_cd: integer('bckp_cd').notNull(),
    bckp_run_job_id: varchar('bckp_run_job_id', { length: 40 }),
    bckp_run_trigger: varchar('bckp_run_trigger', { length: 20 }).notNull(),
    bckp_run_started_at: timestamp('bckp_run_started_at', { withTimezone: true }).notNull().defaultNow(),
    bckp_run_finished_at: timestamp('bckp_run_finished_at', { withTimezone: true }),
    bckp_run_ms: integer('bckp_run_ms'),
    bckp_run_size: bigint('bckp_run_size', { mode: 'number' }),
    bckp_run_sha256: varchar('bckp_run_sha256', { length: 64 }),
    /** running, ok, failed */
    bckp_run_result: varchar('bckp_run_result', { length: 10 }).notNull(),
    bckp_run_error: varchar('bckp_run_error', { length: 1000 }),
    /** The file, relative to BACKUP_ROOT. */
    bckp_run_file: varchar('bckp_run_file', { length: 400 }),
    bckp_run_pruned_at: timestamp('bckp_run_pruned_at', { withTimezone: true }),
  },
  (t) => [index('backup_run_bckp_idx').on(t.bckp_cd, t.bckp_run_started_at)],
);

export const backupTables = { backupRun };
