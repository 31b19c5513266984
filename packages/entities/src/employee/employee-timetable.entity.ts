import { code, defineEntity, link, number, select } from '../define';

/** One period of a teacher's week: which subject, to which section, on which day and period. */
export const employeeTimetable = defineEntity({
  name: 'employee_timetable',
  table: 'employee_timetable',
  key: 'emp_tme_tbl_cd',
  // A timetable follows one year's subject mapping.
  scope: 'academic-year',
  label: 'Employee Timetable',
  title: 'emp_tme_tbl_cd',
  fields: {
    emp_tme_tbl_cd: code(),
    usr_cd: link({ label: 'Teacher', to: 'employee', display: 'usr_full_nm', as: 'usr_full_nm', required: true, search: true }),
    emp_tme_tbl_day: select({ label: 'Day', options: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'], required: true, defaultValue: 'Monday' }),
    emp_tme_tbl_prd: number({ label: 'Period', required: true, min: 1, max: 16 }),
    cls_cd: link({ label: 'Class', to: 'class', display: 'cls_nm', as: 'cls_nm', required: true, search: true }),
    sec_cd: link({ label: 'Section', to: 'section', display: 'sec_nm', as: 'sec_nm', required: true, search: true, within: { cls_cd: 'cls_cd' } }),
    sub_cd: link({ label: 'Subject', to: 'subject', display: 'sub_nm', as: 'sub_nm', required: true, search: true }),
  },
  uniqueTogether: [
    { fields: ['usr_cd', 'emp_tme_tbl_day', 'emp_tme_tbl_prd'], message: 'This teacher already has a class in this period.' },
    { fields: ['sec_cd', 'emp_tme_tbl_day', 'emp_tme_tbl_prd'], message: 'This section already has a subject in this period.' },
  ],
  // Under 'his students only' (the demo's class teachers hold this page so): the teacher's own periods.
  ownership: { via: 'usr_cd' },
  defaultSort: { field: 'usr_cd', dir: 'asc' },
});
