import { code, date, defineEntity, link, number } from '../define';

/** How many of a section's students were present, absent and on duty on one day (from student_attendance). */
export const studentDaywiseAttendanceSummary = defineEntity({
  name: 'student_daywise_attendance_summary',
  table: 'student_daywise_attendance_summary',
  key: 'stud_attn_sum_cd',
  scope: 'academic-year',
  label: 'Daywise Attendance',
  title: 'stud_attn_sum_cd',
  fields: {
    stud_attn_sum_cd: code(),
    stud_attn_sum_day: date({ label: 'Day', required: true }),
    // The class only makes the section readable ('VI' next to 'A'); the section decides.
    cls_cd: link({ label: 'Class', to: 'class', display: 'cls_nm', as: 'cls_nm', required: true, search: true }),
    sec_cd: link({ label: 'Section', to: 'section', display: 'sec_nm', as: 'sec_nm', required: true, search: true, within: { cls_cd: 'cls_cd' } }),
    stud_attn_sum_psnt_cnt: number({ label: 'Present', required: true, max: 9999 }),
    stud_attn_sum_absnt_cnt: number({ label: 'Absent', required: true, max: 9999 }),
    stud_attn_sum_od_cnt: number({ label: 'On Duty', max: 9999 }),
  },
  uniqueTogether: [{ fields: ['sec_cd', 'stud_attn_sum_day'], message: "This section's attendance for this day already exists." }],
  // A teacher sees the days of the sections they are mapped to.
  ownership: { through: 'subject_detail', match: { sec_cd: 'sec_cd' }, user: 'usr_cd' },
  // Counted from the students' rows by the mark-attendance sheet on every save: a typed count would drift
  // from the rows (and be overwritten by the next save), so nobody writes one by hand.
  routes: ['list', 'get'],
  defaultSort: { field: 'stud_attn_sum_day', dir: 'desc' },
});
