import { z } from 'zod';

const id = z.coerce.number({ error: 'Not a valid bill.' }).int().positive('Not a valid bill.');

export const cancelBillSchema = z.object({
  fee_coll_cd: id,
  reason: z.string().trim().min(1, "Please enter the 'Reason'.").max(500, 'The reason must be at most 500 characters.'),
});

export const undoCancelSchema = z.object({ fee_coll_cd: id });
