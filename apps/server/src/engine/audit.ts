import type { AnyEntity } from '@campus/entities/define';
import { sql, type SQL } from 'drizzle-orm';
import type { RequestContext } from '../access/request-context';
import type { DbOrTx } from '../db/client';
import { dyn } from '../db/dyn-table';
import { entityTable } from '../db/tables';
import { localDateTime } from '../lib/clock';
import type { Row } from './entity-hooks';

/** The action-history row of one write, but for its key and its after-image. */
function auditColumns(ctx: RequestContext, e: Pick<AnyEntity, 'name'>, method: string, before: Row | null) {
  const { date, time } = localDateTime();
  return {
    inst_cd: ctx.instCd,
    usr_cd: ctx.user.usr_cd,
    actn_hsty_mdl: ctx.page?.module ?? null,
    actn_hsty_pg_nm: ctx.page?.page ?? null,
    actn_hsty_mthd: method,
    actn_hsty_entity: e.name,
    actn_hsty_dt: date,
    actn_hsty_tm: time,
    actn_hsty_ip: ctx.ip.slice(0, 60),
    actn_hsty_pfm: ctx.platform.slice(0, 60),
    actn_hsty_before: before,
    crt_by: ctx.user.usr_cd,
  };
}

/** One action-history row per write, in the write's own transaction so the two commit or fail together. */
export async function writeAudit(
  tx: DbOrTx,
  ctx: RequestContext,
  e: Pick<AnyEntity, 'name'>,
  method: string,
  rowKey: number | string | null,
  before: Row | null,
  after: Row | null,
): Promise<void> {
  const t = dyn(entityTable('action_history').table);
  await tx.insert(t).values({
    ...auditColumns(ctx, e, method, before),
    actn_hsty_row_key: rowKey === null ? null : String(rowKey),
    actn_hsty_after: after,
  });
}

/**
 * The same row as an INSERT ... SELECT over `from` (a data-modifying CTE of the write it records), so a
 * workflow writes its rows and their history in one statement: the key and the after-image are SQL over
 * that CTE's columns (a key the INSERT has just generated). Each jsonb is a JSON text cast, as drizzle sends it.
 */
export function auditInsertFrom(
  ctx: RequestContext,
  e: Pick<AnyEntity, 'name'>,
  method: string,
  p: { from: SQL; rowKey: SQL; before: Row | null; after: SQL },
): SQL {
  const { table, cols } = entityTable('action_history');
  // A bare parameter in a SELECT list would be text: each is cast to its column's type (from the declaration).
  const values: [string, SQL][] = Object.entries(auditColumns(ctx, e, method, p.before)).map(([col, v]) => [
    col,
    sql`${v !== null && typeof v === 'object' ? JSON.stringify(v) : v}::${sql.raw(cols[col].getSQLType())}`,
  ]);
  values.push(['actn_hsty_row_key', sql`(${p.rowKey})::text`], ['actn_hsty_after', p.after]);
  return sql`INSERT INTO ${table} (${sql.join(values.map(([c]) => sql.identifier(c)), sql`, `)})
    SELECT ${sql.join(values.map(([, v]) => v), sql`, `)} FROM ${p.from}`;
}
