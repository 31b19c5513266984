import type { AnyEntity } from '@campus/entities/define';
import type { RequestContext } from '../access/request-context';
import type { DbOrTx } from '../db/client';
import { dyn } from '../db/dyn-table';
import { entityTable } from '../db/tables';
import { localDateTime } from '../lib/clock';
import type { Row } from './entity-hooks';

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
  const { date, time } = localDateTime();
  await tx.insert(t).values({
    inst_cd: ctx.instCd,
    usr_cd: ctx.user.usr_cd,
    actn_hsty_mdl: ctx.page?.module ?? null,
    actn_hsty_pg_nm: ctx.page?.page ?? null,
    actn_hsty_mthd: method,
    actn_hsty_entity: e.name,
    actn_hsty_row_key: rowKey === null ? null : String(rowKey),
    actn_hsty_dt: date,
    actn_hsty_tm: time,
    actn_hsty_ip: ctx.ip.slice(0, 60),
    actn_hsty_pfm: ctx.platform.slice(0, 60),
    actn_hsty_before: before,
    actn_hsty_after: after,
    crt_by: ctx.user.usr_cd,
  });
}
