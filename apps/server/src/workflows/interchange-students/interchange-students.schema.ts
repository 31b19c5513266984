import { z } from 'zod';

const code = (label: string) =>
  z.coerce.number({ error: `'${label}' is not a valid choice.` }).int(`'${label}' is not a valid choice.`).positive(`'${label}' is not a valid choice.`);

export const moveStudentsSchema = z.object({
  cls_cd: code('Class'),
  frm_sec_cd: code('From Section'),
  to_sec_cd: code('To Section'),
  stud_cds: z
    .array(code('Student'), { error: 'Please select the students to move.' })
    .min(1, 'Please select the students to move.')
    .max(500, 'At most 500 students can be moved at once.'),
  reason: z
    .string({ error: "Please enter the 'Reason'." })
    .trim()
    .min(1, "Please enter the 'Reason'.")
    .max(500, "'Reason' must be at most 500 characters."),
});

export type MoveStudentsInput = z.infer<typeof moveStudentsSchema>;
