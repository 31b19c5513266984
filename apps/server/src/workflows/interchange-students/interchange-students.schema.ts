import { choiceSchema } from '@campus/entities/define';
import { z } from 'zod';

export const moveStudentsSchema = z.object({
  cls_cd: choiceSchema('Class'),
  frm_sec_cd: choiceSchema('From Section'),
  to_sec_cd: choiceSchema('To Section'),
  stud_cds: z
    .array(choiceSchema('Student'), { error: 'Please select the students to move.' })
    .min(1, 'Please select the students to move.')
    .max(500, 'At most 500 students can be moved at once.'),
  reason: z
    .string({ error: "Please enter the 'Reason'." })
    .trim()
    .min(1, "Please enter the 'Reason'.")
    .max(500, "'Reason' must be at most 500 characters."),
});

export type MoveStudentsInput = z.infer<typeof moveStudentsSchema>;
