import { code, date, defineEntity, link, number, select, text } from '../define';

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
    // Already present in the target year, so not copied again.
    mgrtn_skip_cnt: number({ label: 'Rows Skipped', readOnly: true }),
    // The change applied to fee amounts (10 = 10% more, -5 = 5% less), rounded to whole rupees.
    mgrtn_pct: number({ label: 'Fee Change %', readOnly: true, int: false, min: -100, max: 1000, gridHidden: true }),
    mgrtn_sts: select({ label: 'Status', options: ['Copied', 'Rolled Back'], defaultValue: 'Copied', readOnly: true, search: true }),
    mgrtn_dt: date({ label: 'Run On', auto: 'created-at' }),
    mgrtn_by: text({ label: 'Run By', readOnly: true, gridHidden: true, max: 150 }),
    // One run copies several tables in one transaction: its rows share this number. Each row rolls back on its
    // own, refused while another table's rows (a copied fee mapping) still point at its copies.
    mgrtn_run_cd: number({ label: 'Run No', readOnly: true, gridHidden: true }),
  },
  routes: ['list', 'get'],
  workflowButtons: [
    {
      button: 'rollback',
      label: 'Roll Back',
      path: 'rollback',
      target: 'path',
      confirm: "Roll back the copy of '{{title}}'? The copied rows are deleted from the target year.",
      done: "The copy of '{{title}}' is rolled back.",
      enabledWhen: { field: 'mgrtn_sts', equals: 'Copied' },
    },
  ],
  defaultSort: { field: 'mgrtn_cd', dir: 'desc' },
});
