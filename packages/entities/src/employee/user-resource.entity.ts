import { code, date, defineEntity, file, select, text } from '../define';

/** Material for staff (circular templates, syllabus copies, training slides). */
export const userResource = defineEntity({
  name: 'user_resource',
  // The spec's list call is plural.
  api: '/api/user_resources/',
  table: 'user_resource',
  key: 'usr_rscs_cd',
  scope: 'institute',
  label: 'Employee Resource',
  title: 'usr_rscs_ttl',
  fields: {
    usr_rscs_cd: code(),
    usr_rscs_ttl: text({ label: 'Title', required: true, search: true, max: 200 }),
    usr_rscs_typ: select({ label: 'Type', options: ['Document', 'Template', 'Syllabus', 'Presentation', 'Other'], required: true, defaultValue: 'Document', search: true }),
    // Who it is meant for. Stored and shown only: the list is not narrowed by it yet (see decisions).
    usr_rscs_mode: select({ label: 'Visible To', options: ['All Staff', 'Teaching Staff', 'Office Staff', 'Admins Only'], required: true, defaultValue: 'All Staff' }),
    usr_rscs_dscr: text({ label: 'Description', multiline: true, max: 2000 }),
    usr_rscs_fl: file({ label: 'File' }),
    usr_rscs_upl_dt: date({ label: 'Uploaded Date', auto: 'created-at' }),
  },
  defaultSort: { field: 'usr_rscs_upl_dt', dir: 'desc' },
});
