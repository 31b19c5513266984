import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { Database, Db } from '../db/client';
import type { RealtimeEvents } from '../realtime-events';
import type { JobQueueService } from './job-queue';

/** What a job's run() gets: the same database, settings and event hub as a request handler. */
export interface JobContext {
  db: Db;
  /** The same database with its kind (a backup dumps PGlite and PostgreSQL differently). */
  database?: Database;
  cfg: Config;
  log: FastifyBaseLogger;
  events: RealtimeEvents;
  queue: JobQueue;
  /** The queue's own id of this run (for a job's own records). */
  jobId: string;
  /**
   * Tries of this run made before this one (pg-boss's retryCount: 0 on the first try) and how many retries it
   * gets (retryLimit). Absent when run() is called outside the queue (then nothing retries it).
   */
  retryCount?: number;
  retryLimit?: number;
}

/**
 * Whether a failure of this try is final (the queue will not try again): a job tells its asker about a failure
 * only then, so a passing outage does not raise an alarm that the next try answers. Outside the queue: final.
 */
export const isLastAttempt = (ctx: Pick<JobContext, 'retryCount' | 'retryLimit'>): boolean =>
  ctx.retryCount === undefined || ctx.retryLimit === undefined || ctx.retryCount >= ctx.retryLimit;

/**
 * One kind of job, declared once: the queue (jobs/) registers a worker for each, the jobs page lists them.
 * run() throws to fail (the queue retries with backoff up to retryLimit, then keeps the last error).
 */
export interface JobDefinition<T extends object = object> {
  /** Queue name, kebab-case: 'backup-run', 'notification-daily'. */
  name: string;
  /** Shown on the jobs page. */
  label: string;
  /** A fixed schedule (5-field cron, server's time zone); schedules that come from rows are set with queue.schedule. */
  cron?: string;
  retryLimit?: number;
  retryDelaySeconds?: number;
  retryBackoff?: boolean;
  /** A run still active after this long is failed (and retried); pg-boss's default is 15 minutes. */
  expireInSeconds?: number;
  /**
   * Runs sharing a singletonKey never overlap: one waits while another is active (pg-boss's 'stately'
   * policy). Only for jobs always sent with a key: without one, every send of the job shares the key ''.
   */
  oneAtATimePerKey?: boolean;
  /** Whether the jobs page's 'Run now' may send it without data (default yes); false for a job that needs a record. */
  runNow?: boolean;
  /** With runNow false: where a user starts it instead, for the jobs page's refusal ("Back up now on the Backup page"). */
  startedFrom?: string;
  run(data: T, ctx: JobContext): Promise<unknown>;
}

export interface SendOptions {
  /** At most one queued or running job with this key (a second 'Back up now' while one runs is not queued). */
  singletonKey?: string;
  startAfterSeconds?: number;
}

export interface JobQueue {
  /** Queues a run; null when a singletonKey run is already waiting or running. */
  send(name: string, data: object, options?: SendOptions): Promise<string | null>;
  /** Runs name on cron (once per tick across every server process); key tells several schedules of one job apart. */
  schedule(name: string, cron: string, data: object, key?: string): Promise<void>;
  unschedule(name: string, key?: string): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** send / schedule for handlers; start / stop / list for main.ts and the jobs page. */
    jobs: JobQueueService;
  }
}
