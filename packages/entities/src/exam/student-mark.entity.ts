import { bool, code, defineEntity, link, number, text } from '../define';

/**
 * One student's marks in one subject of one exam, as typed on the entry sheet (the enter-marks workflow).
 * Class and section are the exam's, stored on the row so that 'his students only' reads the section the
 * marks were written for, whatever section the student sits in later.
 */
export const studentMark = defineEntity({
  name: 'student_mark',
  table: 'student_mark',
  key: 'stud_mrk_cd',
  scope: 'academic-year',
  label: 'Student Mark',
  title: 'stud_mrk_cd',
  fields: {
    stud_mrk_cd: code(),
    stud_cd: link({ label: 'Student', to: 'student', display: 'stud_fs_nm', as: 'stud_fs_nm', required: true, search: true }),
    exm_cd: link({ label: 'Exam', to: 'exam', display: 'exm_nm', as: 'exm_nm', required: true, search: true }),
    sub_cd: link({ label: 'Subject', to: 'subject', display: 'sub_nm', as: 'sub_nm', required: true, search: true }),
    // The exam-subject row whose maximum the marks are out of.
    mrk_cd: link({ label: 'Maximum Mark', to: 'mark', display: 'mrk_max_mrk', as: 'mrk_max_mrk', required: true }),
    cls_cd: link({ label: 'Class', to: 'class', display: 'cls_nm', as: 'cls_nm', required: true, search: true }),
    sec_cd: link({ label: 'Section', to: 'section', display: 'sec_nm', as: 'sec_nm', required: true, search: true, within: { cls_cd: 'cls_cd' } }),
    // Half marks happen (a 2.5-mark question); the sheet accepts steps of 0.5, stored exactly as numeric.
    stud_mrk_obt: number({ label: 'Marks Obtained', min: 0, max: 1000, int: false }),
    // Absent means no marks: the sheet stores null marks for an absent student.
    stud_mrk_abs: bool({ label: 'Absent' }),
    stud_mrk_rmks: text({ label: 'Remarks', max: 200 }),
    stud_mrk_entd_by: text({ label: 'Entered By', auto: 'updated-by-name', max: 150 }),
  },
  uniqueTogether: [{ fields: ['stud_cd', 'mrk_cd'], message: "This student's marks for this subject are already entered." }],
  // A teacher sees the marks of the sections they are mapped to (the exam's section).
  ownership: { through: 'subject_detail', match: { sec_cd: 'sec_cd' }, user: 'usr_cd' },
  // Written only by the entry sheet, which checks each student against the exam and each mark against its maximum.
  routes: ['list', 'get'],
  defaultSort: { field: 'exm_cd', dir: 'asc' },
});
