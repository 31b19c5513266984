import { code, defineEntity, json, number, text } from '../define';

/** A user's saved grid layout per table ('Update State'); written through /api/setting//tablesettings. */
export const tableSetting = defineEntity({
  name: 'table_setting',
  table: 'table_setting',
  key: 'tbl_setg_cd',
  scope: 'global',
  label: 'Table Setting',
  title: 'tbl_setg_tbl_nm',
  fields: {
    tbl_setg_cd: code(),
    tbl_setg_usr_cd: number({ label: 'User', readOnly: true }),
    tbl_setg_tbl_nm: text({ label: 'Table', required: true, max: 100 }),
    tbl_setg_obj: json({ label: 'Columns' }),
  },
  uniqueTogether: [{ fields: ['tbl_setg_usr_cd', 'tbl_setg_tbl_nm'], message: 'Settings for this table already exist.' }],
  routes: [],
});
