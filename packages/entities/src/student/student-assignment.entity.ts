import { code, date, defineEntity, link, select, text } from '../define';

/** Homework or a project set for one subject of one section. */
export const studentAssignment = defineEntity({
  name: 'student_assignment',
  table: 'student_assignment',
  key: 'stud_asgmt_cd',
  scope: 'academic-year',
  label: 'Assignment',
  title: 'stud_asgmt_ttl',
  fields: {
    stud_asgmt_cd: code(),
    stud_asgmt_ttl: text({ label: 'Title', required: true, search: true, max: 200 }),
    cls_cd: link({ label: 'Class', to: 'class', display: 'cls_nm', as: 'cls_nm', required: true, search: true }),
    sec_cd: link({ label: 'Section', to: 'section', display: 'sec_nm', as: 'sec_nm', required: true, search: true, within: { cls_cd: 'cls_cd' } }),
    sub_cd: link({ label: 'Subject', to: 'subject', display: 'sub_nm', as: 'sub_nm', required: true, search: true }),
    stud_asgmt_dscr: text({ label: 'Description', multiline: true, max: 2000, gridHidden: true }),
    stud_asgmt_due_dt: date({ label: 'Due Date', required: true }),
    stud_asgmt_sts: select({ label: 'Status', options: ['Draft', 'Published', 'Closed'], required: true, defaultValue: 'Draft', search: true }),
    stud_asgmt_crt_dt: date({ label: 'Created Date', auto: 'created-at' }),
  },
  actions: [{ button: 'take_action', label: 'Take Action', field: 'stud_asgmt_sts' }],
  // A teacher's assignments are those of the subjects they teach in their sections.
  ownership: { through: 'subject_detail', match: { sec_cd: 'sec_cd', sub_cd: 'sub_cd' }, user: 'usr_cd' },
  defaultSort: { field: 'stud_asgmt_due_dt', dir: 'desc' },
});
