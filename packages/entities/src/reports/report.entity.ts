import { code, defineEntity, number, text } from '../define';

/** A report in the Reports group, and its place in that group's list. */
export const report = defineEntity({
  name: 'report',
  // The spec's list call for the Reports > Group page.
  api: '/api/groupreport/',
  table: 'report',
  key: 'rpt_cd',
  scope: 'institute',
  label: 'Report',
  title: 'rpt_nm',
  fields: {
    rpt_cd: code(),
    rpt_nm: text({ label: 'Report Name', required: true, search: true, unique: true, max: 100 }),
    rpt_srt_ord: number({ label: 'Order', max: 9999 }),
  },
  defaultSort: { field: 'rpt_srt_ord', dir: 'asc' },
});
