import { choiceSchema } from '@campus/entities/define';
import { z } from 'zod';

export const subjectsQuerySchema = z.object({ exm_cd: choiceSchema('Exam') });
export const sheetQuerySchema = z.object({ mrk_cd: choiceSchema('Subject') });

/**
 * Marks as typed: a number or a decimal string ('45', '45.5'); empty means not entered. Whether it is a
 * whole or half mark within the maximum is checked by the handler, which can name the student.
 */
const marks = z
  .union([z.number(), z.string()], { error: "'Marks' must be a number." })
  .nullish()
  .transform((v) => (v === null || v === undefined ? null : String(v).trim() || null));

export const sheetRowSchema = z.object({
  stud_cd: choiceSchema('Student'),
  marks,
  absent: z.boolean({ error: "'Absent' must be true or false." }).default(false),
  remarks: z
    .string()
    .trim()
    .max(200, "'Remarks' must be at most 200 characters.")
    .nullish()
    .transform((v) => (v ? v : null)),
});

export const saveSheetSchema = z.object({
  mrk_cd: choiceSchema('Subject'),
  rows: z.array(sheetRowSchema, { error: 'rows must be a list of students.' }).min(1, 'The sheet has no students.').max(500, 'A sheet holds at most 500 students.'),
});

export type SheetRowInput = z.infer<typeof sheetRowSchema>;

/** Whole or half marks with at most two decimals written ('45', '45.5', '45.50'); never a sign or exponent. */
export const MARKS_RE = /^\d{1,4}(\.(0{1,2}|50?))?$/;
