import { code, date, defineEntity, link, select, text } from '../define';

/**
 * A pre-admission: an enquiry or application before the child is a student. Turning an admitted one into a
 * student is the page's 'admit' workflow, not an edit of this row.
 */
export const studentAdmission = defineEntity({
  name: 'student_admission',
  table: 'student_admission',
  key: 'stud_admn_cd',
  // Applications are for one year's intake.
  scope: 'academic-year',
  label: 'Admission',
  title: 'stud_admn_stud_nm',
  fields: {
    stud_admn_cd: code({ label: 'Application No' }),
    stud_admn_dt: date({ label: 'Admission Date', required: true, defaultValue: 'today' }),
    stud_admn_stud_nm: text({ label: 'Student Name', required: true, search: true, max: 150 }),
    stud_admn_stud_dob: date({ label: 'Date of Birth' }),
    stud_admn_stud_mob: text({ label: 'Mobile', format: 'phone', search: true, max: 20 }),
    // Not in the spec's list; the admit workflow needs the class applied for.
    cls_cd: link({ label: 'Class Applied For', to: 'class', display: 'cls_nm', as: 'cls_nm' }),
    // No 'take action' here (spec section 4): the status is edited in the form.
    stud_admn_status: select({
      label: 'Status',
      options: ['Enquiry', 'Applied', 'Shortlisted', 'Admitted', 'Rejected', 'Withdrawn'],
      required: true,
      defaultValue: 'Enquiry',
      search: true,
    }),
    // Written by the admit workflow: the student this application became (its admission number is shown).
    stud_cd: link({ label: 'Student', to: 'student', display: 'stud_adm_cd', as: 'stud_adm_cd', readOnly: true }),
  },
  // The admit workflow (workflows/admit-student): one application becomes this year's student.
  workflowButtons: [
    {
      button: 'admit',
      label: 'Admit',
      path: 'admit',
      confirm: 'Admit {{title}} as a student of this year?',
      done: '{{title}} is admitted.',
      enabledWhen: { field: 'stud_admn_status', equals: ['Enquiry', 'Applied', 'Shortlisted'] },
      inputs: {
        // The class applied for, from the row; the section is chosen among that class's sections.
        cls_cd: link({ label: 'Class', to: 'class', display: 'cls_nm', as: 'cls_nm', required: true }),
        sec_cd: link({ label: 'Section', to: 'section', display: 'sec_nm', as: 'sec_nm', required: true, within: { cls_cd: 'cls_cd' } }),
        stud_doj: date({ label: 'Date of Joining', defaultValue: 'today' }),
      },
      idempotent: true,
      opens: 'student',
    },
  ],
  // Under 'his students only': the applications for the classes the teacher teaches this year.
  ownership: { through: 'subject_detail', match: { cls_cd: 'cls_cd' }, user: 'usr_cd' },
  defaultSort: { field: 'stud_admn_dt', dir: 'desc' },
});
