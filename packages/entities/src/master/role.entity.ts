import { code, defineEntity, text } from '../define';

export const role = defineEntity({
  name: 'role',
  table: 'role',
  key: 'rl_cd',
  scope: 'institute',
  label: 'Role',
  title: 'rl_nm',
  fields: {
    rl_cd: code(),
    // A role whose name contains ADMIN or HEAD makes its users admins (spec section 6).
    rl_nm: text({ label: 'Role Name', required: true, search: true, unique: true, max: 100 }),
    rl_dscr: text({ label: 'Description', multiline: true, max: 500 }),
  },
  defaultSort: { field: 'rl_nm', dir: 'asc' },
});
