import { MONEY_RE, workflowInputSchema } from '@campus/entities/define';
import { entity } from '@campus/entities/registry';
import { z } from 'zod';
import { badRequest } from '../../lib/http-error';

const takeAction = entity('online_payment_request').workflowButtons?.find((b) => b.button === 'take_action');
if (!takeAction) throw new Error('online_payment_request declares no take_action button');
export const takeActionButton = takeAction;

const amount = z
  .union([z.string(), z.number()])
  .transform((v) => (typeof v === 'number' ? String(v) : v.trim()))
  .refine((v) => MONEY_RE.test(v), 'An amount must be a number with at most 2 decimals.');
const id = z.coerce.number({ error: 'Not a valid choice.' }).int().positive('Not a valid choice.');

const chosenLines = z.object({
  lines: z.array(z.object({ fee_cd: id, amount })).max(200).optional(),
  late_fees: z.array(z.object({ fee_grp_cd: id, amount })).max(50).optional(),
});

/**
 * The dialog's body (status, reason, key: the declaration's own rules, as the browser checked them) plus,
 * optionally, the lines the payment pays, in the counter's shape; without them it pays the oldest dues first.
 */
const takeActionSchema = workflowInputSchema(takeAction).extend(chosenLines.shape);

export interface TakeActionInput extends z.infer<typeof chosenLines> {
  oln_pay_acpt_sts: 'Accepted' | 'Rejected';
  reason: string | null;
  idempotency_key: string;
}

/** The body checked, or the first refusal as a 400 naming its field. */
export function parseTakeAction(body: unknown): TakeActionInput {
  const parsed = takeActionSchema.safeParse(body ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw badRequest(issue?.message ?? 'Invalid request.', issue ? [{ field: issue.path.join('.'), message: issue.message }] : undefined);
  }
  const d = parsed.data as Record<string, unknown> & z.infer<typeof chosenLines>;
  return {
    oln_pay_acpt_sts: d.oln_pay_acpt_sts === 'Accepted' ? 'Accepted' : 'Rejected',
    reason: typeof d.reason === 'string' && d.reason.trim() ? d.reason.trim() : null,
    idempotency_key: String(d.idempotency_key),
    lines: d.lines,
    late_fees: d.late_fees,
  };
}

/**
 * A payment gateway's notification (docs/api-contract.md, 'Online payment webhook'). Field names are ours:
 * the gateway's adapter maps its own onto them and signs the exact bytes it sends.
 */
export const webhookSchema = z.object({
  institute: z.coerce.number({ error: "'institute' must be the institute's code." }).int().positive("'institute' must be the institute's code."),
  transaction_id: z.string({ error: "'transaction_id' is required." }).trim().min(1, "'transaction_id' is required.").max(100, "'transaction_id' must be at most 100 characters."),
  amount: amount.refine((v) => Number(v) > 0, "'amount' must be more than zero."),
  admission_no: z.string({ error: "'admission_no' is required." }).trim().min(1, "'admission_no' is required.").max(40),
  status: z.string({ error: "'status' is required." }).trim().min(1, "'status' is required.").max(40),
  date: z.string({ error: "'date' is required (YYYY-MM-DD)." }).regex(/^\d{4}-\d{2}-\d{2}$/, "'date' must be a date as YYYY-MM-DD.")
    .refine((v) => !Number.isNaN(Date.parse(v)) && new Date(v).toISOString().slice(0, 10) === v, "'date' must be a date as YYYY-MM-DD."),
});

export type WebhookBody = z.infer<typeof webhookSchema>;
