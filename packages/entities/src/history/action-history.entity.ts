import { code, date, defineEntity, json, link, text, time } from '../define';

/** Audit trail: every write through the API, with the row before and after. */
export const actionHistory = defineEntity({
  name: 'action_history',
  api: '/api/action_history/actionhistory',
  table: 'action_history',
  key: 'actn_hsty_cd',
  scope: 'institute',
  label: 'Action History',
  title: 'actn_hsty_pg_nm',
  fields: {
    actn_hsty_cd: code(),
    usr_cd: link({ label: 'Employee', to: 'employee', display: 'usr_full_nm', as: 'usr_full_nm', readOnly: true, search: true }),
    actn_hsty_mdl: text({ label: 'Module', readOnly: true, search: true, max: 60 }),
    actn_hsty_pg_nm: text({ label: 'Page', readOnly: true, search: true, max: 60 }),
    actn_hsty_mthd: text({ label: 'Method', readOnly: true, search: true, max: 10 }),
    actn_hsty_entity: text({ label: 'Entity', readOnly: true, search: true, max: 60 }),
    actn_hsty_row_key: text({ label: 'Record', readOnly: true, search: true, max: 60 }),
    actn_hsty_dt: date({ label: 'Date', readOnly: true }),
    actn_hsty_tm: time({ label: 'Time', readOnly: true }),
    actn_hsty_ip: text({ label: 'IP Address', readOnly: true, max: 60 }),
    actn_hsty_pfm: text({ label: 'Platform', readOnly: true, max: 60 }),
    actn_hsty_before: json({ label: 'Before', readOnly: true, gridHidden: true }),
    actn_hsty_after: json({ label: 'After', readOnly: true, gridHidden: true }),
  },
  routes: ['list', 'get'],
  // Under 'his students only': the history of records that are the user's (his students, himself), by the
  // entity and key each entry names. Entries about anything else (a class, a religion, an import) are no one's.
  ownership: { entity: 'actn_hsty_entity', key: 'actn_hsty_row_key' },
  defaultSort: { field: 'actn_hsty_cd', dir: 'desc' },
});
