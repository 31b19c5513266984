import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { badRequest, notFound } from '../lib/http-error';
import { endOwnSession, liveSessionsOf } from './session';
import { mustCtx } from './request-context';

export const SESSION_NOT_FOUND = 'This session was not found or has already ended.';

/**
 * 'Signed-in devices' on My Profile (issue 11): the user's own live sessions and ending one of them. Only
 * the user's own: another user's session answers as a missing one (404), so its number tells nothing.
 */
export function registerSessionRoutes(app: FastifyInstance, db: Db, cfg: Config): void {
  app.get(
    '/api/employee/sessions/',
    { config: { access: { kind: 'signed-in' } }, schema: { tags: ['Auth'], summary: 'One’s own live sessions (the current one marked)' } },
    async (req) => {
      const ctx = mustCtx(req);
      return { rows: await liveSessionsOf(db, cfg, ctx.user.usr_cd, ctx.token) };
    },
  );

  app.delete(
    '/api/employee/sessions/:id',
    { config: { access: { kind: 'signed-in' } }, schema: { tags: ['Auth'], summary: 'End one of one’s own sessions' } },
    async (req) => {
      const ctx = mustCtx(req);
      const raw = (req.params as { id: string }).id;
      if (!/^\d{1,9}$/.test(raw)) throw badRequest('The session id must be a whole number.');
      if (!(await endOwnSession(db, cfg, ctx.user.usr_cd, Number(raw)))) throw notFound(SESSION_NOT_FOUND);
      return { ok: true };
    },
  );
}
