import { MONEY_RE } from '@campus/entities/define';
import { z } from 'zod';

const amount = z
  .union([z.string(), z.number()])
  .transform((v) => (typeof v === 'number' ? String(v) : v.trim()))
  .refine((v) => MONEY_RE.test(v), 'An amount must be a number with at most 2 decimals.');
const id = z.coerce.number({ error: 'Not a valid choice.' }).int().positive('Not a valid choice.');

export const collectFeeSchema = z.object({
  stud_cd: id,
  tnd_typ_cd: id,
  reference: z.string().trim().max(100, 'The reference must be at most 100 characters.').nullish(),
  lines: z.array(z.object({ fee_cd: id, amount })).max(200).default([]),
  late_fees: z.array(z.object({ fee_grp_cd: id, amount })).max(50).default([]),
  // A UUID made by the browser once per attempt.
  idempotency_key: z.string().trim().min(8, 'The payment key is missing. Reload the page and try again.').max(64),
});

export type CollectFeeInput = z.infer<typeof collectFeeSchema>;
