import { isAdminRole } from '@campus/entities/pages';
import type { SecurityAlarmFacts } from '@campus/entities/features/notification.entity';
import { rows, sql, type DbOrTx } from '../../db/client';
import { localDateTime } from '../../lib/clock';

/**
 * The administrators of an institute, as the dashboard decides one (its Security events card is shown when
 * the request's user.is_admin, i.e. isAdminRole of their role): allowed to sign in, a role isAdminRole
 * accepts, and the institute their home or one of their active mappings (an administrator enters closed
 * institutes too, as request-context.ts lets them). The role test runs here, in code, so it stays the one
 * the sign-in uses.
 */
export async function administratorsOf(db: DbOrTx, instCd: number): Promise<number[]> {
  const found = await rows<{ usr_cd: number; rl_nm: string | null }>(
    db,
    sql`SELECT e.usr_cd, r.rl_nm FROM employee e JOIN role r ON r.rl_cd = e.usr_typ
        WHERE e.usr_is_lgn
          AND (e.inst_cd = ${instCd}
               OR e.usr_cd IN (SELECT m.usr_cd FROM user_institute m WHERE m.inst_cd = ${instCd} AND m.usr_inst_sts))
        ORDER BY e.usr_cd`,
  );
  return found.filter((u) => isAdminRole(u.rl_nm)).map((u) => u.usr_cd);
}

/** The bell's sentence, stored in English as the other titles are (the web says it in the viewer's language from the facts). */
export function bulkReadAlarmTitle(f: SecurityAlarmFacts): string {
  const who = f.usr_full_nm?.trim() ? `${f.usr_full_nm.trim()} (${f.usr_nm})` : f.usr_nm;
  return (
    `Bulk-read alarm: ${who} read ${f.rows.toLocaleString('en-US')} rows in an hour, over the limit of ${f.budget.toLocaleString('en-US')}. ` +
    'Further bulk reads are blocked until an administrator lifts it.'
  );
}

/**
 * One bell notification per administrator of the institute but the reader himself, keyed on the event's
 * action-history row (kind 'security', usr_ntf_ref): INSERT .. ON CONFLICT DO NOTHING on that unique index,
 * so the event is announced once per administrator whoever stores it. Returns who got a new one (to be sent
 * updateNotification once the caller's transaction commits).
 */
export async function storeBulkReadAlarm(
  tx: DbOrTx,
  p: { instCd: number; actnHstyCd: number; facts: SecurityAlarmFacts },
): Promise<number[]> {
  const to = (await administratorsOf(tx, p.instCd)).filter((u) => u !== p.facts.usr_cd);
  if (!to.length) return [];
  const title = bulkReadAlarmTitle(p.facts).slice(0, 400);
  const facts = JSON.stringify(p.facts);
  const { date } = localDateTime();
  const stored = await rows<{ usr_cd: number }>(
    tx,
    sql`INSERT INTO user_notification (usr_cd, usr_ntf_kind, usr_ntf_ref, usr_ntf_dt, usr_ntf_ttl, usr_ntf_cnt, usr_ntf_rows, inst_cd)
        SELECT a.usr_cd, 'security', ${p.actnHstyCd}::int, ${date}::date, ${title}, ${p.facts.rows}::int, ${facts}::jsonb, ${p.instCd}::int
        FROM unnest(${`{${to.join(',')}}`}::int[]) AS a(usr_cd)
        ON CONFLICT (inst_cd, usr_cd, usr_ntf_kind, usr_ntf_ref) DO NOTHING
        RETURNING usr_cd`,
  );
  return stored.map((r) => Number(r.usr_cd));
}
