import type { FastifyInstance } from 'fastify';
import { BULK_READ_METHOD, liftReadBlock, readBudgetFor } from '../../access/read-budget';
import { mustCtx, type RequestContext } from '../../access/request-context';
import { rows, sql, type Db } from '../../db/client';
import { badRequest, forbidden, notFound } from '../../lib/http-error';

/** One bulk-read alarm as the dashboard's Security events card lists it. */
export interface SecurityEvent {
  actn_hsty_cd: number;
  usr_cd: number;
  usr_nm: string | null;
  usr_full_nm: string | null;
  /** Local date and time of the crossing (action history's own columns). */
  at: string;
  rows: number;
  budget: number;
  entity: string | null;
  /** The user is still blocked: the card offers Lift. */
  blocked: boolean;
}

/**
 * The security events of the request's institute (the bulk-read alarms of access/read-budget.ts, kept in
 * action history as BULK_READ rows) for administrators' dashboards: the 10 latest of the last 30 days.
 * Nobody else gets the key: a user's reading habits are not for every colleague.
 */
export async function securityEvents(db: Db, ctx: RequestContext): Promise<SecurityEvent[]> {
  return rows<SecurityEvent>(
    db,
    sql`SELECT h.actn_hsty_cd, u.usr_cd, u.usr_nm, u.usr_full_nm,
               (h.actn_hsty_dt::text || ' ' || to_char(h.actn_hsty_tm, 'HH24:MI')) AS at,
               coalesce((h.actn_hsty_after ->> 'rows')::int, 0) AS rows,
               coalesce((h.actn_hsty_after ->> 'budget')::int, 0) AS budget,
               h.actn_hsty_after ->> 'entity' AS entity,
               coalesce(b.rdb_blocked_at IS NOT NULL, false) AS blocked
        FROM action_history h
        JOIN employee u ON u.usr_cd::text = h.actn_hsty_row_key
        LEFT JOIN read_budget b ON b.usr_cd = u.usr_cd
        WHERE h.inst_cd = ${ctx.instCd} AND h.actn_hsty_mthd = ${BULK_READ_METHOD} AND h.actn_hsty_entity = 'employee'
          AND h.actn_hsty_dt >= current_date - 30
        ORDER BY h.actn_hsty_cd DESC LIMIT 10`,
  );
}

/** POST /api/read_budget/{usr_cd}/lift: an administrator lets a blocked user read in bulk again. */
export function registerSecurityEventRoutes(app: FastifyInstance, db: Db): void {
  // The alarm's bell notifications reach the administrators' open pages through this app's socket rooms.
  readBudgetFor(db).tellAdminsThrough(app.realtimeEvents);
  app.post(
    '/api/read_budget/:usr_cd/lift',
    { config: { access: { kind: 'signed-in' } }, schema: { tags: ['Dashboard'], summary: 'Lift a bulk-read block' } },
    async (req) => {
      const ctx = mustCtx(req);
      if (!ctx.user.is_admin) throw forbidden('Only an administrator can lift a bulk-read block.');
      const raw = (req.params as { usr_cd: string }).usr_cd;
      if (!/^\d{1,9}$/.test(raw) || Number(raw) <= 0) throw badRequest('The user code must be a number.');
      const usr = Number(raw);
      // A stolen administrator's account is the case the alarm is for: it must not be able to clear itself.
      if (usr === ctx.user.usr_cd) throw forbidden('Another administrator must lift a block on your own reads.');
      // The administrators' alarm notifications stay as they are: the history of what happened, read or not.
      if (!(await liftReadBlock(db, ctx, usr))) throw notFound('This user is not blocked: the block was lifted already.');
      readBudgetFor(db).forget(usr);
      return { ok: true };
    },
  );
}
