/**
 * The background jobs page's answer (GET /api/job/): not an entity (the runs live in the queue's own tables,
 * pg-boss), but the same shape on the server and the web.
 */
export const JOB_STATES = ['created', 'retry', 'active', 'completed', 'cancelled', 'failed'] as const;
export type JobState = (typeof JOB_STATES)[number];

/** One run as the jobs page lists it. */
export interface JobRun {
  id: string;
  name: string;
  label: string;
  state: JobState;
  /** Tries made after the first (pg-boss's retry_count). */
  retry_count: number;
  retry_limit: number;
  singleton_key: string | null;
  created_on: string;
  started_on: string | null;
  completed_on: string | null;
  /** The last failure's message, while the run is failed or waiting to retry. */
  last_error: string | null;
}
