import { code, defineEntity, select, text } from '../define';

/** A dashboard tile: a count, a chart or a short list. */
export const widget = defineEntity({
  name: 'widget',
  table: 'widget',
  key: 'wdgt_cd',
  scope: 'institute',
  label: 'Widget',
  title: 'wdgt_nm',
  fields: {
    wdgt_cd: code(),
    wdgt_nm: text({ label: 'Widget Name', required: true, search: true, unique: true, max: 100 }),
    wdgt_typ: select({ label: 'Type', options: ['Count', 'Chart', 'List'], required: true, defaultValue: 'Count', search: true }),
    // Only charts have a sub type; nothing refuses one on a count or list yet.
    wdgt_sub_typ: select({ label: 'Chart Type', options: ['Bar', 'Line', 'Pie', 'Doughnut'] }),
    // Who sees the tile on their dashboard.
    wdgt_mode: select({ label: 'Visible To', options: ['All Users', 'Admins Only'], required: true, defaultValue: 'All Users' }),
  },
  defaultSort: { field: 'wdgt_nm', dir: 'asc' },
});
