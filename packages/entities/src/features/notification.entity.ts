import { bool, code, date, datetime, defineEntity, json, link, number, select, text } from '../define';

/**
 * An alert staff see in the header's bell (fees due this week, leave letters to approve), defined by a
 * structured query (apps/server/src/engine/entity-query.ts) split over the spec's columns: ntf_qry
 * { entity, columns }, ntf_dt_fltr { field, from, to } (days from the run day), ntf_qry_whr_clmn
 * [{ field, op, value }], ntf_qry_lmt_clmn (a number of rows), ntf_qry_ord_clmn [{ field, dir }],
 * ntf_qry_grp_clmn [field]. The notification routes (workflows/notification-rules) check the assembled
 * definition against the registry on every save: never SQL text.
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
    // How many days ahead the rule looks, shown in the grid; the window itself is ntf_dt_fltr.
    ntf_mapp_day: number({ label: 'Days', max: 366 }),
    // An inactive rule is kept but not run by the daily job.
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
  // The spec's GET /api/notification/?ntf_crt_cd and ?ntf_id&ntf_crt_cd: the rules one user created, or one of them.
  specFilters: { ntf_id: 'ntf_id', ntf_crt_cd: 'creator' },
  defaultSort: { field: 'ntf_mapp_odr', dir: 'asc' },
});

/** Mapping weekdays ('Weekdays' is Monday to Saturday: Indian schools work Saturdays). */
export const NOTIFICATION_DAYS = ['Every day', 'Weekdays', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

/**
 * Which user gets which rule on which day (spec: ntf_mapp_*). Written and read only through the
 * notification mapping routes (workflows/notification-rules), under the notification page: no generic route.
 */
export const notificationMapping = defineEntity({
  name: 'notification_mapping',
  table: 'notification_mapping',
  key: 'ntf_mapp_cd',
  scope: 'institute',
  label: 'Notification Mapping',
  title: 'ntf_mapp_day',
  fields: {
    ntf_mapp_cd: code(),
    ntf_id: link({ label: 'Notification', to: 'notification', display: 'ntf_nm', as: 'ntf_nm', required: true }),
    ntf_mapp_usr_cd: link({ label: 'Employee', to: 'employee', display: 'usr_full_nm', as: 'usr_full_nm', required: true, anyOfMyInstitutes: true }),
    ntf_mapp_day: select({ label: 'Day', options: NOTIFICATION_DAYS, required: true }),
    ntf_mapp_sts: bool({ label: 'Active', defaultValue: true }),
    // The rule's place in the user's bell (lower first on the same day).
    ntf_mapp_odr: number({ label: 'Order', max: 9999 }),
    // Also e-mail each new notification to the employee's address on record (usr_eml), when SMTP_URL is set.
    ntf_mapp_eml: bool({ label: 'E-mail', defaultValue: false }),
  },
  uniqueTogether: [{ fields: ['ntf_id', 'ntf_mapp_usr_cd'], message: 'This notification is already mapped to this employee.' }],
  routes: [],
  defaultSort: { field: 'ntf_mapp_odr', dir: 'asc' },
});

/** What stored a bell notification: a rule's daily run, or a security alarm (a bulk-read crossing). */
export const USER_NOTIFICATION_KINDS = ['rule', 'security'] as const;
export type UserNotificationKind = (typeof USER_NOTIFICATION_KINDS)[number];

/**
 * One run of a rule for one user on one day, as the bell shows it. One row per user, rule and day (the
 * unique index): a retried or doubled daily job finds it there and writes nothing twice. A security alarm
 * (usr_ntf_kind 'security') belongs to no rule: it names the action-history row of the event in
 * usr_ntf_ref, one row per administrator and event (the second unique index), so two server instances
 * recording the same crossing store it once.
 */
export const userNotification = defineEntity({
  name: 'user_notification',
  table: 'user_notification',
  key: 'usr_ntf_cd',
  scope: 'institute',
  label: 'User Notification',
  title: 'usr_ntf_ttl',
  fields: {
    usr_ntf_cd: code(),
    usr_cd: link({ label: 'Employee', to: 'employee', display: 'usr_full_nm', as: 'usr_full_nm', required: true, anyOfMyInstitutes: true }),
    // Empty for a security alarm: no rule stored it, and none appears in the Notification grid for it.
    ntf_id: link({ label: 'Notification', to: 'notification', display: 'ntf_nm', as: 'ntf_nm' }),
    // Empty on the rows stored before the kinds existed: read as 'rule'.
    usr_ntf_kind: select({ label: 'Kind', options: USER_NOTIFICATION_KINDS }),
    // The record the notification is about, by kind: a security alarm's action-history code (actn_hsty_cd).
    usr_ntf_ref: number({ label: 'Reference' }),
    usr_ntf_dt: date({ label: 'Run Date', required: true }),
    // A security alarm's sentence names the reader and the counts: longer than a rule's name.
    usr_ntf_ttl: text({ label: 'Title', required: true, max: 400 }),
    usr_ntf_cnt: number({ label: 'Count' }),
    // The first rows (or groups) as the recipient's scope showed them at the run: the bell's preview.
    usr_ntf_rows: json({ label: 'Preview' }),
    usr_ntf_is_read: bool({ label: 'Read', defaultValue: false }),
    usr_ntf_read_at: datetime({ label: 'Read At' }),
    // When its e-mail was queued (the mapping asked for one): set once, so a retried or second run never mails twice.
    usr_ntf_eml_at: datetime({ label: 'E-mailed At' }),
  },
  uniqueTogether: [
    { fields: ['usr_cd', 'ntf_id', 'usr_ntf_dt'], message: 'This notification was already stored for this user today.' },
    // A rule's rows have no reference (NULLs never collide): this holds the security alarms to one per event.
    { fields: ['usr_cd', 'usr_ntf_kind', 'usr_ntf_ref'], message: 'This alarm was already stored for this user.' },
  ],
  routes: [],
  defaultSort: { field: 'usr_ntf_dt', dir: 'desc' },
});

/** A security alarm's facts (its usr_ntf_rows), so the bell can say it in the viewer's language. */
export interface SecurityAlarmFacts {
  usr_cd: number;
  usr_nm: string;
  usr_full_nm: string | null;
  rows: number;
  budget: number;
}

/** One stored notification of a user (a rule's run or a security alarm), as GET /api/notification/userNotification/{usercode} lists it. */
export interface UserNotification {
  usr_ntf_cd: number;
  usr_ntf_kind: UserNotificationKind;
  /** A security alarm's action-history code; null for a rule's run. */
  usr_ntf_ref: number | null;
  /** Null for a security alarm (no rule). */
  ntf_id: number | null;
  ntf_nm: string | null;
  usr_ntf_dt: string;
  usr_ntf_ttl: string;
  usr_ntf_cnt: number;
  usr_ntf_rows: unknown;
  usr_ntf_is_read: boolean;
  usr_ntf_read_at: string | null;
  crt_dt: string;
  entity: string | null;
  /** The rule's conditions and date window, for the list page it opens (the list's `rule` parameter). */
  rule_where: unknown;
  rule_date: unknown;
}
