import { choiceSchema, fieldSchema } from '@campus/entities/define';
import { entity } from '@campus/entities/registry';
import { z } from 'zod';

const attendance = entity('student_attendance');

export const attendanceStatuses = ['Present', 'Absent', 'OD'] as const;
export type AttendanceStatus = (typeof attendanceStatuses)[number];

// The date's rule (a real YYYY-MM-DD) is the declaration's, so the sheet and the grid read dates alike.
const day = fieldSchema(attendance.fields.stud_attn_dt) as z.ZodType<string>;

export const sheetQuerySchema = z.object({
  cls_cd: choiceSchema('Class'),
  sec_cd: choiceSchema('Section'),
  date: day,
});

export const sheetRowSchema = z.object({
  stud_cd: choiceSchema('Student'),
  status: z.enum(attendanceStatuses, { error: "'Status' must be one of Present, Absent, OD." }),
  remarks: z
    .string()
    .trim()
    .max(200, "'Remarks' must be at most 200 characters.")
    .nullish()
    .transform((v) => (v ? v : null)),
});

export const saveSheetSchema = z.object({
  cls_cd: choiceSchema('Class'),
  sec_cd: choiceSchema('Section'),
  date: day,
  rows: z.array(sheetRowSchema, { error: 'rows must be a list of students.' }).min(1, 'The sheet has no students.').max(500, 'A sheet holds at most 500 students.'),
});

export type SaveSheetInput = z.infer<typeof saveSheetSchema>;
