import { registerHooks } from '../../engine/entity-hooks';
import { badRequest, conflict } from '../../lib/http-error';

const ADMIT_ONLY = "An application becomes 'Admitted' only through the Admit button, which makes its student.";
const HAS_STUDENT = 'This application is admitted and its student exists: it cannot be changed back or deleted.';

let registered = false;

/**
 * An application's 'Admitted' belongs to the admit workflow: a form or import cannot set it (no student would
 * exist), and an application that became a student cannot be edited away from it or deleted (the student's
 * record points back at it). Older applications marked Admitted without a student stay editable.
 */
export function registerAdmissionHooks(): void {
  if (registered) return;
  registered = true;
  registerHooks('student_admission', {
    async beforeCreate(_tx, _ctx, values) {
      if (values.stud_admn_status === 'Admitted') throw badRequest(ADMIT_ONLY, [{ field: 'stud_admn_status', message: ADMIT_ONLY }]);
    },
    async beforeUpdate(_tx, _ctx, before, changes) {
      if (!('stud_admn_status' in changes)) return;
      if (before.stud_cd !== null && before.stud_cd !== undefined) throw conflict(HAS_STUDENT);
      if (changes.stud_admn_status === 'Admitted') throw badRequest(ADMIT_ONLY, [{ field: 'stud_admn_status', message: ADMIT_ONLY }]);
    },
    async beforeDelete(_tx, _ctx, list) {
      if (list.some((r) => r.stud_cd !== null && r.stud_cd !== undefined)) throw conflict(HAS_STUDENT);
    },
  });
}
