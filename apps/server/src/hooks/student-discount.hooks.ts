import type { RequestContext } from '../access/request-context';
import { rows, sql, type Tx } from '../db/client';
import { registerHooks, type Row } from '../engine/entity-hooks';
import { badRequest } from '../lib/http-error';
import { fromPaise, toPaise } from '../lib/paise';

const isEmpty = (v: unknown): boolean => v === null || v === undefined || v === '';

/**
 * Spec section 5: amount = percent x base, percent = amount / base x 100, both to 2 decimals, and 0.00 when
 * either input is zero or empty. In paise and hundredths of a percent, so no float rounds a rupee.
 */
export function discountAmount(pct: string | number | null | undefined, basePaise: number): number {
  const hundredths = toPaise(isEmpty(pct) ? 0 : Number(pct).toFixed(2));
  if (hundredths === 0 || basePaise === 0) return 0;
  // Half up, like numeric round(): base * pct / 100, with pct in hundredths.
  return Number((BigInt(basePaise) * BigInt(hundredths) + 5000n) / 10000n);
}

export function discountPercent(amtPaise: number, basePaise: number): string {
  if (amtPaise === 0 || basePaise === 0) return '0.00';
  return fromPaise(Number((BigInt(amtPaise) * 10000n + BigInt(basePaise) / 2n) / BigInt(basePaise)));
}

interface Base {
  base: number;
  paid: number;
  sec_cd: number;
  feetyp_nm: string;
}

/** The student's amount for the mapping (new or promoted) and what is paid on it; the mapping must be of the student's class. */
async function baseOf(tx: Tx, ctx: RequestContext, studCd: number, feeCd: number): Promise<Base> {
  const [r] = await rows<{ same_cls: boolean; base: string; paid: string; sec_cd: number; feetyp_nm: string }>(
    tx,
    // Amount and paid from the per-line view the counter and the summaries read (old-student amount once
    // promoted, active bills only); its row is missing when the mapping is not of the student's class.
    sql`SELECT f.cls_cd = s.cls_cd AS same_cls, s.sec_cd, t.feetyp_nm,
               coalesce(x.amount, 0)::text AS base, coalesce(x.paid, 0)::text AS paid
        FROM student s JOIN fee f ON f.fee_cd = ${feeCd} JOIN fee_type t ON t.feetyp_cd = f.feetyp_cd
        LEFT JOIN student_fee_line_v x ON x.stud_cd = s.stud_cd AND x.fee_cd = f.fee_cd AND x.inst_cd = ${ctx.instCd} AND x.acdm_cd = ${ctx.acdmCd}
        WHERE s.stud_cd = ${studCd}`,
  );
  if (!r) throw badRequest("'Fee Mapping' is not a valid choice.");
  if (!r.same_cls) throw badRequest("This fee mapping is not of the student's class.", [{ field: 'fee_cd', message: "This fee mapping is not of the student's class." }]);
  return { base: toPaise(r.base), paid: toPaise(r.paid), sec_cd: Number(r.sec_cd), feetyp_nm: r.feetyp_nm };
}

/** Fills the missing one of percent and amount (both given: the amount wins) and checks the limits. */
async function settle(tx: Tx, ctx: RequestContext, row: Row, changes: Row): Promise<void> {
  const b = await baseOf(tx, ctx, Number(row.stud_cd), Number(row.fee_cd));
  const amtGiven = 'disc_amt' in changes && !isEmpty(changes.disc_amt);
  const pctGiven = 'disc_pct' in changes && !isEmpty(changes.disc_pct);
  let amt: number;
  if (amtGiven || (!pctGiven && !isEmpty(row.disc_amt))) amt = toPaise(String(row.disc_amt));
  else amt = discountAmount(row.disc_pct as string | number | null, b.base);
  if (amt > b.base) throw badRequest(`The discount cannot exceed the fee amount ${fromPaise(b.base)}.`, [{ field: 'disc_amt', message: `The discount cannot exceed the fee amount ${fromPaise(b.base)}.` }]);
  if (b.paid > b.base - amt) {
    const message = `${fromPaise(b.paid)} is already paid on '${b.feetyp_nm}': the discount can be at most ${fromPaise(Math.max(0, b.base - b.paid))}.`;
    throw badRequest(message, [{ field: 'disc_amt', message }]);
  }
  changes.disc_amt = fromPaise(amt);
  changes.disc_pct = discountPercent(amt, b.base);
  changes.sec_cd = b.sec_cd;
}

export function registerStudentDiscountHooks(): void {
  registerHooks('student_discount', {
    async beforeCreate(tx, ctx, values) {
      await settle(tx, ctx, values, values);
    },
    async beforeUpdate(tx, ctx, before, changes) {
      // A changed percent alone must not keep the stored amount: the stored one is recomputed from it.
      const row = { ...before, ...changes };
      if ('disc_pct' in changes && !('disc_amt' in changes)) row.disc_amt = null;
      await settle(tx, ctx, row, changes);
    },
  });
}
