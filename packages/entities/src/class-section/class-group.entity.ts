import { code, defineEntity, text } from '../define';

/** Groups classes for reports and fee set-up (Primary, Middle, Higher Secondary...). */
export const classGroup = defineEntity({
  name: 'class_group',
  table: 'class_group',
  key: 'cls_grp_id',
  scope: 'institute',
  label: 'Class Group',
  title: 'cls_grp_nm',
  fields: {
    cls_grp_id: code(),
    cls_grp_nm: text({ label: 'Class Group Name', required: true, search: true, unique: true, max: 100 }),
  },
  defaultSort: { field: 'cls_grp_nm', dir: 'asc' },
});
