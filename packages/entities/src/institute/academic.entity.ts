import { bool, code, date, defineEntity, number, select } from '../define';

export const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

export const academic = defineEntity({
  name: 'academic',
  table: 'academic',
  key: 'acdm_cd',
  scope: 'institute',
  label: 'Academic Year',
  title: 'acdm_strt_yr',
  fields: {
    acdm_cd: code(),
    acdm_strt_yr: number({ label: 'Start Year', required: true, min: 2000, max: 2100, search: true }),
    acdm_strt_mn: select({ label: 'Start Month', options: months, required: true, defaultValue: 'Jun' }),
    acdm_end_yr: number({ label: 'End Year', required: true, min: 2000, max: 2101, search: true }),
    acdm_end_mn: select({ label: 'End Month', options: months, required: true, defaultValue: 'Apr' }),
    acdm_sts: bool({ label: 'Active', defaultValue: true }),
    acdm_crt_dt: date({ label: 'Created Date', auto: 'created-at' }),
  },
  uniqueTogether: [{ fields: ['acdm_strt_yr', 'acdm_strt_mn'], message: 'This academic year already exists.' }],
  toggles: [{ button: 'active', label: 'Active', field: 'acdm_sts' }],
  defaultSort: { field: 'acdm_strt_yr', dir: 'desc' },
});
