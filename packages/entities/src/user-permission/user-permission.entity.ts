import { bool, code, date, defineEntity, link, text } from '../define';

/**
 * One row per (user or group, page) in an institute. Written through the permission editor workflow
 * (POST /api/user_permission/?usrNeedDataChk), which refuses grants the editor does not hold.
 */
export const userPermission = defineEntity({
  name: 'user_permission',
  table: 'user_permission',
  key: 'usr_prms_cd',
  scope: 'institute',
  label: 'User Permission',
  title: 'usr_prms_page',
  fields: {
    usr_prms_cd: code(),
    usr_prms_usr_cd: link({ label: 'Employee', to: 'employee', display: 'usr_full_nm', as: 'usr_full_nm', search: true, anyOfMyInstitutes: true }),
    upg_cd: link({ label: 'Permission Group', to: 'user_permission_group', display: 'upg_nm', as: 'upg_nm', search: true }),
    usr_prms_mdl: text({ label: 'Module', required: true, search: true, max: 60 }),
    usr_prms_page: text({ label: 'Page', required: true, search: true, max: 60 }),
    usr_prms_pth_url: text({ label: 'Path', max: 200 }),
    usr_prms_is_alw: bool({ label: 'Allowed', defaultValue: true }),
    usr_prms_btns: text({ label: 'Buttons', max: 500 }),
    usr_need_data_chk: bool({ label: 'Access His Students Only', defaultValue: false }),
    usr_prms_dscr: text({ label: 'Description', max: 300, search: true }),
    usr_sts: bool({ label: 'Status', defaultValue: true }),
    usr_prms_hdr_crt_dt: date({ label: 'Created Date', auto: 'created-at' }),
  },
  routes: ['list', 'get', 'delete'],
  defaultSort: { field: 'usr_prms_mdl', dir: 'asc' },
});
