import { code, date, defineEntity, file, select, text } from '../define';

/** A notice sent round to staff and parents, with an optional attachment (an image or a PDF). */
export const circular = defineEntity({
  name: 'circular',
  table: 'circular',
  key: 'crlr_cd',
  scope: 'academic-year',
  label: 'Circular',
  title: 'crlr_sub',
  fields: {
    crlr_cd: code(),
    // Not unique: 'Holiday notice' recurs within a year.
    crlr_sub: text({ label: 'Subject', required: true, search: true, max: 200 }),
    crlr_dscr: text({ label: 'Description', multiline: true, max: 4000 }),
    crlr_dt: date({ label: 'Circular Date', required: true, defaultValue: 'today' }),
    crlr_crt_dt: date({ label: 'Created Date', auto: 'created-at' }),
    crlr_atch: file({ label: 'Attachment' }),
  },
  workflowButtons: [
    {
      button: 'send_mail',
      label: 'Send by E-mail',
      path: 'mail',
      target: 'path',
      confirm: "E-mail '{{title}}' to the people chosen below? Addresses come from their records.",
      done: "'{{title}}' is queued for e-mail: the result comes as a message when it has gone.",
      inputs: {
        recipients: select({ label: 'Send To', options: ['Staff', 'Parents', 'Staff and parents'], required: true, defaultValue: 'Staff' }),
      },
    },
  ],
  // Newest notice first.
  defaultSort: { field: 'crlr_dt', dir: 'desc' },
});
