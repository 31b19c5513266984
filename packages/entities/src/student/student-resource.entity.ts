import { code, date, defineEntity, file, link, select, text } from '../define';

/** Study material for students (notes, question papers), kept from year to year. */
export const studentResource = defineEntity({
  name: 'student_resource',
  // The spec's list call is plural.
  api: '/api/student_resources/',
  table: 'student_resource',
  key: 'stud_rscs_cd',
  // Last year's notes are still good notes: material belongs to the institute, not to one year.
  scope: 'institute',
  label: 'Resource',
  title: 'stud_rscs_ttl',
  fields: {
    stud_rscs_cd: code(),
    stud_rscs_ttl: text({ label: 'Title', required: true, search: true, max: 200 }),
    stud_rscs_typ: select({ label: 'Type', options: ['Notes', 'Question Paper', 'Worksheet', 'Presentation', 'Other'], required: true, defaultValue: 'Notes', search: true }),
    // Optional: some material is for the whole school (a library guide).
    cls_cd: link({ label: 'Class', to: 'class', display: 'cls_nm', as: 'cls_nm', search: true }),
    sub_cd: link({ label: 'Subject', to: 'subject', display: 'sub_nm', as: 'sub_nm', search: true }),
    stud_rscs_dscr: text({ label: 'Description', multiline: true, max: 2000 }),
    // Optional so that a resource can be listed before its file is scanned.
    stud_rscs_fl: file({ label: 'File' }),
    stud_rscs_upl_dt: date({ label: 'Uploaded Date', auto: 'created-at' }),
  },
  // No section on the row, so a teacher's own material is what they uploaded.
  ownership: 'creator',
  defaultSort: { field: 'stud_rscs_upl_dt', dir: 'desc' },
});
