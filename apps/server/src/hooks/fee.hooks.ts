import type { SQL } from 'drizzle-orm';
import { rows, sql, type DbOrTx } from '../db/client';
import { registerHooks, type Row } from '../engine/entity-hooks';

/** The naming rule of a fee mapping, 'Term 1 - Tuition Fee - VI', over fee_group g, fee_type t and class c. */
const NAME = sql`left(g.fee_grp_nm || ' - ' || t.feetyp_nm || ' - ' || c.cls_nm, 300)`;

/**
 * Sets the name (fee_nm) of the mappings `which` picks (a condition on fee f) from their term, fee type and
 * class: after a rename of one of those, and after the demo generator's bulk insert.
 */
export async function refreshFeeNames(db: DbOrTx, which: SQL): Promise<void> {
  await db.execute(sql`
    UPDATE fee f SET fee_nm = ${NAME}
    FROM fee_group g, fee_type t, class c
    WHERE g.fee_grp_cd = f.fee_grp_cd AND t.feetyp_cd = f.feetyp_cd AND c.cls_cd = f.cls_cd AND (${which})`);
}

/** The name a mapping of these three gets (null when one of them is missing: the write's own checks refuse it). */
async function nameOf(db: DbOrTx, row: Row): Promise<string | null> {
  const [r] = await rows<{ nm: string }>(
    db,
    sql`SELECT ${NAME} AS nm FROM fee_group g, fee_type t, class c
        WHERE g.fee_grp_cd = ${Number(row.fee_grp_cd)} AND t.feetyp_cd = ${Number(row.feetyp_cd)} AND c.cls_cd = ${Number(row.cls_cd)}`,
  );
  return r?.nm ?? null;
}

/** A rename of a term, a fee type or a class renames the mappings that show it. */
const renames = (field: string, nameField: string) => ({
  async afterUpdate(tx: DbOrTx, _ctx: unknown, before: Row, after: Row): Promise<void> {
    if (before[nameField] !== after[nameField]) await refreshFeeNames(tx, sql`f.${sql.identifier(field)} = ${Number(after[field])}`);
  },
});

export function registerFeeHooks(): void {
  registerHooks('fee', {
    async beforeCreate(tx, _ctx, values) {
      values.fee_nm = await nameOf(tx, values);
    },
    async beforeUpdate(tx, _ctx, before, changes) {
      if (['fee_grp_cd', 'feetyp_cd', 'cls_cd'].some((k) => k in changes)) changes.fee_nm = await nameOf(tx, { ...before, ...changes });
    },
  });
  registerHooks('fee_group', renames('fee_grp_cd', 'fee_grp_nm'));
  registerHooks('fee_type', renames('feetyp_cd', 'feetyp_nm'));
  registerHooks('class', renames('cls_cd', 'cls_nm'));
}
