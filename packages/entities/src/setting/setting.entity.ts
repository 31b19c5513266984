import { code, defineEntity, text } from '../define';

/** Institute settings by unique code, e.g. ACDM_STRT_MN (academic year start month, default Jan). */
export const setting = defineEntity({
  name: 'setting',
  table: 'setting',
  key: 'setg_cd',
  scope: 'institute',
  label: 'Setting',
  title: 'setg_nm',
  fields: {
    setg_cd: code(),
    setg_unq_cd: text({ label: 'Setting Code', required: true, unique: true, max: 60, format: 'upper-code', search: true }),
    setg_nm: text({ label: 'Setting Name', required: true, max: 100, search: true }),
    setg_val: text({ label: 'Value', max: 500 }),
  },
  routes: [],
});
