import type { PGlite } from '@electric-sql/pglite';
import type { JobRun, JobState } from '@campus/entities/master/background-job';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import PgBoss from 'pg-boss';
import type { Config } from '../config';
import { rows, sql, type Database } from '../db/client';
import { statisticsJob } from '../db/statistics';
import type { RealtimeEvents } from '../realtime-events';
import { jobCatalog } from './job-catalog';
import type { JobDefinition, JobQueue, SendOptions } from './job-definition';

/** pg-boss keeps its tables in a schema of its own, in the product's database (PostgreSQL or PGlite). */
export const JOB_SCHEMA = 'pgboss';

/** A keyed schedule (one per backup row) is a pg-boss schedule of its own name; its jobs go to the job's queue. */
const SCHEDULE_KEY_SEPARATOR = '__';
export const scheduleName = (name: string, key?: string): string => (key === undefined ? name : `${name}${SCHEDULE_KEY_SEPARATOR}${key}`);

/** How often the queue looks: the defaults suit a school; tests shorten them. */
export interface QueueTiming {
  /** How often each worker asks for its next job (pg-boss default 2 s). */
  pollingIntervalSeconds?: number;
  /** How often a process checks the schedules (pg-boss default 30 s; a cron tick is a minute). */
  cronMonitorIntervalSeconds?: number;
  /** How often the scheduled sends are turned into jobs (pg-boss default 5 s). */
  cronWorkerIntervalSeconds?: number;
}

export interface JobQueueOptions {
  database: Database;
  cfg: Config;
  log: FastifyBaseLogger;
  events: RealtimeEvents;
  /** The kinds of job this process runs; the catalog (plus the PGlite statistics refresh) by default. */
  definitions?: readonly JobDefinition[];
  timing?: QueueTiming;
}


export interface JobListQuery {
  page: number;
  size: number;
  name?: string;
  state?: JobState;
}

export interface JobQueueService extends JobQueue {
  /** Starts this process's workers and the schedules (main.ts after listen; tests that need them). */
  start(): Promise<void>;
  /** Stops taking jobs, lets active ones finish (up to timeoutMs), then fails what is left so it is retried. */
  stop(timeoutMs?: number): Promise<void>;
  readonly started: boolean;
  definitions(): readonly JobDefinition[];
  list(q: JobListQuery): Promise<{ rows: JobRun[]; total: number }>;
  /** The keys of a job's keyed schedules. */
  scheduleKeys(name: string): Promise<string[]>;
  /** The queue's own id of a run, when it is still kept (14 days). */
  find(id: string): Promise<JobRun | null>;
}

const serverTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/**
 * pg-boss's `db` option: its statements run on the product's own PGlite instance. Parameterised statements
 * go through query(); pg-boss's multi-statement texts (schema creation, its locked maintenance blocks, all
 * without parameters) through exec(), answering with the last statement's rows.
 */
function pgliteExecutor(client: PGlite): { executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> } {
  return {
    async executeSql(text, values) {
      if (values && values.length > 0) {
        const r = await client.query(text, values.map((v) => (v === undefined ? null : v)));
        return { rows: r.rows };
      }
      const results = await client.exec(text);
      return { rows: results.at(-1)?.rows ?? [] };
    },
  };
}

/** The PGlite instance behind a drizzle handle (drizzle keeps it as $client). */
export const pgliteOf = (database: Database): PGlite => (database.db as unknown as { $client: PGlite }).$client;

export function createJobQueue(opts: JobQueueOptions): JobQueueService {
  const { database, cfg, events } = opts;
  const log = opts.log.child({ module: 'jobs' });
  const defs: readonly JobDefinition[] = opts.definitions ?? [...jobCatalog, ...(database.kind === 'pglite' ? [statisticsJob] : [])];
  const byName = new Map(defs.map((d) => [d.name, d]));
  const timing = opts.timing ?? {};
  const tz = serverTimeZone();

  let boss: PgBoss | null = null;
  let full = false;
  let opening: Promise<PgBoss> | null = null;
  /** After stop(): a late send (a request finishing during shutdown) must not open a new pool. */
  let stopped = false;

  const bossOptions = (withWorkers: boolean): PgBoss.ConstructorOptions => ({
    schema: JOB_SCHEMA,
    ...(database.kind === 'pglite'
      ? { db: pgliteExecutor(pgliteOf(database)) as PgBoss.Db }
      : { connectionString: cfg.databaseUrl, max: 4, application_name: 'campus-jobs' }),
    // A process that only sends (before start(), or an API test) neither archives nor looks at the schedules.
    supervise: withWorkers,
    schedule: withWorkers,
    ...(withWorkers && timing.cronMonitorIntervalSeconds ? { cronMonitorIntervalSeconds: timing.cronMonitorIntervalSeconds } : {}),
    ...(withWorkers && timing.cronWorkerIntervalSeconds ? { cronWorkerIntervalSeconds: timing.cronWorkerIntervalSeconds } : {}),
  });

  /**
   * pg-boss creates a queue as a partition of its job table; two processes creating queues at once (both
   * starting together) deadlock on the attach. On PostgreSQL they take turns under an advisory lock held on a
   * connection of its own; PGlite is one process.
   */
  async function withQueueLock<T>(fn: () => Promise<T>): Promise<T> {
    if (database.kind !== 'postgres') return fn();
    const c = new pg.Client({ connectionString: cfg.databaseUrl, application_name: 'campus-jobs' });
    // A dropped connection fails the awaited query; the event itself must not end the process.
    c.on('error', () => undefined);
    await c.connect();
    try {
      await c.query('SELECT pg_advisory_lock(hashtext($1))', ['campus-job-queues']);
      return await fn();
    } finally {
      await c.end();
    }
  }

  async function createEachQueue(b: PgBoss): Promise<void> {
    for (const d of defs) {
      const options = {
        name: d.name,
        policy: d.oneAtATimePerKey ? ('stately' as const) : ('standard' as const),
        retryLimit: d.retryLimit ?? 2,
        retryDelay: d.retryDelaySeconds ?? 30,
        retryBackoff: d.retryBackoff ?? true,
        ...(d.expireInSeconds ? { expireInSeconds: d.expireInSeconds } : {}),
      };
      await b.createQueue(d.name, options);
      // createQueue keeps an existing queue as it was: a changed definition is applied here.
      await b.updateQueue(d.name, options);
    }
  }

  async function open(withWorkers: boolean): Promise<PgBoss> {
    const b = new PgBoss(bossOptions(withWorkers));
    b.on('error', (err: unknown) => log.error({ err }, 'job queue error'));
    // Processes starting together take turns: pg-boss's schema creation and the queues' partitions.
    await withQueueLock(async () => {
      await b.start();
      await createEachQueue(b);
    });
    return b;
  }

  /** The queue for sending: the started one, or a send-only one opened on first use. */
  function ready(): Promise<PgBoss> {
    if (boss) return Promise.resolve(boss);
    if (stopped) return Promise.reject(new Error('The job queue is stopped.'));
    opening ??= open(false).then((b) => {
      boss = b;
      return b;
    });
    return opening;
  }

  async function work(b: PgBoss, d: JobDefinition): Promise<void> {
    // includeMetadata: the run learns its try (retryCount / retryLimit) to tell its last failure to the asker.
    await b.work<object>(d.name, { batchSize: 1, pollingIntervalSeconds: timing.pollingIntervalSeconds ?? 2, includeMetadata: true }, async ([job]) => {
      const jobLog = log.child({ job: d.name, jobId: job.id });
      const started = Date.now();
      try {
        const out = await d.run(job.data ?? {}, { db: database.db, database, cfg, log: jobLog, events, queue: service, jobId: job.id, retryCount: job.retryCount, retryLimit: job.retryLimit });
        jobLog.info({ ms: Date.now() - started }, 'job done');
        return out;
      } catch (err) {
        jobLog.warn({ err, ms: Date.now() - started }, 'job failed');
        throw err;
      }
    });
  }

  const service: JobQueueService = {
    get started() {
      return full;
    },
    definitions: () => defs,

    async send(name: string, data: object, options: SendOptions = {}): Promise<string | null> {
      if (!byName.has(name)) throw new Error(`No job named ${name}`);
      const b = await ready();
      if (options.singletonKey !== undefined) {
        // 'At most one waiting or running': the stately policy alone would still queue one behind an active run.
        const busy = await rows<{ n: number }>(
          database.db,
          sql`SELECT count(*)::int AS n FROM pgboss.job WHERE name = ${name} AND singleton_key = ${options.singletonKey} AND state < 'completed'`,
        );
        if (busy[0].n > 0) return null;
      }
      return b.send(name, data, {
        ...(options.singletonKey !== undefined ? { singletonKey: options.singletonKey } : {}),
        ...(options.startAfterSeconds ? { startAfter: options.startAfterSeconds } : {}),
      });
    },

    async schedule(name: string, cron: string, data: object, key?: string): Promise<void> {
      if (!byName.has(name)) throw new Error(`No job named ${name}`);
      const b = await ready();
      if (key === undefined) {
        await b.schedule(name, cron, data, { tz });
        return;
      }
      // pg-boss 10 holds one schedule per queue name: a keyed schedule gets a (never worked) queue of its own
      // name, and its options name the job's queue, which pg-boss's scheduler sends to (the options are
      // spread over the schedule's name when the tick's job is inserted). singletonKey = key: a scheduled run
      // never overlaps a 'Back up now' of the same row.
      const own = scheduleName(name, key);
      await withQueueLock(() => b.createQueue(own));
      await b.schedule(own, cron, data, { tz, name, singletonKey: key } as PgBoss.ScheduleOptions);
    },

    async unschedule(name: string, key?: string): Promise<void> {
      const b = await ready();
      const own = scheduleName(name, key);
      await b.unschedule(own);
      if (key !== undefined) await withQueueLock(() => b.deleteQueue(own));
    },

    async scheduleKeys(name: string): Promise<string[]> {
      const b = await ready();
      const prefix = scheduleName(name, '');
      const all = (await b.getSchedules()) as { name: string }[];
      return all.filter((x) => x.name.startsWith(prefix)).map((x) => x.name.slice(prefix.length));
    },

    async start(): Promise<void> {
      if (full) return;
      stopped = false;
      if (opening) {
        const sendOnly = await opening;
        await sendOnly.stop({ graceful: false, close: true, wait: true });
        boss = null;
        opening = null;
      }
      const b = await open(true);
      boss = b;
      opening = Promise.resolve(b);
      full = true;
      for (const d of defs) {
        await work(b, d);
        if (d.cron) await b.schedule(d.name, d.cron, {}, { tz });
        else await b.unschedule(d.name);
      }
      // Every 15 minutes is the cron's; the first refresh comes soon after start, as before the queue.
      if (byName.has(statisticsJob.name)) await service.send(statisticsJob.name, {}, { startAfterSeconds: 5 });
      log.info({ jobs: defs.map((d) => d.name) }, 'job queue started');
    },

    async stop(timeoutMs = 15_000): Promise<void> {
      stopped = true;
      const b = boss ?? (opening ? await opening.catch(() => null) : null);
      boss = null;
      opening = null;
      full = false;
      if (!b) return;
      await new Promise<void>((resolve) => {
        b.once('stopped', () => resolve());
        b.stop({ graceful: true, timeout: timeoutMs, close: true, wait: false }).catch((err: unknown) => {
          log.error({ err }, 'job queue stop failed');
          resolve();
        });
      });
    },

    async list(q: JobListQuery): Promise<{ rows: JobRun[]; total: number }> {
      await ready();
      const names = q.name ? [q.name] : defs.map((d) => d.name);
      const where = sql`name IN (${sql.join(names.map((n) => sql`${n}`), sql`, `)})${q.state ? sql` AND state = ${q.state}` : sql``}`;
      const all = sql`(SELECT id, name, state::text AS state, retry_count, retry_limit, singleton_key, created_on, started_on, completed_on, output
                       FROM pgboss.job WHERE ${where}
                       UNION ALL
                       SELECT id, name, state::text, retry_count, retry_limit, singleton_key, created_on, started_on, completed_on, output
                       FROM pgboss.archive WHERE ${where})`;
      const [count] = await rows<{ n: number }>(database.db, sql`SELECT count(*)::int AS n FROM ${all} r`);
      const found = await rows<RawRun>(
        database.db,
        sql`SELECT * FROM ${all} r ORDER BY created_on DESC, id LIMIT ${q.size} OFFSET ${(q.page - 1) * q.size}`,
      );
      return { rows: found.map(toRun), total: count.n };
    },

    async find(id: string): Promise<JobRun | null> {
      if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
      await ready();
      const found = await rows<RawRun>(
        database.db,
        sql`SELECT id, name, state::text AS state, retry_count, retry_limit, singleton_key, created_on, started_on, completed_on, output FROM pgboss.job WHERE id = ${id}
            UNION ALL
            SELECT id, name, state::text, retry_count, retry_limit, singleton_key, created_on, started_on, completed_on, output FROM pgboss.archive WHERE id = ${id}`,
      );
      return found[0] ? toRun(found[0]) : null;
    },
  };

  interface RawRun {
    id: string;
    name: string;
    state: JobState;
    retry_count: number;
    retry_limit: number;
    singleton_key: string | null;
    created_on: Date | string;
    started_on: Date | string | null;
    completed_on: Date | string | null;
    output: unknown;
  }
  const iso = (v: Date | string | null): string | null => (v === null ? null : new Date(v).toISOString());
  const errorOf = (r: RawRun): string | null => {
    if (r.state !== 'failed' && r.state !== 'retry') return null;
    const out = r.output as { message?: unknown } | null;
    return out && typeof out.message === 'string' ? out.message : out ? JSON.stringify(out).slice(0, 500) : null;
  };
  const toRun = (r: RawRun): JobRun => ({
    id: r.id,
    name: r.name,
    label: byName.get(r.name)?.label ?? r.name,
    state: r.state,
    retry_count: Number(r.retry_count),
    retry_limit: Number(r.retry_limit),
    singleton_key: r.singleton_key,
    created_on: iso(r.created_on)!,
    started_on: iso(r.started_on),
    completed_on: iso(r.completed_on),
    last_error: errorOf(r),
  });

  return service;
}
