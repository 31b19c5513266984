import type { FastifyInstance } from 'fastify';
import type { RequestContext } from '../../access/request-context';
import { registerHooks, type Row } from '../../engine/entity-hooks';

/** The fields of a fee mapping that change what a class owes. */
const DUE_FIELDS = ['fee_amt', 'fee_amt_aftr_prmtn', 'cls_cd', 'fee_grp_cd', 'feetyp_cd'] as const;

interface Pending {
  instCd: number;
  acdmCd: number | null;
  classes: Set<number>;
}

// Classes whose dues a request changed, kept on the request's context until its answer has gone (after the
// write's commit): a rolled-back write never announces anything.
const pending = new WeakMap<RequestContext, Pending>();

const note = (ctx: RequestContext, ...classes: unknown[]): void => {
  const p = pending.get(ctx) ?? { instCd: ctx.instCd, acdmCd: ctx.acdmCd, classes: new Set<number>() };
  for (const c of classes) if (Number.isInteger(Number(c)) && Number(c) > 0) p.classes.add(Number(c));
  pending.set(ctx, p);
};

let hooksRegistered = false;

/**
 * studentFeegroupSync (spec section 7): after a fee mapping is created, changed in an amount, class, term or
 * fee type, or deleted, every socket of the institute hears { cls_cd, acdm_cd } once per class, so an open
 * fee counter of a child of that class reloads the dues.
 */
export function registerFeeSync(app: FastifyInstance): void {
  if (!hooksRegistered) {
    hooksRegistered = true;
    registerHooks('fee', {
      async afterCreate(_tx, ctx, row) {
        note(ctx, row.cls_cd);
      },
      async afterUpdate(_tx, ctx, before: Row, after: Row) {
        if (DUE_FIELDS.some((f) => String(before[f] ?? '') !== String(after[f] ?? ''))) note(ctx, before.cls_cd, after.cls_cd);
      },
      async beforeDelete(_tx, ctx, rows) {
        note(ctx, ...rows.map((r) => r.cls_cd));
      },
    });
  }
  app.addHook('onResponse', async (req, reply) => {
    const ctx = req.ctx;
    const p = ctx ? pending.get(ctx) : undefined;
    if (!ctx || !p) return;
    pending.delete(ctx);
    if (reply.statusCode >= 300) return;
    for (const cls of p.classes) app.realtimeEvents.toInstitute(p.instCd, 'studentFeegroupSync', { cls_cd: cls, acdm_cd: p.acdmCd });
  });
}
