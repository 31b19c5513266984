import { code, defineEntity, link, number, text } from '../define';

/**
 * A record of one table copied from one academic year to the next (fee groups, holidays, subject mapping),
 * written by the year-to-year copy workflow; only list and get are routed.
 */
export const migration = defineEntity({
  name: 'migration',
  table: 'migration',
  key: 'mgrtn_cd',
  // It joins two years, so it belongs to the institute.
  scope: 'institute',
  label: 'Migration',
  title: 'mgrtn_tbl_cd',
  fields: {
    mgrtn_cd: code(),
    // The entity copied ('fee_group'), a registry name.
    mgrtn_tbl_cd: text({ label: 'Table', required: true, search: true, max: 60 }),
    frm_acdm_cd: link({ label: 'From Year', to: 'academic', display: 'acdm_strt_yr', as: 'frm_acdm', required: true }),
    to_acdm_cd: link({ label: 'To Year', to: 'academic', display: 'acdm_strt_yr', as: 'to_acdm', required: true }),
    row_cnt: number({ label: 'Rows Copied', required: true }),
    mgrtn_dscr: text({ label: 'Description', multiline: true, max: 500 }),
  },
  routes: ['list', 'get'],
  defaultSort: { field: 'mgrtn_cd', dir: 'desc' },
});
