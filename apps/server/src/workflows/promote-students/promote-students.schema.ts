import { choiceSchema } from '@campus/entities/define';
import { z } from 'zod';

export const ROLL_MODES = ['Kept', 'Renumbered by name'] as const;
export type RollMode = (typeof ROLL_MODES)[number];

const moveSchema = z.strictObject({
  frm_sec_cd: choiceSchema('From Section'),
  to_sec_cd: choiceSchema('To Section'),
  // Left out: the whole section (but those already in the target year). Given: exactly these children.
  stud_cds: z.array(choiceSchema('Student'), { error: 'The students must be a list of student codes.' }).max(1000, 'At most 1000 students per section.').optional(),
});

/** The promotion screen's body, for the preview and the run alike. */
export const promoteStudentsSchema = z.strictObject({
  frm_acdm_cd: choiceSchema('From Year'),
  to_acdm_cd: choiceSchema('To Year'),
  roll: z.enum(ROLL_MODES, { error: `'Roll Numbers' must be one of: ${ROLL_MODES.join(', ')}.` }).default('Kept'),
  moves: z
    .array(moveSchema, { error: 'Choose the sections to promote.' })
    .min(1, 'Choose the sections to promote.')
    .max(200, 'At most 200 sections can be promoted at once.'),
});

export type PromoteStudentsInput = z.infer<typeof promoteStudentsSchema>;
export type MoveInput = z.infer<typeof moveSchema>;
