import { bodySchema } from '@campus/entities/define';
import type { UserNotification } from '@campus/entities/features/notification.entity';
import { notificationMapping } from '@campus/entities/features/notification.entity';
import { pagesOfEntity } from '@campus/entities/pages';
import type { FastifyInstance } from 'fastify';
import { institutesOf, loadUser, mustCtx, requireButton } from '../../access/request-context';
import { rows, sql, type Db } from '../../db/client';
import { findQueryEntity, operatorsFor, parseEntityQuery, runEntityQuery, scopeForEntity } from '../../engine/entity-query';
import { registerHooks } from '../../engine/entity-hooks';
import { badRequest, forbidden, notFound } from '../../lib/http-error';
import { PREVIEW_ROWS, ruleDefinition, ruleParts, touchesRule } from './notification-rule.service';

const tags = ['Notification'];
const rulePages = () => ({ access: { kind: 'page' as const, pages: pagesOfEntity('notification') } });

let hooksRegistered = false;

/**
 * Every save of a rule is checked as one definition against the registry (400 naming the part), and stored
 * in its normal form; an update is checked as the merged row, so changing the entity alone cannot leave
 * fields of the old one behind. Deleting a rule removes its mappings and the notifications it stored.
 */
function registerNotificationHooks(): void {
  if (hooksRegistered) return;
  hooksRegistered = true;
  registerHooks('notification', {
    async beforeCreate(_tx, _ctx, values) {
      Object.assign(values, ruleParts(ruleDefinition(values)));
    },
    async beforeUpdate(_tx, _ctx, before, changes) {
      if (!touchesRule(changes)) return;
      const parts = ruleParts(ruleDefinition({ ...before, ...changes }));
      for (const k of Object.keys(parts)) if (k in changes) changes[k] = parts[k];
    },
    async beforeDelete(tx, _ctx, found) {
      const ids = found.map((r) => Number(r.ntf_id));
      await tx.execute(sql`DELETE FROM user_notification WHERE ntf_id IN ${ids}`);
      await tx.execute(sql`DELETE FROM notification_mapping WHERE ntf_id IN ${ids}`);
    },
  });
}

const idParam = (v: unknown, what: string): number => {
  const s = typeof v === 'string' ? v.trim() : '';
  if (!/^\d{1,9}$/.test(s) || Number(s) < 1) throw badRequest(`The ${what} must be a number.`);
  return Number(s);
};


/** How many of a user's stored notifications the bell lists (newest first). */
const BELL_ROWS = 50;

export function registerNotificationRoutes(app: FastifyInstance, db: Db): void {
  registerNotificationHooks();

  // The preview of a definition being edited: the first rows and the count, with the CALLER's scope on the
  // entity (its list page's data_chk), never more than their own list would show.
  app.get('/api/notification/fetchQuery/', { config: rulePages(), schema: { tags, summary: 'Preview a notification query' } }, async (req) => {
    const raw = (req.query as { ntf?: unknown }).ntf;
    if (typeof raw !== 'string' || raw.trim() === '') throw badRequest("'ntf' must be the query definition as JSON.");
    let input: unknown;
    try {
      input = JSON.parse(raw);
    } catch {
      throw badRequest("'ntf' is not valid JSON.");
    }
    // Either a whole definition, or a notification row's parts (ntf_qry, ntf_dt_fltr, ...) as the form holds them.
    const def = input && typeof input === 'object' && 'ntf_qry' in input ? ruleDefinition(input as Record<string, unknown>) : parseEntityQuery(input);
    const scoped = await scopeForEntity(req, db, mustCtx(req), def.entity);
    return runEntityQuery(db, scoped, def, { maxRows: PREVIEW_ROWS });
  });

  // What a rule editor offers: each entity the caller may list, its usable fields and their operators.
  app.get('/api/notification/queryFields/', { config: rulePages(), schema: { tags, summary: 'Entities and fields a rule may use' } }, async (req) => {
    const name = (req.query as { entity?: unknown }).entity;
    if (typeof name !== 'string') throw badRequest("'entity' is required.");
    const e = findQueryEntity(name);
    if (!e) throw badRequest(`'${name}' is not an entity.`);
    return {
      entity: e.name,
      label: e.label,
      fields: Object.entries(e.fields)
        .filter(([, f]) => operatorsFor(f).length > 0)
        .map(([n, f]) => ({ name: n, label: f.label, kind: f.kind, ops: operatorsFor(f), ...(f.kind === 'select' ? { options: f.options } : {}) })),
    };
  });

  app.get('/api/notification/mapping/', { config: rulePages(), schema: { tags, summary: 'Who gets which notification' } }, async (req) => {
    const ctx = mustCtx(req);
    const q = req.query as { ntf_mapp_usr_cd?: unknown; ntf_id?: unknown };
    const usr = q.ntf_mapp_usr_cd !== undefined ? idParam(q.ntf_mapp_usr_cd, 'employee code') : null;
    const ntf = q.ntf_id !== undefined ? idParam(q.ntf_id, 'notification code') : null;
    const list = await rows<Record<string, unknown>>(
      db,
      // usr_has_eml: whether an e-mail could reach them (the address itself is not listed).
      sql`SELECT m.ntf_mapp_cd, m.ntf_id, n.ntf_nm, m.ntf_mapp_usr_cd, e.usr_full_nm, m.ntf_mapp_day, m.ntf_mapp_sts, m.ntf_mapp_odr, m.ntf_mapp_eml,
                 coalesce(trim(e.usr_eml), '') <> '' AS usr_has_eml, m.row_ver
          FROM notification_mapping m JOIN notification n ON n.ntf_id = m.ntf_id JOIN employee e ON e.usr_cd = m.ntf_mapp_usr_cd
          WHERE m.inst_cd = ${ctx.instCd}
            AND (${usr}::int IS NULL OR m.ntf_mapp_usr_cd = ${usr}::int) AND (${ntf}::int IS NULL OR m.ntf_id = ${ntf}::int)
          ORDER BY e.usr_full_nm, m.ntf_mapp_odr NULLS LAST, n.ntf_nm`,
    );
    return { rows: list, total: list.length };
  });

  // One mapping or a list: each (rule, employee) pair is one row, saved again with its new day, state and order.
  const mappingSchema = bodySchema(notificationMapping, 'create');
  app.post('/api/notification/mapping/', { config: rulePages(), schema: { tags, summary: 'Map notifications to employees' } }, async (req) => {
    const ctx = mustCtx(req);
    requireButton(ctx, 'edit');
    const list = Array.isArray(req.body) ? req.body : [req.body];
    if (list.length === 0 || list.length > 500) throw badRequest('Send 1 to 500 mappings.');
    const checked = list.map((b, i) => {
      const p = mappingSchema.safeParse(b ?? {});
      if (!p.success) throw badRequest(`Mapping ${i + 1}: ${p.error.issues[0]?.message ?? 'not valid'}`);
      return p.data as { ntf_id: number; ntf_mapp_usr_cd: number; ntf_mapp_day: string; ntf_mapp_sts?: boolean | null; ntf_mapp_odr?: number | null; ntf_mapp_eml?: boolean | null };
    });
    const ntfIds = [...new Set(checked.map((m) => m.ntf_id))];
    const known = await rows<{ ntf_id: number }>(db, sql`SELECT ntf_id FROM notification WHERE inst_cd = ${ctx.instCd} AND ntf_id IN ${ntfIds}`);
    for (const id of ntfIds) if (!known.some((k) => k.ntf_id === id)) throw badRequest(`Notification ${id} is not one of this institute's.`);
    for (const usrCd of new Set(checked.map((m) => m.ntf_mapp_usr_cd))) {
      const u = await loadUser(db, { usrCd });
      const insts = u ? await institutesOf(db, usrCd, u.inst_cd, false) : [];
      if (!insts.some((i) => i.inst_cd === ctx.instCd)) throw badRequest(`Employee ${usrCd} does not work in this institute.`);
    }
    const saved = await db.transaction(async (tx) => {
      const out: Record<string, unknown>[] = [];
      for (const m of checked) {
        const [r] = await rows<Record<string, unknown>>(
          tx,
          // E-mail left out of a re-save keeps its stored choice (off for a new mapping); it may be saved on
          // without SMTP_URL: the daily run then mails nothing until the server is set up.
          sql`INSERT INTO notification_mapping (ntf_id, ntf_mapp_usr_cd, ntf_mapp_day, ntf_mapp_sts, ntf_mapp_odr, ntf_mapp_eml, inst_cd, crt_by)
              VALUES (${m.ntf_id}, ${m.ntf_mapp_usr_cd}, ${m.ntf_mapp_day}, ${m.ntf_mapp_sts ?? true}, ${m.ntf_mapp_odr ?? null}, ${m.ntf_mapp_eml ?? false}, ${ctx.instCd}, ${ctx.user.usr_cd})
              ON CONFLICT (inst_cd, ntf_id, ntf_mapp_usr_cd) DO UPDATE
                SET ntf_mapp_day = excluded.ntf_mapp_day, ntf_mapp_sts = excluded.ntf_mapp_sts, ntf_mapp_odr = excluded.ntf_mapp_odr,
                    ntf_mapp_eml = coalesce(${m.ntf_mapp_eml ?? null}::boolean, notification_mapping.ntf_mapp_eml),
                    row_ver = notification_mapping.row_ver + 1, updt_by = excluded.crt_by, updt_dt = now()
              RETURNING ntf_mapp_cd, ntf_id, ntf_mapp_usr_cd, ntf_mapp_day, ntf_mapp_sts, ntf_mapp_odr, ntf_mapp_eml, row_ver`,
        );
        out.push(r);
      }
      return out;
    });
    return { rows: saved };
  });

  // A user's own notifications only: the usercode must be the signed-in user's (403 otherwise).
  app.get('/api/notification/userNotification/:usercode', { config: { access: { kind: 'signed-in' } }, schema: { tags, summary: "A user's notifications" } }, async (req) => {
    const ctx = mustCtx(req);
    const usr = idParam((req.params as { usercode?: string }).usercode, 'user code');
    if (usr !== ctx.user.usr_cd) throw forbidden("You can only see your own notifications.");
    const list = await rows<UserNotification>(
      db,
      // A security alarm has no rule (LEFT JOIN): its kind tells the bell to open the dashboard instead.
      sql`SELECT u.usr_ntf_cd, coalesce(u.usr_ntf_kind, 'rule') AS usr_ntf_kind, u.usr_ntf_ref, u.ntf_id, n.ntf_nm,
                 to_char(u.usr_ntf_dt, 'YYYY-MM-DD') AS usr_ntf_dt, u.usr_ntf_ttl, u.usr_ntf_cnt,
                 u.usr_ntf_rows, u.usr_ntf_is_read, u.usr_ntf_read_at, u.crt_dt, n.ntf_qry->>'entity' AS entity,
                 n.ntf_qry_whr_clmn AS rule_where, n.ntf_dt_fltr AS rule_date
          FROM user_notification u LEFT JOIN notification n ON n.ntf_id = u.ntf_id
          WHERE u.usr_cd = ${usr} AND u.inst_cd = ${ctx.instCd}
          ORDER BY u.usr_ntf_dt DESC, u.crt_dt DESC, u.usr_ntf_cd DESC
          LIMIT ${BELL_ROWS}`,
    );
    const [{ n }] = await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM user_notification WHERE usr_cd = ${usr} AND inst_cd = ${ctx.instCd} AND NOT usr_ntf_is_read`);
    return { rows: list, unread: n };
  });

  app.put('/api/notification/userNotification/:id/read', { config: { access: { kind: 'signed-in' } }, schema: { tags, summary: 'Mark a notification as read' } }, async (req) => {
    const ctx = mustCtx(req);
    const id = idParam((req.params as { id?: string }).id, 'notification code');
    const done = await rows<{ usr_ntf_cd: number }>(
      db,
      sql`UPDATE user_notification SET usr_ntf_is_read = true, usr_ntf_read_at = coalesce(usr_ntf_read_at, now())
          WHERE usr_ntf_cd = ${id} AND usr_cd = ${ctx.user.usr_cd} RETURNING usr_ntf_cd`,
    );
    if (!done.length) throw notFound(`Notification ${id} was not found.`);
    app.realtimeEvents?.toUsers([ctx.user.usr_cd], 'updateNotification', { read: [id] });
    return { ok: true };
  });

  app.put('/api/notification/userNotification/readAll', { config: { access: { kind: 'signed-in' } }, schema: { tags, summary: 'Mark all notifications as read' } }, async (req) => {
    const ctx = mustCtx(req);
    const done = await rows<{ usr_ntf_cd: number }>(
      db,
      sql`UPDATE user_notification SET usr_ntf_is_read = true, usr_ntf_read_at = now()
          WHERE usr_cd = ${ctx.user.usr_cd} AND inst_cd = ${ctx.instCd} AND NOT usr_ntf_is_read RETURNING usr_ntf_cd`,
    );
    if (done.length) app.realtimeEvents?.toUsers([ctx.user.usr_cd], 'updateNotification', { read: done.map((d) => d.usr_ntf_cd) });
    return { ok: true, read: done.length };
  });
}
