import { entity } from '@campus/entities/registry';
import type { RequestContext } from '../../access/request-context';
import { sql, type Tx } from '../../db/client';
import { entityTable } from '../../db/tables';
import { auditInsertFrom } from '../../engine/audit';
import type { Row } from '../../engine/entity-hooks';
import { preparedRows } from './prepared-statement';

const billEntity = entity('collected_fee');

/** The receipt book of fee bills in bill_counter (one kind per numbered document). */
export const FEE_BILL = 'Fee Bill';

/** A parameter cast to its column's type (from the declaration): in a SELECT list it would be text otherwise. */
function typed(entityName: string, col: string, v: unknown) {
  return sql`${v}::${sql.raw(entityTable(entityName).cols[col].getSQLType())}`;
}

/**
 * The next number of the institute's year, as a data-modifying CTE: the counter row is raised and locked
 * until commit, so bills of the same year queue here and nowhere else. The first bill of a year creates the
 * row; it starts after the highest number the year already has (bills written before the counter existed,
 * or by the demo's bulk writer), and never goes below it, so no writer around it can make it hand out a
 * number twice. That max() is one probe of the (institute, year, number) unique index.
 */
function nextBillNumber(instCd: number, acdmCd: number, usrCd: number) {
  return sql`INSERT INTO bill_counter AS c (bill_cntr_kind, bill_cntr_last, inst_cd, acdm_cd, crt_by)
    VALUES (${FEE_BILL}, (SELECT coalesce(max(fee_coll_bill_no), 0) + 1 FROM fee_collection_bill WHERE inst_cd = ${instCd} AND acdm_cd = ${acdmCd}),
            ${instCd}, ${acdmCd}, ${usrCd})
    ON CONFLICT (inst_cd, acdm_cd, bill_cntr_kind)
      DO UPDATE SET bill_cntr_last = greatest(c.bill_cntr_last + 1, excluded.bill_cntr_last), updt_by = excluded.crt_by, updt_dt = now()
    RETURNING c.bill_cntr_last AS no`;
}

export interface BillToWrite {
  /** fee_collection_bill's columns but the key and the number. */
  bill: Record<string, unknown>;
  /** fee_collection_line's columns but the key and the bill's, in the receipt's order. */
  lines: Record<string, unknown>[];
  /** The audit's after-image but the key and the number, which the statement adds. */
  after: Row;
}

/**
 * The bill, its lines, its audit row and its number in ONE statement, the last of the transaction: the
 * counter's row lock is held from here to the commit only. A rolled-back bill gives its number back.
 */
export async function writeBill(tx: Tx, ctx: RequestContext, acdmCd: number, w: BillToWrite): Promise<{ fee_coll_cd: number; fee_coll_bill_no: number }> {
  const billCols = Object.keys(w.bill);
  const lineCols = Object.keys(w.lines[0] ?? {});
  const lineValues = w.lines.map(
    (l, i) => sql`(${i}::int, ${sql.join(
      lineCols.map((c) => typed('collected_fee_detail', c, l[c])),
      sql`, `,
    )})`,
  );
  const audit = auditInsertFrom(ctx, billEntity, 'POST', {
    from: sql`b`,
    rowKey: sql`b.fee_coll_cd`,
    before: null,
    after: sql`${JSON.stringify(w.after)}::jsonb || jsonb_build_object('fee_coll_cd', b.fee_coll_cd, 'fee_coll_bill_no', b.fee_coll_bill_no)`,
  });
  const ids = (cols: string[]) => sql.join(cols.map((c) => sql.identifier(c)), sql`, `);
  // Prepared per shape: the text changes only with the number of lines.
  const [written] = await preparedRows<{ fee_coll_cd: number; fee_coll_bill_no: number }>(
    tx,
    `fee_bill_write_${w.lines.length}`,
    sql`WITH n AS (${nextBillNumber(ctx.instCd, acdmCd, ctx.user.usr_cd)}),
      b AS (INSERT INTO fee_collection_bill (fee_coll_bill_no, ${ids(billCols)})
            SELECT n.no, ${sql.join(billCols.map((c) => typed('collected_fee', c, w.bill[c])), sql`, `)} FROM n
            RETURNING fee_coll_cd, fee_coll_bill_no),
      l AS (INSERT INTO fee_collection_line (fee_coll_cd, ${ids(lineCols)})
            SELECT b.fee_coll_cd, ${sql.join(lineCols.map((c) => sql`v.${sql.identifier(c)}`), sql`, `)}
            FROM b CROSS JOIN (VALUES ${sql.join(lineValues, sql`, `)}) AS v(ord, ${ids(lineCols)})
            ORDER BY v.ord),
      a AS (${audit})
    SELECT fee_coll_cd, fee_coll_bill_no FROM b`,
  );
  return { fee_coll_cd: Number(written.fee_coll_cd), fee_coll_bill_no: Number(written.fee_coll_bill_no) };
}
