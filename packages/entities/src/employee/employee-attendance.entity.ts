import { code, date, defineEntity, number, select, time } from '../define';

/** One day's staff attendance in figures: how many staff, present, absent and out on duty. */
export const employeeAttendance = defineEntity({
  name: 'employee_attendance',
  table: 'employee_attendance',
  key: 'usr_atnc_cd',
  scope: 'academic-year',
  label: 'Employee Attendance',
  title: 'usr_atnc_dt',
  fields: {
    usr_atnc_cd: code(),
    usr_atnc_dt: date({ label: 'Date', required: true, unique: true }),
    // Typed, not derived from the date: the engine has no computed fields (see decisions).
    usr_atnc_day: select({ label: 'Day', options: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'], required: true, defaultValue: 'Monday' }),
    usr_atnc_tot_usr: number({ label: 'Total Staff', required: true, max: 99999 }),
    usr_atnc_tot_prst: number({ label: 'Present', required: true, max: 99999 }),
    usr_atnc_tot_abst: number({ label: 'Absent', required: true, max: 99999 }),
    usr_atnc_tot_out: number({ label: 'On Duty Outside', max: 99999 }),
    // The institute's working hours that day (a half day closes early).
    usr_atnc_in_tme: time({ label: 'In Time' }),
    usr_atnc_out_tme: time({ label: 'Out Time' }),
  },
  defaultSort: { field: 'usr_atnc_dt', dir: 'desc' },
});
