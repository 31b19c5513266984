import { code, date, defineEntity, link, select, text } from '../define';

/** A parent's request for a student's leave, approved or refused with the take-action button. */
export const studentLeave = defineEntity({
  name: 'student_leave',
  table: 'student_leave',
  key: 'stud_leav_cd',
  scope: 'academic-year',
  label: 'Leave Request',
  title: 'stud_leav_rsn',
  fields: {
    stud_leav_cd: code(),
    stud_cd: link({ label: 'Student', to: 'student', display: 'stud_fs_nm', as: 'stud_fs_nm', required: true, search: true }),
    leav_typ_cd: link({ label: 'Leave Type', to: 'leavetype', display: 'leav_typ_nm', as: 'leav_typ_nm', required: true, search: true }),
    stud_leav_frm_dt: date({ label: 'From Date', required: true }),
    stud_leav_to_dt: date({ label: 'To Date', required: true, notBefore: 'stud_leav_frm_dt' }),
    stud_leav_rsn: text({ label: 'Reason', required: true, search: true, multiline: true, max: 500 }),
    stud_leav_sts: select({ label: 'Status', options: ['Pending', 'Approved', 'Rejected', 'Cancelled'], required: true, defaultValue: 'Pending', search: true }),
  },
  actions: [{ button: 'take_action', label: 'Take Action', field: 'stud_leav_sts' }],
  // 'His students only': the rows of the teacher's own students, by the student's own rule.
  ownership: { via: 'stud_cd' },
  defaultSort: { field: 'stud_leav_frm_dt', dir: 'desc' },
});
