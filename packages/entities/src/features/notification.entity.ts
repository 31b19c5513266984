import { bool, code, defineEntity, json, number, text } from '../define';

/**
 * An alert staff see on sign-in (fees due this week, birthdays today), defined by a structured query. The
 * query parts are JSON, stored as sent: the notification workflow that runs them will validate their shape
 * (tables and columns from a fixed list, never SQL text) before anything executes.
 */
export const notification = defineEntity({
  name: 'notification',
  table: 'notification',
  key: 'ntf_id',
  scope: 'institute',
  label: 'Notification',
  title: 'ntf_nm',
  fields: {
    ntf_id: code(),
    // A short stable code (FEE_DUE) the mobile app and the user mapping can refer to whatever the name says.
    ntf_cd: text({ label: 'Notification Code', required: true, search: true, unique: true, format: 'upper-code', max: 40 }),
    ntf_nm: text({ label: 'Notification Name', required: true, search: true, unique: true, max: 100 }),
    // How many days ahead the date filter looks (fees due within N days); 0 is today only.
    ntf_mapp_day: number({ label: 'Days', max: 366 }),
    ntf_mapp_sts: bool({ label: 'Active', defaultValue: true }),
    ntf_mapp_odr: number({ label: 'Order', max: 9999 }),
    // Not in the spec: what the alert is for, for whoever maps it to users later.
    ntf_dscr: text({ label: 'Description', multiline: true, max: 500 }),
    ntf_qry: json({ label: 'Query', gridHidden: true }),
    ntf_dt_fltr: json({ label: 'Date Filter', gridHidden: true }),
    ntf_qry_whr_clmn: json({ label: 'Where Columns', gridHidden: true }),
    ntf_qry_lmt_clmn: json({ label: 'Limit', gridHidden: true }),
    ntf_qry_ord_clmn: json({ label: 'Order Columns', gridHidden: true }),
    ntf_qry_grp_clmn: json({ label: 'Group Columns', gridHidden: true }),
  },
  defaultSort: { field: 'ntf_mapp_odr', dir: 'asc' },
});
