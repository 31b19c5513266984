import { code, defineEntity, link, text } from '../define';

export const section = defineEntity({
  name: 'section',
  table: 'section',
  key: 'sec_cd',
  scope: 'institute',
  label: 'Section',
  title: 'sec_nm',
  fields: {
    sec_cd: code(),
    // Not unique on its own: every class has its 'A' section.
    sec_nm: text({ label: 'Section Name', required: true, search: true, max: 60 }),
    cls_cd: link({ label: 'Class', to: 'class', display: 'cls_nm', as: 'cls_nm', required: true, search: true }),
    sec_desc: text({ label: 'Description', multiline: true, max: 500 }),
  },
  uniqueTogether: [{ fields: ['cls_cd', 'sec_nm'], message: 'This class already has a section with this name.' }],
  defaultSort: { field: 'sec_nm', dir: 'asc' },
});
