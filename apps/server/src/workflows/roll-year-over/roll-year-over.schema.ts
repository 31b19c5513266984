import { choiceSchema } from '@campus/entities/define';
import { z } from 'zod';
import { copyableTables } from './copyable-tables';

const tableNames = copyableTables.map((t) => t.entity);

/** The body of preview and run: which years, which tables, and the change of fee amounts. */
export const rolloverSchema = z
  .strictObject({
    frm_acdm_cd: choiceSchema('From Year'),
    to_acdm_cd: choiceSchema('To Year'),
    tables: z
      .array(z.string({ error: 'Tables must be a list of table names.' }), { error: 'Please select the tables to copy.' })
      .min(1, 'Please select the tables to copy.')
      .refine((ts) => ts.every((t) => tableNames.includes(t)), { message: `Tables may be only ${tableNames.join(', ')}.` })
      .transform((ts) => [...new Set(ts)]),
    // At most 2 decimals, so the change is exact in hundredths of a percent (no float on money).
    fee_pct: z
      .union([z.number(), z.string().trim().regex(/^-?\d{1,4}(\.\d{1,2})?$/, "'Fee Change %' must be a number with at most 2 decimals.").transform(Number)], {
        error: "'Fee Change %' must be a number.",
      })
      .refine((n) => Number.isFinite(n) && Math.abs(Math.round(n * 100) - n * 100) < 1e-6, "'Fee Change %' may have at most 2 decimals.")
      .refine((n) => n >= -100 && n <= 1000, "'Fee Change %' must be from -100 to 1000.")
      .nullish(),
  })
  .refine((b) => b.frm_acdm_cd !== b.to_acdm_cd, { message: 'Choose two different years to copy from and to.', path: ['to_acdm_cd'] });

export type RolloverRequest = z.infer<typeof rolloverSchema>;

export const yearPairSchema = z.object({ frm_acdm_cd: choiceSchema('From Year'), to_acdm_cd: choiceSchema('To Year') });

export const migrationIdSchema = z.object({ id: z.coerce.number({ error: 'The record code must be a number.' }).int().positive('The record code must be a number.').max(2_147_483_647, 'The record code must be a number.') });
