import { code, defineEntity, text } from '../define';

export const subject = defineEntity({
  name: 'subject',
  table: 'subject',
  key: 'sub_cd',
  scope: 'institute',
  label: 'Subject',
  title: 'sub_nm',
  fields: {
    sub_cd: code(),
    sub_nm: text({ label: 'Subject Name', required: true, search: true, unique: true, max: 100 }),
    sub_dscr: text({ label: 'Description', multiline: true, max: 500 }),
  },
  defaultSort: { field: 'sub_nm', dir: 'asc' },
});
