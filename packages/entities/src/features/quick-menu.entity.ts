import { code, defineEntity, number, text } from '../define';

/** Shortcuts to often used pages, shown on the dashboard. */
export const quickMenu = defineEntity({
  name: 'quick_menu',
  table: 'quick_menu',
  key: 'qm_cd',
  scope: 'institute',
  label: 'Quick Menu',
  title: 'qm_pg_nm',
  fields: {
    qm_cd: code(),
    qm_pg_nm: text({ label: 'Page Name', required: true, search: true, unique: true, max: 100 }),
    // A page path such as sms/fee/fee_type; opening it still goes through the user's page permission.
    qm_pg_pth: text({ label: 'Page Path', required: true, search: true, max: 200 }),
    // A Tabler icon name, like the side menu's.
    qm_pg_icn: text({ label: 'Icon', max: 60 }),
    qm_ord: number({ label: 'Order', max: 9999 }),
  },
  defaultSort: { field: 'qm_ord', dir: 'asc' },
});
