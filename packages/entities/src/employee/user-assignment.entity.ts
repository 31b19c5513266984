import { code, date, defineEntity, link, select, text } from '../define';

/** A task given to a member of staff (prepare the timetable, submit mark sheets), followed to done. */
export const userAssignment = defineEntity({
  name: 'user_assignment',
  table: 'user_assignment',
  key: 'usr_asgmt_cd',
  scope: 'institute',
  label: 'Employee Assignment',
  title: 'usr_asgmt_ttl',
  fields: {
    usr_asgmt_cd: code(),
    usr_asgmt_ttl: text({ label: 'Title', required: true, search: true, max: 200 }),
    usr_cd: link({ label: 'Assigned To', to: 'employee', display: 'usr_full_nm', as: 'usr_full_nm', required: true, search: true }),
    usr_asgmt_dscr: text({ label: 'Description', multiline: true, max: 2000, gridHidden: true }),
    usr_asgmt_due_dt: date({ label: 'Due Date', required: true }),
    usr_asgmt_sts: select({ label: 'Status', options: ['Open', 'In Progress', 'Done', 'Cancelled'], required: true, defaultValue: 'Open', search: true }),
    // The spec's crt_by is the creator column every table already has (see decisions); this shows its name.
    usr_asgmt_crt_by: text({ label: 'Created By', auto: 'created-by', max: 60 }),
  },
  actions: [{ button: 'take_action', label: 'Take Action', field: 'usr_asgmt_sts' }],
  defaultSort: { field: 'usr_asgmt_due_dt', dir: 'desc' },
});
