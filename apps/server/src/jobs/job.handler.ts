import type { FastifyInstance, FastifyRequest } from 'fastify';
import { JOB_STATES, type JobState } from '@campus/entities/master/background-job';
import { z } from 'zod';
import { mustCtx } from '../access/request-context';
import { badRequest, forbidden } from '../lib/http-error';

const tags = ['Jobs'];
const STATES: readonly JobState[] = JOB_STATES;
const listQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  size: z.coerce.number().int().min(1).max(200).default(50),
  name: z.string().max(60).optional(),
  state: z.enum(STATES as [JobState, ...JobState[]]).optional(),
});
const runBody = z.object({ name: z.string().min(1).max(60) });

/** The jobs page is for administrators (role name with ADMIN or HEAD, spec section 6), whatever a permission row says. */
function adminOnly(req: FastifyRequest): void {
  if (!mustCtx(req).user.is_admin) throw forbidden('Only an administrator may see and run the background jobs.');
}

/**
 * GET /api/job/: the queue's runs, newest first (kind, state, tries, times, last error) and the kinds of job;
 * POST /api/job/run/ {name}: run a job now. Both for administrators only.
 */
export function registerJobRoutes(app: FastifyInstance): void {
  app.get('/api/job/', { config: { access: { kind: 'signed-in' } }, schema: { tags, summary: 'Background job runs (administrators)' } }, async (req) => {
    adminOnly(req);
    const q = listQuery.safeParse(req.query ?? {});
    if (!q.success) throw badRequest('The page, size, job name or state is not valid.');
    const defs = app.jobs.definitions();
    if (q.data.name && !defs.some((d) => d.name === q.data.name)) throw badRequest(`There is no job named '${q.data.name}'.`);
    const { rows, total } = await app.jobs.list(q.data);
    return {
      rows,
      total,
      page: q.data.page,
      size: q.data.size,
      jobs: defs.map((d) => ({ name: d.name, label: d.label, cron: d.cron ?? null, runNow: d.runNow !== false })),
      workers: app.jobs.started,
    };
  });

  app.post('/api/job/run/', { config: { access: { kind: 'signed-in' } }, schema: { tags, summary: 'Run a background job now (administrators)' } }, async (req, reply) => {
    adminOnly(req);
    const body = runBody.safeParse(req.body ?? {});
    if (!body.success) throw badRequest('Choose the job to run (name).');
    const def = app.jobs.definitions().find((d) => d.name === body.data.name);
    if (!def) throw badRequest(`There is no job named '${body.data.name}'.`);
    if (def.runNow === false) {
      throw badRequest(`'${def.label}' cannot be run from here: it works on a record chosen on its own page${def.startedFrom ? ` (${def.startedFrom})` : ''}.`);
    }
    const jobId = await app.jobs.send(def.name, {});
    return reply.code(202).send({ queued: true, jobId });
  });
}
