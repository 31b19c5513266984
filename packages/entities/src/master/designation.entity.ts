import { code, defineEntity, number, text } from '../define';

export const designation = defineEntity({
  name: 'designation',
  table: 'designation',
  key: 'desg_cd',
  scope: 'institute',
  label: 'Designation',
  title: 'desg_nm',
  fields: {
    desg_cd: code(),
    desg_nm: text({ label: 'Designation Name', required: true, search: true, unique: true, max: 100 }),
    desg_odr: number({ label: 'Order', max: 9999 }),
    desg_desc: text({ label: 'Description', multiline: true, max: 500 }),
  },
  defaultSort: { field: 'desg_odr', dir: 'asc' },
});
