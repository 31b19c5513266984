import { code, defineEntity, link, number, text } from '../define';

// `class` is a reserved word in TypeScript, hence the longer export name.
export const classEntity = defineEntity({
  name: 'class',
  table: 'class',
  key: 'cls_cd',
  scope: 'institute',
  label: 'Class',
  title: 'cls_nm',
  fields: {
    cls_cd: code(),
    cls_nm: text({ label: 'Class Name', required: true, search: true, unique: true, max: 60 }),
    // Alphabetical order puts 'X' before 'VI' and 'LKG' after 'I'; the clerk sets the real order once.
    cls_odr: number({ label: 'Order', max: 9999 }),
    cls_grp_id: link({ label: 'Class Group', to: 'class_group', display: 'cls_grp_nm', as: 'cls_grp_nm', search: true }),
    cls_desc: text({ label: 'Description', multiline: true, max: 500 }),
  },
  defaultSort: { field: 'cls_odr', dir: 'asc' },
});
