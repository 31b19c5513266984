import { findPage, isAdminRole, pagesOfEntity } from '@campus/entities/pages';
import { combinePermissions, permissionColumnsSql, permissionRowsSql, type PermRow } from '../../access/permission';
import { institutesOf, loadUser, type RequestContext } from '../../access/request-context';
import { rows, sql, type Db } from '../../db/client';
import { parseEntityQuery, runEntityQuery, type EntityQueryDef } from '../../engine/entity-query';
import type { Row } from '../../engine/entity-hooks';
import { badRequest } from '../../lib/http-error';
import { localDateTime } from '../../lib/clock';
import type { RealtimeEvents } from '../../realtime-events';
import type { Config } from '../../config';
import type { JobQueue } from '../../jobs/job-definition';
import { isMailAddress, mailEnabled } from '../messaging/mail.service';
import { notificationMail } from './notification-mail.service';

/** The bell keeps this many rows of a rule's answer as its preview. */
export const PREVIEW_ROWS = 20;

/** A JSON column as stored: parsed by the driver, or JSON text (the demo's rows, an older client). */
function jsonPart(v: unknown, part: string): unknown {
  if (typeof v !== 'string') return v ?? undefined;
  if (v.trim() === '') return undefined;
  try {
    return JSON.parse(v);
  } catch {
    throw badRequest(`${part} is not valid JSON.`);
  }
}

/**
 * A notification row's query parts assembled into one definition (the columns' meaning is in
 * notification.entity.ts) and checked against the registry: 400 naming the part when it is not valid.
 */
export function ruleDefinition(row: Row): EntityQueryDef {
  const q = jsonPart(row.ntf_qry, "The notification's query");
  if (q === undefined || q === null) throw badRequest("A notification needs a query: choose the entity it reads.");
  if (typeof q !== 'object' || Array.isArray(q)) throw badRequest("The notification's query must be { entity, columns }.");
  const { entity, columns } = q as { entity?: unknown; columns?: unknown };
  const limit = jsonPart(row.ntf_qry_lmt_clmn, 'The limit');
  return parseEntityQuery({
    entity,
    ...(columns !== undefined ? { columns } : {}),
    where: jsonPart(row.ntf_qry_whr_clmn, 'The where columns') ?? [],
    dateFilter: jsonPart(row.ntf_dt_fltr, 'The date filter') ?? null,
    order: jsonPart(row.ntf_qry_ord_clmn, 'The order columns') ?? [],
    group: jsonPart(row.ntf_qry_grp_clmn, 'The group columns') ?? [],
    // A limit may be kept as a number or as { rows } (the first demo rows).
    ...(limit !== undefined && limit !== null ? { limit: typeof limit === 'object' && !Array.isArray(limit) ? (limit as { rows?: unknown }).rows : limit } : {}),
  });
}

/** An empty list is stored as null: the engine reads an empty value as none (bodySchema), so a row read and sent back is unchanged. */
const listOrNull = <T>(v: readonly T[] | undefined): readonly T[] | null => (v && v.length ? v : null);

/** The definition split back into the notification's columns, in their stored form. */
export function ruleParts(def: EntityQueryDef): Row {
  return {
    ntf_qry: { entity: def.entity, columns: def.columns ?? [] },
    ntf_dt_fltr: def.dateFilter ?? null,
    ntf_qry_whr_clmn: listOrNull(def.where),
    ntf_qry_lmt_clmn: def.limit ?? null,
    ntf_qry_ord_clmn: listOrNull(def.order),
    ntf_qry_grp_clmn: listOrNull(def.group),
  };
}

const RULE_COLUMNS = ['ntf_qry', 'ntf_dt_fltr', 'ntf_qry_whr_clmn', 'ntf_qry_lmt_clmn', 'ntf_qry_ord_clmn', 'ntf_qry_grp_clmn'] as const;

/** True when a PUT touches the rule's query (a rename or a toggle of Active leaves it as stored). */
export const touchesRule = (changes: Row): boolean => RULE_COLUMNS.some((c) => c in changes);

/**
 * A user's context for one entity, decided as a request of theirs to that entity's list page would decide
 * it (request-context.ts buildContext and enterPage): their login, the institutes they may enter, the
 * institute's active (else newest) year, and the permission row of the first allowed page of the entity,
 * whose data_chk applies. Null when they could not open that list: a rule then shows them nothing.
 */
export async function contextForUser(db: Db, usrCd: number, instCd: number, entity: string): Promise<RequestContext | null> {
  const u = await loadUser(db, { usrCd });
  if (!u || !u.usr_is_lgn) return null;
  const isAdmin = isAdminRole(u.rl_nm);
  const insts = await institutesOf(db, usrCd, u.inst_cd, isAdmin);
  if (!insts.some((i) => i.inst_cd === instCd)) return null;
  const [year] = await rows<{ acdm_cd: number }>(db, sql`SELECT acdm_cd FROM academic WHERE inst_cd = ${instCd} ORDER BY acdm_sts DESC, acdm_strt_yr DESC LIMIT 1`);
  const pages = pagesOfEntity(entity);
  const who = sql`${usrCd}`;
  const found = pages.length ? await rows<PermRow>(db, sql`SELECT ${permissionColumnsSql(who)} ${permissionRowsSql(who, sql`${instCd}`, pages)}`) : [];
  const perms = combinePermissions(found, isAdmin);
  const page = pages.find((p) => perms.get(`${p.module}/${p.page}`)?.usr_prms_is_alw && findPage(p.module, p.page));
  if (!page) return null;
  const perm = perms.get(`${page.module}/${page.page}`)!;
  return {
    user: { usr_cd: u.usr_cd, usr_nm: u.usr_nm, usr_full_nm: u.usr_full_nm, usr_id: u.usr_id, rl_nm: u.rl_nm, usr_inst_cd: u.inst_cd, is_admin: isAdmin },
    token: '',
    instCd,
    acdmCd: year?.acdm_cd ?? null,
    myInstCds: insts.map((i) => i.inst_cd),
    page: { module: page.module, page: page.page },
    perm,
    dataChk: perm.usr_need_data_chk,
    selfOnly: false,
    ip: '',
    platform: 'job',
  };
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/** The mapping days a run on `day` (YYYY-MM-DD) serves: every day, Monday to Saturday, or the weekday itself. */
export function mappingDaysOn(day: string): string[] {
  const name = WEEKDAYS[new Date(`${day}T00:00:00Z`).getUTCDay()];
  return ['Every day', ...(name !== 'Sunday' ? ['Weekdays'] : []), name];
}

interface DueMapping {
  ntf_id: number;
  inst_cd: number;
  usr_cd: number;
  ntf_nm: string;
  ntf_qry: unknown;
  ntf_dt_fltr: unknown;
  ntf_qry_whr_clmn: unknown;
  ntf_qry_lmt_clmn: unknown;
  ntf_qry_ord_clmn: unknown;
  ntf_qry_grp_clmn: unknown;
  /** The mapping asks for an e-mail too. */
  ntf_mapp_eml: boolean;
  usr_eml: string | null;
}

export interface DailyRunResult {
  day: string;
  /** Notifications written by this run. */
  stored: number;
  /** Already stored for that user, rule and day (a retry, another process): left as they were. */
  existing: number;
  /** Rules with nothing to say to that user (no rows in their scope), or that they cannot open. */
  empty: number;
  /** Rules whose stored definition no longer passes the checks (an entity or field since renamed). */
  invalid: number;
  /** E-mails queued ('mail-send') for notifications of this day not e-mailed before. */
  mailed: number;
  /** Notifications whose mapping asks for an e-mail but the employee has no (valid) address on record. */
  noAddress: number;
}

/** What the daily run needs to e-mail notifications; absent (or without SMTP_URL), nothing is e-mailed. */
export interface DailyMail {
  cfg: Pick<Config, 'smtpUrl'>;
  queue: Pick<JobQueue, 'send'>;
}

/**
 * Runs every active rule for each active mapping due on `day`, each with its user's own scope, and stores
 * the non-empty answers: one row per user, rule and day (INSERT .. ON CONFLICT DO NOTHING on the unique
 * index), so a second run, a retry or a second process writes nothing twice. Users who got a new one are
 * sent updateNotification. When the mapping asks for an e-mail (ntf_mapp_eml) and SMTP_URL is set, the stored
 * notification is e-mailed to the employee's own address on record: claimed first (usr_ntf_eml_at set where
 * it was empty), so a retry, a second run or a second process never queues it twice.
 */
export async function runDailyNotifications(
  db: Db,
  events: RealtimeEvents,
  day = localDateTime().date,
  log?: { warn(o: object, m: string): void },
  mail?: DailyMail,
): Promise<DailyRunResult> {
  const due = await rows<DueMapping>(
    db,
    sql`SELECT n.ntf_id, n.inst_cd, m.ntf_mapp_usr_cd AS usr_cd, n.ntf_nm, n.ntf_qry, n.ntf_dt_fltr, n.ntf_qry_whr_clmn, n.ntf_qry_lmt_clmn,
               n.ntf_qry_ord_clmn, n.ntf_qry_grp_clmn, m.ntf_mapp_eml, e.usr_eml
        FROM notification_mapping m JOIN notification n ON n.ntf_id = m.ntf_id AND n.inst_cd = m.inst_cd
             JOIN employee e ON e.usr_cd = m.ntf_mapp_usr_cd
        WHERE m.ntf_mapp_sts AND n.ntf_mapp_sts AND m.ntf_mapp_day IN ${mappingDaysOn(day)}
        ORDER BY n.inst_cd, m.ntf_mapp_usr_cd, m.ntf_mapp_odr NULLS LAST, n.ntf_mapp_odr NULLS LAST, n.ntf_id`,
  );
  const result: DailyRunResult = { day, stored: 0, existing: 0, empty: 0, invalid: 0, mailed: 0, noAddress: 0 };
  const told = new Set<number>();
  const canMail = !!mail && mailEnabled(mail.cfg);
  if (!canMail && due.some((m) => m.ntf_mapp_eml)) log?.warn({ day }, 'notification e-mails not sent: e-mail is not set up (SMTP_URL)');
  for (const m of due) {
    let def: EntityQueryDef;
    try {
      def = ruleDefinition(m as unknown as Row);
    } catch (err) {
      result.invalid++;
      log?.warn({ ntf_id: m.ntf_id, err: err instanceof Error ? err.message : String(err) }, 'notification rule skipped: its query is not valid');
      continue;
    }
    const ctx = await contextForUser(db, m.usr_cd, m.inst_cd, def.entity);
    if (!ctx) {
      result.empty++;
      continue;
    }
    const answer = await runEntityQuery(db, ctx, def, { maxRows: PREVIEW_ROWS, today: day });
    if (answer.count === 0) {
      result.empty++;
      continue;
    }
    const inserted = await rows<{ usr_ntf_cd: number }>(
      db,
      sql`INSERT INTO user_notification (usr_cd, ntf_id, usr_ntf_kind, usr_ntf_dt, usr_ntf_ttl, usr_ntf_cnt, usr_ntf_rows, inst_cd)
          VALUES (${m.usr_cd}, ${m.ntf_id}, 'rule', ${day}, ${m.ntf_nm.slice(0, 200)}, ${answer.count}, ${JSON.stringify(answer.rows)}::jsonb, ${m.inst_cd})
          ON CONFLICT (inst_cd, usr_cd, ntf_id, usr_ntf_dt) DO NOTHING
          RETURNING usr_ntf_cd`,
    );
    if (inserted.length) {
      result.stored++;
      told.add(m.usr_cd);
    } else result.existing++;
    if (canMail && mail && m.ntf_mapp_eml) await mailNotification(db, mail, m, def, ctx, day, result, log);
  }
  if (told.size) events.toUsers([...told], 'updateNotification', { day });
  return result;
}

/**
 * Queues the e-mail of the user's stored notification of `day`, once: the row is claimed (usr_ntf_eml_at set
 * where empty) before queuing, and released again if queuing fails, so the job's retry queues it then.
 * No address on record: nothing is claimed (a later run that day mails it once the address is entered).
 */
async function mailNotification(
  db: Db,
  mail: DailyMail,
  m: DueMapping,
  def: EntityQueryDef,
  ctx: RequestContext,
  day: string,
  result: DailyRunResult,
  log?: { warn(o: object, msg: string): void },
): Promise<void> {
  const to = (m.usr_eml ?? '').trim();
  const page = ctx.page;
  if (!page) return;
  if (!isMailAddress(to)) {
    result.noAddress++;
    log?.warn({ usr_cd: m.usr_cd, ntf_id: m.ntf_id }, 'notification not e-mailed: the employee has no valid e-mail address on record');
    return;
  }
  const [claimed] = await rows<{ usr_ntf_cd: number; usr_ntf_cnt: number | null; usr_ntf_rows: unknown }>(
    db,
    sql`UPDATE user_notification SET usr_ntf_eml_at = now()
        WHERE inst_cd = ${m.inst_cd} AND usr_cd = ${m.usr_cd} AND ntf_id = ${m.ntf_id} AND usr_ntf_dt = ${day} AND usr_ntf_eml_at IS NULL
        RETURNING usr_ntf_cd, usr_ntf_cnt, usr_ntf_rows`,
  );
  if (!claimed) return;
  const stored = typeof claimed.usr_ntf_rows === 'string' ? (JSON.parse(claimed.usr_ntf_rows) as unknown) : claimed.usr_ntf_rows;
  const data = notificationMail({
    to,
    ruleName: m.ntf_nm,
    day,
    count: Number(claimed.usr_ntf_cnt ?? 0),
    rows: Array.isArray(stored) ? (stored as Record<string, unknown>[]) : [],
    def,
    page,
  });
  try {
    await mail.queue.send('mail-send', data);
  } catch (err) {
    await db.execute(sql`UPDATE user_notification SET usr_ntf_eml_at = NULL WHERE usr_ntf_cd = ${claimed.usr_ntf_cd}`);
    throw err;
  }
  result.mailed++;
}
