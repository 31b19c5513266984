import { code, date, defineEntity, select, text } from '../define';

/** A message for the parents' mobile app, drafted here and released with the take-action button. */
export const mobNotification = defineEntity({
  name: 'mob_notification',
  table: 'mob_notification',
  key: 'mob_ntf_dtl_cd',
  scope: 'institute',
  label: 'Mobile Notification',
  title: 'mob_ntf_dtl_sub',
  fields: {
    mob_ntf_dtl_cd: code(),
    mob_ntf_dtl_sub: text({ label: 'Subject', required: true, search: true, max: 200 }),
    // 'cnt' read as content (the message next to its subject), not a count: see decisions.
    mob_ntf_dtl_cnt: text({ label: 'Message', required: true, multiline: true, max: 1000 }),
    mob_ntf_dtl_sts: select({ label: 'Status', options: ['Draft', 'Ready', 'Sent', 'Cancelled'], required: true, defaultValue: 'Draft', search: true }),
    mob_ntf_dtl_crt_dt: date({ label: 'Created Date', auto: 'created-at' }),
  },
  actions: [{ button: 'take_action', label: 'Take Action', field: 'mob_ntf_dtl_sts' }],
  defaultSort: { field: 'mob_ntf_dtl_cd', dir: 'desc' },
});
