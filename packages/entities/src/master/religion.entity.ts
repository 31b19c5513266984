import { code, defineEntity, text } from '../define';

export const religion = defineEntity({
  name: 'religion',
  table: 'religion',
  key: 'rgn_cd',
  scope: 'institute',
  label: 'Religion',
  title: 'rgn_nm',
  fields: {
    rgn_cd: code(),
    rgn_nm: text({ label: 'Religion Name', required: true, search: true, unique: true, max: 100 }),
    rgn_desc: text({ label: 'Description', multiline: true, max: 500, search: true }),
  },
  defaultSort: { field: 'rgn_nm', dir: 'asc' },
});
