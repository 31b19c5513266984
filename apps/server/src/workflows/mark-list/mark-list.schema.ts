import { z } from 'zod';

export const markListSchema = z.object({
  exm_cd: z.coerce.number({ error: "Please select the 'Exam'." }).int("Please select the 'Exam'.").positive("Please select the 'Exam'."),
});

export const studentParamSchema = z.object({
  stud_cd: z.coerce.number({ error: "Please select the 'Student'." }).int("Please select the 'Student'.").positive("Please select the 'Student'."),
});
