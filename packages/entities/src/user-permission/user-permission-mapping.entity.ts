import { code, defineEntity, link, text } from '../define';

/** User-to-group mapping: a group's permissions apply to every member. */
export const userPermissionMapping = defineEntity({
  name: 'user_permission_mapping',
  table: 'user_permission_mapping',
  key: 'up_map_cd',
  scope: 'institute',
  label: 'Permission Mapping',
  title: 'up_map_cd',
  fields: {
    up_map_cd: code(),
    upg_cd: link({ label: 'Permission Group', to: 'user_permission_group', display: 'upg_nm', as: 'upg_nm', required: true, search: true }),
    usr_cd: link({ label: 'Employee', to: 'employee', display: 'usr_full_nm', as: 'usr_full_nm', required: true, search: true, anyOfMyInstitutes: true }),
    up_map_dscr: text({ label: 'Description', max: 300 }),
  },
  uniqueTogether: [{ fields: ['upg_cd', 'usr_cd'], message: 'This employee is already in the group.' }],
});
