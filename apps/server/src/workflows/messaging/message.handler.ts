import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { mustCtx, type RequestContext } from '../../access/request-context';
import { rows, sql, type Db } from '../../db/client';
import { badRequest, HttpError } from '../../lib/http-error';
import { usersOnline } from '../../realtime';

export const MESSAGE_MAX = 500;
/** Messages one user may send in a minute: a colleague's screen is not a place for a flood of toasts. */
export const MESSAGES_PER_MINUTE = 20;

const sendSchema = z.object({
  to: z.coerce.number({ error: 'Choose the colleague to send the message to.' }).int().positive('Choose the colleague to send the message to.'),
  message: z
    .string({ error: 'Type the message.' })
    .trim()
    .min(1, 'Type the message.')
    .max(MESSAGE_MAX, `The message can have at most ${MESSAGE_MAX} characters.`),
});

export interface Colleague {
  usr_cd: number;
  usr_full_nm: string;
}

/**
 * Staff of the request's institute (home institute or an active mapping) who can sign in, except the user.
 * Names only: the dialog needs nothing else, and every signed-in user may open it.
 */
const colleaguesSql = (ctx: RequestContext) => sql`
  FROM employee e
  WHERE e.usr_cd <> ${ctx.user.usr_cd} AND e.usr_is_lgn
    AND (e.inst_cd = ${ctx.instCd}
         OR EXISTS (SELECT 1 FROM user_institute m WHERE m.usr_cd = e.usr_cd AND m.inst_cd = ${ctx.instCd} AND m.usr_inst_sts))`;

export async function colleagues(db: Db, ctx: RequestContext, q: string): Promise<Colleague[]> {
  const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return rows<Colleague>(
    db,
    sql`SELECT e.usr_cd, e.usr_full_nm ${colleaguesSql(ctx)} ${q ? sql`AND e.usr_full_nm ILIKE ${like}` : sql``}
        ORDER BY e.usr_full_nm, e.usr_cd LIMIT 50`,
  );
}

/**
 * Direct messages between staff (spec section 7 'messageSent'): stored, then pushed to the addressee's open
 * pages. `delivered` tells the sender whether any page of the addressee was open to receive it now.
 */
export function registerMessageRoutes(app: FastifyInstance, db: Db): void {
  const signedIn = { access: { kind: 'signed-in' as const } };
  const tags = ['Messages'];

  app.get('/api/message/colleagues', { config: signedIn, schema: { tags, summary: 'Colleagues of this institute one may message (names only)' } }, async (req) => {
    const q = String((req.query as { q?: unknown }).q ?? '').trim().slice(0, 60);
    return colleagues(db, mustCtx(req), q);
  });

  app.get('/api/message/', { config: signedIn, schema: { tags, summary: 'My messages: the last 50 received and sent' } }, async (req) => {
    const ctx = mustCtx(req);
    return rows<Record<string, unknown>>(
      db,
      sql`SELECT m.dm_cd, m.dm_from_usr_cd, f.usr_full_nm AS from_nm, m.dm_to_usr_cd, t.usr_full_nm AS to_nm, m.dm_txt, m.dm_sent_at
          FROM direct_message m JOIN employee f ON f.usr_cd = m.dm_from_usr_cd JOIN employee t ON t.usr_cd = m.dm_to_usr_cd
          WHERE m.dm_to_usr_cd = ${ctx.user.usr_cd} OR m.dm_from_usr_cd = ${ctx.user.usr_cd}
          ORDER BY m.dm_sent_at DESC, m.dm_cd DESC LIMIT 50`,
    );
  });

  app.post('/api/message/', { config: signedIn, schema: { tags, summary: 'Send a message to a colleague (pushed as messageSent)' } }, async (req, reply) => {
    const ctx = mustCtx(req);
    const parsed = sendSchema.safeParse(req.body ?? {});
    if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'The message is not valid.');
    const { to, message } = parsed.data;
    if (to === ctx.user.usr_cd) throw badRequest('Choose a colleague: a message to yourself is not sent.');
    const [peer] = await rows<Colleague>(db, sql`SELECT e.usr_cd, e.usr_full_nm ${colleaguesSql(ctx)} AND e.usr_cd = ${to}`);
    if (!peer) throw badRequest('The addressee is not a colleague of this institute.');
    const [recent] = await rows<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM direct_message WHERE dm_from_usr_cd = ${ctx.user.usr_cd} AND dm_sent_at > now() - interval '1 minute'`,
    );
    if (recent.n >= MESSAGES_PER_MINUTE) throw new HttpError(429, 'You have sent many messages in the last minute: please wait a moment before the next one.');
    const [saved] = await rows<{ dm_cd: number; dm_sent_at: string }>(
      db,
      sql`INSERT INTO direct_message (inst_cd, dm_from_usr_cd, dm_to_usr_cd, dm_txt)
          VALUES (${ctx.instCd}, ${ctx.user.usr_cd}, ${to}, ${message}) RETURNING dm_cd, dm_sent_at`,
    );
    const online = await usersOnline(app, [to]).catch(() => new Set<number>());
    app.realtimeEvents.toUsers([to], 'messageSent', {
      dm_cd: saved.dm_cd,
      from: ctx.user.usr_full_nm,
      from_usr_cd: ctx.user.usr_cd,
      to,
      message,
      sent_at: saved.dm_sent_at,
    });
    reply.code(201);
    return { dm_cd: saved.dm_cd, to, to_nm: peer.usr_full_nm, delivered: online.has(to) };
  });
}
