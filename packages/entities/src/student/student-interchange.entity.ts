import { code, date, defineEntity, link, text } from '../define';

/**
 * A student moved from one section of his class to another within the year (9-A to 9-B), as written by the
 * interchange workflow, which also changes the student's section. A record: only list and get are routed.
 */
export const studentInterchange = defineEntity({
  name: 'student_interchange',
  table: 'student_interchange',
  key: 'stud_intchg_cd',
  scope: 'academic-year',
  label: 'Interchange',
  title: 'stud_intchg_cd',
  fields: {
    stud_intchg_cd: code(),
    stud_cd: link({ label: 'Student', to: 'student', display: 'stud_fs_nm', as: 'stud_fs_nm', required: true, search: true }),
    cls_cd: link({ label: 'Class', to: 'class', display: 'cls_nm', as: 'cls_nm', required: true, search: true }),
    frm_sec_cd: link({ label: 'From Section', to: 'section', display: 'sec_nm', as: 'frm_sec_nm', required: true, search: true, within: { cls_cd: 'cls_cd' } }),
    to_sec_cd: link({ label: 'To Section', to: 'section', display: 'sec_nm', as: 'to_sec_nm', required: true, search: true, within: { cls_cd: 'cls_cd' } }),
    stud_intchg_dt: date({ label: 'Date', auto: 'created-at' }),
    stud_intchg_rsn: text({ label: 'Reason', required: true, search: true, max: 500 }),
    stud_intchg_by: text({ label: 'Done By', auto: 'updated-by-name', max: 150 }),
  },
  // A teacher sees the moves into the sections they are mapped to (the move needed both sections to be theirs).
  ownership: { through: 'subject_detail', match: { to_sec_cd: 'sec_cd' }, user: 'usr_cd' },
  routes: ['list', 'get'],
  // Latest move first.
  defaultSort: { field: 'stud_intchg_cd', dir: 'desc' },
});
