import { code, defineEntity, link, number, text } from '../define';

/**
 * A user's own shortcuts to often used pages, shown in the header. Every row is one user's (usr_cd, set by
 * the server from the session): the list, the add and the header's editor read and write the signed-in
 * user's rows only (workflows/dashboard/quick-menu.handler.ts), and a shortcut to a page the user may not
 * open is not listed.
 */
export const quickMenu = defineEntity({
  name: 'quick_menu',
  table: 'quick_menu',
  key: 'qm_cd',
  scope: 'institute',
  label: 'Quick Menu',
  title: 'qm_pg_nm',
  fields: {
    qm_cd: code(),
    qm_pg_nm: text({ label: 'Page Name', required: true, search: true, max: 100 }),
    // A page path such as sms/fee/fee_type; opening it still goes through the user's page permission.
    qm_pg_pth: text({ label: 'Page Path', required: true, search: true, max: 200 }),
    // A Tabler icon name, like the side menu's.
    qm_pg_icn: text({ label: 'Icon', max: 60 }),
    qm_ord: number({ label: 'Order', max: 9999 }),
    usr_cd: link({ label: 'User', to: 'employee', display: 'usr_full_nm', as: 'usr_full_nm', readOnly: true, gridHidden: true }),
  },
  uniqueTogether: [{ fields: ['usr_cd', 'qm_pg_pth'], message: 'This page is already in your quick menu.' }],
  // Each row is its user's (the server writes crt_by = usr_cd): 'his rows only' on the page changes nothing.
  ownership: 'creator',
  // No generic get: a row is read by its owner only (the handler's GET /api/quick_menu/:id).
  routes: ['list', 'create', 'update', 'delete'],
  defaultSort: { field: 'qm_ord', dir: 'asc' },
});
