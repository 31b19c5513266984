import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { mustCtx } from '../../access/request-context';
import type { Config } from '../../config';
import { rows, sql, type Db } from '../../db/client';
import { badRequest, conflict, notFound } from '../../lib/http-error';
import { registerBackupHooks } from './backup.hooks';
import { BACKUP_JOB } from './backup.jobs';
import { syncBackupSchedules } from './backup.schedule';
import { backupRuns } from './backup.service';

const backupPage = [{ module: 'master' as const, page: 'backup' }];
const tags = ['Backup'];
const runBody = z.object({ bckp_cd: z.coerce.number().int().positive() });

/**
 * The backup page's runs and its 'Back up now'. The rows themselves are the entity's generic routes; after
 * any successful write to them the schedules are made to match (syncBackupSchedules).
 */
export function registerBackupRoutes(app: FastifyInstance, db: Db, cfg: Config): void {
  registerBackupHooks(cfg.backupRoot);

  app.get(
    '/api/backup/runs/',
    { config: { access: { kind: 'page', pages: backupPage } }, schema: { tags, summary: 'Backup runs, newest first (one row: ?bckp_cd=)' } },
    async (req) => {
      const q = req.query as { bckp_cd?: string; size?: string };
      const code = q.bckp_cd === undefined || q.bckp_cd === '' ? null : Number(q.bckp_cd);
      if (code !== null && !(Number.isInteger(code) && code > 0)) throw badRequest('bckp_cd must be a backup code.');
      const size = Math.min(Math.max(Number(q.size ?? 50) || 50, 1), 500);
      return { rows: await backupRuns(db, code, size), keep: cfg.backupKeep, root: cfg.backupRoot };
    },
  );

  app.post(
    '/api/backup/run/',
    { config: { access: { kind: 'page', pages: backupPage, button: 'create' } }, schema: { tags, summary: 'Back up now (one run at a time per backup row)' } },
    async (req, reply) => {
      mustCtx(req);
      const parsed = runBody.safeParse(req.body ?? {});
      if (!parsed.success) throw badRequest('Choose the backup to run (bckp_cd).');
      const { bckp_cd } = parsed.data;
      const [row] = await rows<{ bckp_fldr_nm: string }>(db, sql`SELECT bckp_fldr_nm FROM backup WHERE bckp_cd = ${bckp_cd}`);
      if (!row) throw notFound('This backup is no longer there.');
      const jobId = await app.jobs.send(BACKUP_JOB, { bckp_cd, trigger: 'manual' }, { singletonKey: String(bckp_cd) });
      if (!jobId) throw conflict(`A backup of '${row.bckp_fldr_nm}' is already waiting or running.`);
      return reply.code(202).send({ queued: true, jobId });
    },
  );

  app.addHook('onResponse', async (req, reply) => {
    const url = req.routeOptions.url ?? '';
    if (req.method === 'GET' || reply.statusCode >= 300 || !url.startsWith('/api/backup/') || url === '/api/backup/run/') return;
    syncBackupSchedules(app.jobs, db, req.log).catch((err: unknown) => req.log.error({ err }, 'backup schedules not updated'));
  });
}
