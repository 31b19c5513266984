import { code, date, defineEntity, link, select, text } from '../define';

/**
 * One student's attendance on one day, as marked on the section's sheet (the mark-attendance workflow).
 * Class and section are those of the day, so a student moved to another section later still counts in the
 * section he sat in; the daywise summary is recomputed from these rows on every save.
 */
export const studentAttendance = defineEntity({
  name: 'student_attendance',
  table: 'student_attendance',
  key: 'stud_attn_cd',
  scope: 'academic-year',
  label: 'Attendance',
  title: 'stud_attn_dt',
  fields: {
    stud_attn_cd: code(),
    stud_attn_dt: date({ label: 'Date', required: true, search: true }),
    stud_cd: link({ label: 'Student', to: 'student', display: 'stud_fs_nm', as: 'stud_fs_nm', required: true, search: true }),
    cls_cd: link({ label: 'Class', to: 'class', display: 'cls_nm', as: 'cls_nm', required: true, search: true }),
    sec_cd: link({ label: 'Section', to: 'section', display: 'sec_nm', as: 'sec_nm', required: true, search: true, within: { cls_cd: 'cls_cd' } }),
    stud_attn_sts: select({ label: 'Status', options: ['Present', 'Absent', 'OD'], optionLabels: { OD: 'On Duty' }, required: true, defaultValue: 'Present', search: true }),
    stud_attn_rmks: text({ label: 'Remarks', max: 200 }),
    // Whoever saved the sheet last: a correction re-stamps it.
    stud_attn_mrkd_by: text({ label: 'Marked By', auto: 'updated-by-name', max: 150 }),
  },
  uniqueTogether: [{ fields: ['stud_cd', 'stud_attn_dt'], message: "This student's attendance for this day is already marked." }],
  // A teacher sees the days of the sections they are mapped to (the section of the day, not today's).
  ownership: { through: 'subject_detail', match: { sec_cd: 'sec_cd' }, user: 'usr_cd' },
  // Written only by the marking sheet, which also keeps the daywise summary in step: a generic edit would not.
  routes: ['list', 'get'],
  defaultSort: { field: 'stud_attn_dt', dir: 'desc' },
});
