import { choiceSchema, workflowInputSchema } from '@campus/entities/define';
import { entity } from '@campus/entities/registry';

const admitButton = entity('student_admission').workflowButtons?.find((b) => b.button === 'admit');
if (!admitButton) throw new Error('student_admission declares no admit button');

/**
 * The Admit dialog's body, by the button's own declaration (section required, date of joining a date, the
 * idempotency key), plus the application. The class may be left out: the application's class is used.
 */
export const admitStudentSchema = workflowInputSchema(admitButton).extend({
  stud_admn_cd: choiceSchema('Application No'),
  cls_cd: choiceSchema('Class').nullish(),
});

/** What the schema gives: its inputs are built from the declaration, so their types are stated here. */
export interface AdmitStudentInput {
  stud_admn_cd: number;
  cls_cd?: number | null;
  sec_cd: number;
  stud_doj: string | null;
  idempotency_key: string;
}

export function parseAdmitStudent(body: unknown): { ok: true; data: AdmitStudentInput } | { ok: false; field?: string; message: string } {
  const parsed = admitStudentSchema.safeParse(body);
  if (parsed.success) return { ok: true, data: parsed.data as unknown as AdmitStudentInput };
  const issue = parsed.error.issues[0];
  return { ok: false, field: typeof issue?.path[0] === 'string' ? issue.path[0] : undefined, message: issue?.message ?? 'Invalid input.' };
}
