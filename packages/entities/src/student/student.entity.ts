import { code, date, defineEntity, image, link, number, select, text } from '../define';

/**
 * A student as enrolled in one academic year: the class and section are that year's. Moving a student on to
 * the next year (promotion) is a workflow of its own that writes next year's row; this row keeps last year's
 * class for its fees and marks.
 */
export const student = defineEntity({
  name: 'student',
  table: 'student',
  key: 'stud_cd',
  scope: 'academic-year',
  label: 'Student',
  title: 'stud_fs_nm',
  fields: {
    stud_cd: code(),
    stud_fs_nm: text({ label: 'Student Name', required: true, search: true, max: 150 }),
    stud_nm_ntv_lang: text({ label: 'Name in Native Language', max: 150, gridHidden: true }),
    // Unique within the scope (institute and year): next year's row of the same student keeps the number.
    stud_adm_cd: text({ label: 'Admission No', required: true, search: true, exactCode: true, unique: true, max: 40 }),
    stud_roll_nmb: number({ label: 'Roll No', min: 1, max: 9999 }),
    // Not in the quick search: a class or section is one of a few names, narrowed by the list's filters (f_cls_cd,
    // f_sec_cd); an OR with another table's names kept the search off its indexes (issue 10).
    cls_cd: link({ label: 'Class', to: 'class', display: 'cls_nm', as: 'cls_nm', required: true }),
    // Must be a section of the chosen class: checked by the student hooks on every write.
    sec_cd: link({ label: 'Section', to: 'section', display: 'sec_nm', as: 'sec_nm', required: true, within: { cls_cd: 'cls_cd' } }),
    medium: select({ label: 'Medium', options: ['English', 'Tamil', 'Hindi', 'Malayalam', 'Telugu', 'Kannada', 'Other'] }),
    // Not in the spec's list: the admission form asks it and a transfer certificate must state it.
    stud_dob: date({ label: 'Date of Birth', gridHidden: true }),
    stud_doj: date({ label: 'Date of Joining', defaultValue: 'today', notBefore: 'stud_dob' }),
    stud_gnd: select({ label: 'Gender', options: ['Male', 'Female', 'Other'] }),
    stud_fthr_nm: text({ label: "Father's Name", max: 150 }),
    stud_mthr_nm: text({ label: "Mother's Name", max: 150 }),
    stud_ph: text({ label: 'Phone', format: 'phone', search: true, max: 20 }),
    stud_eml: text({ label: 'E-mail', format: 'email', max: 150 }),
    stud_photo: image({ label: 'Photo', gridHidden: true }),
    stud_per_adr: text({ label: 'Permanent Address', multiline: true, max: 500 }),
    // Not in the spec's list; kept for certificates and government returns, off the default grid.
    rgn_cd: link({ label: 'Religion', to: 'religion', display: 'rgn_nm', as: 'rgn_nm', gridHidden: true }),
    cmty_cd: link({ label: 'Community', to: 'community', display: 'cmty_nm', as: 'cmty_nm', gridHidden: true }),
    // The promotion that wrote this row (next year's row of a promoted child), so undoing it removes exactly
    // its rows; empty for a child admitted or typed in this year.
    prmtn_cd: link({ label: 'Promotion', to: 'promotion', display: 'prmtn_cd', as: 'prmtn_no', readOnly: true, internal: true }),
  },
  // 'His students only': the students of the sections the teacher is mapped to this year (subject mapping).
  ownership: { through: 'subject_detail', match: { sec_cd: 'sec_cd' }, user: 'usr_cd' },
  defaultSort: { field: 'stud_fs_nm', dir: 'asc' },
});
