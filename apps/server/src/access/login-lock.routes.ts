import { apiUrl } from '@campus/entities/define';
import { entity } from '@campus/entities/registry';
import type { FastifyInstance } from 'fastify';
import { rows, sql, type Db } from '../db/client';
import { writeAudit } from '../engine/audit';
import type { Row } from '../engine/entity-hooks';
import { badRequest, notFound } from '../lib/http-error';
import { mustCtx } from './request-context';

const lockEntity = entity('login_lock');
const liftButton = lockEntity.workflowButtons!.find((b) => b.path === 'lift')!;

/**
 * Sign-in Locks > Lift: deletes one sign-in counter, so its login id, address or device tries again at once
 * with its full count of free failures. The list itself is the view entity's generic list route. The button's
 * name holds 'login', so only administrators are ever granted it (spec section 6); the lift is recorded in
 * action history with the counter as it was.
 */
export function registerLoginLockRoutes(app: FastifyInstance, db: Db): void {
  app.post(
    apiUrl(lockEntity, `:atmpt_cd/${liftButton.path}`),
    {
      config: { access: { kind: 'page', pages: [{ module: 'history', page: 'login_lock' }], button: liftButton.button } },
      schema: { tags: ['Auth'], summary: 'Lift a sign-in wait (delete its failure counter)' },
    },
    async (req) => {
      const ctx = mustCtx(req);
      const raw = (req.params as { atmpt_cd: string }).atmpt_cd;
      const id = Number(raw);
      if (!/^\d{1,9}$/.test(raw) || id <= 0) throw badRequest('The sign-in lock code must be a number.');
      return db.transaction(async (tx) => {
        const [gone] = await rows<Row>(
          tx,
          sql`DELETE FROM login_attempt WHERE atmpt_cd = ${id}
              RETURNING atmpt_cd, atmpt_kind, atmpt_usr_nm, atmpt_ip, atmpt_fail_cnt, atmpt_first_at, atmpt_last_at, atmpt_next_at`,
        );
        if (!gone) throw notFound('This sign-in lock is no longer there: it was lifted or has expired.');
        await writeAudit(tx, ctx, lockEntity, 'DELETE', id, gone, null);
        return { ok: true, lifted: gone };
      });
    },
  );
}
