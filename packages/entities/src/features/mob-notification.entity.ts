import { code, date, defineEntity, link, number, select, text } from '../define';

/**
 * A message for the parents: drafted here, sent with 'Send to parents' to a class, a section or one student
 * (queued as a job), each recipient's delivery kept with its status. The count and, once sent, the status are
 * computed from those deliveries; Draft / Ready / Cancelled are set by hand with 'Take Action'.
 */
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
    // The message itself; mob_ntf_dtl_cnt is the count of recipients (issue 12, migration 0032 moved the texts).
    mob_ntf_dtl_msg: text({ label: 'Message', required: true, multiline: true, max: 1000 }),
    mob_ntf_dtl_cnt: number({ label: 'Recipients', int: true, min: 0, max: 1_000_000, readOnly: true }),
    // How the sending went, computed with the count: '3 families: 1 sent, 2 failed (no e-mail address: 1; ...)'.
    // Each family's own status and reason: GET /api/mob_notification/{id}/deliveries.
    mob_ntf_dtl_dlv: text({ label: 'Delivery', readOnly: true, max: 400 }),
    mob_ntf_dtl_sts: select({
      label: 'Status',
      options: ['Draft', 'Ready', 'Sending', 'Sent', 'Partly sent', 'Failed', 'Cancelled'],
      required: true,
      defaultValue: 'Draft',
      search: true,
    }),
    mob_ntf_dtl_crt_dt: date({ label: 'Created Date', auto: 'created-at' }),
  },
  actions: [{ button: 'take_action', label: 'Take Action', field: 'mob_ntf_dtl_sts' }],
  workflowButtons: [
    {
      button: 'send_to_parents',
      label: 'Send to Parents',
      path: 'send',
      target: 'path',
      confirm: "Send '{{title}}' to the parents chosen below? Each family is reached at the e-mail address on the student's record.",
      done: "'{{title}}' is queued: the result comes as a message when every family has been tried.",
      enabledWhen: { field: 'mob_ntf_dtl_sts', equals: ['Draft', 'Ready'] },
      inputs: {
        audience: select({ label: 'Send To', options: ['Class', 'Section', 'Student'], required: true, defaultValue: 'Class' }),
        cls_cd: link({ label: 'Class', to: 'class', display: 'cls_nm', as: 'cls_nm', required: true }),
        sec_cd: link({ label: 'Section (for a section)', to: 'section', display: 'sec_nm', as: 'sec_nm', within: { cls_cd: 'cls_cd' } }),
        stud_cd: link({ label: 'Student (for one student)', to: 'student', display: 'stud_fs_nm', as: 'stud_fs_nm' }),
      },
      idempotent: true,
    },
    {
      button: 'retry_failed',
      label: 'Retry Failed',
      path: 'retry',
      target: 'path',
      confirm: "Try again the families '{{title}}' did not reach?",
      done: "The failed deliveries of '{{title}}' are queued again.",
      enabledWhen: { field: 'mob_ntf_dtl_sts', equals: ['Partly sent', 'Failed'] },
    },
  ],
  defaultSort: { field: 'mob_ntf_dtl_cd', dir: 'desc' },
});
