import { code, date, defineEntity, link, select, text, time } from '../define';

export const loginHistory = defineEntity({
  name: 'login_history',
  api: '/api/login_history/loginhistory',
  table: 'login_history',
  key: 'log_hsty_cd',
  scope: 'institute',
  label: 'Login History',
  title: 'log_hsty_typ',
  fields: {
    log_hsty_cd: code(),
    usr_cd: link({ label: 'Employee', to: 'employee', display: 'usr_full_nm', as: 'usr_full_nm', readOnly: true, search: true }),
    log_hsty_usr_nm: text({ label: 'Login Id', readOnly: true, search: true, max: 60 }),
    log_hsty_typ: select({ label: 'Type', options: ['LOGIN', 'LOGOUT', 'FAILED', 'LOCKED'], readOnly: true }),
    log_hsty_pfm: text({ label: 'Platform', readOnly: true, max: 60 }),
    log_hsty_ip: text({ label: 'IP Address', readOnly: true, search: true, max: 60 }),
    log_hsty_dt: date({ label: 'Date', readOnly: true }),
    log_hsty_tm: time({ label: 'Time', readOnly: true }),
  },
  routes: ['list', 'get'],
  // Under 'his students only': the user's own sign-ins (the employee's rule is 'self').
  ownership: { via: 'usr_cd' },
  defaultSort: { field: 'log_hsty_cd', dir: 'desc' },
});
