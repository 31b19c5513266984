import { code, date, defineEntity, text } from '../define';

export const userPermissionGroup = defineEntity({
  name: 'user_permission_group',
  table: 'user_permission_group',
  key: 'upg_cd',
  scope: 'institute',
  label: 'Permission Group',
  title: 'upg_nm',
  fields: {
    upg_cd: code(),
    upg_nm: text({ label: 'Group Name', required: true, search: true, unique: true, max: 100 }),
    upg_desc: text({ label: 'Description', multiline: true, max: 500, search: true }),
    upg_crt_by: text({ label: 'Created By', auto: 'created-by', max: 60 }),
    upg_crt_dt: date({ label: 'Created Date', auto: 'created-at' }),
  },
  defaultSort: { field: 'upg_nm', dir: 'asc' },
});
