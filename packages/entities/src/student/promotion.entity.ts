import { code, date, defineEntity, link, number, select, text } from '../define';

/**
 * One section moved on to the next year (VI A of 2025-26 to VII A of 2026-27), as written by the promotion
 * workflow. A record, not a form: nobody types one, so only list and get are routed.
 */
export const promotion = defineEntity({
  name: 'promotion',
  table: 'promotion',
  key: 'prmtn_cd',
  // It joins two years, so it belongs to neither: the institute keeps the history of every promotion.
  scope: 'institute',
  label: 'Promotion',
  title: 'prmtn_cd',
  fields: {
    prmtn_cd: code(),
    frm_cls_cd: link({ label: 'From Class', to: 'class', display: 'cls_nm', as: 'frm_cls_nm', required: true, search: true }),
    frm_sec_cd: link({ label: 'From Section', to: 'section', display: 'sec_nm', as: 'frm_sec_nm', required: true }),
    to_cls_cd: link({ label: 'To Class', to: 'class', display: 'cls_nm', as: 'to_cls_nm', required: true, search: true }),
    to_sec_cd: link({ label: 'To Section', to: 'section', display: 'sec_nm', as: 'to_sec_nm', required: true }),
    prmtn_stud_cnt: number({ label: 'Students', max: 9999 }),
    prmtn_crt_dt: date({ label: 'Promoted On', auto: 'created-at' }),
    crt_acdm_cd: link({ label: 'From Year', to: 'academic', display: 'acdm_strt_yr', as: 'crt_acdm', required: true }),
    to_acdm_cd: link({ label: 'To Year', to: 'academic', display: 'acdm_strt_yr', as: 'to_acdm', required: true }),
    // Roll numbers in the new class: as they were, or 1..n by name.
    prmtn_roll: select({ label: 'Roll Numbers', options: ['Kept', 'Renumbered by name'], readOnly: true, gridHidden: true }),
    // Undone: its rows were removed from the target year; the record stays as history.
    prmtn_sts: select({ label: 'Status', options: ['Promoted', 'Undone'], defaultValue: 'Promoted', readOnly: true, search: true }),
    prmtn_by: text({ label: 'Promoted By', readOnly: true, gridHidden: true, max: 150 }),
  },
  routes: ['list', 'get'],
  // Under 'his students only': the promotions of the sections he taught in the year they were promoted from
  // (what the run and the undo already require of him).
  ownership: { through: 'subject_detail', match: { frm_sec_cd: 'sec_cd', crt_acdm_cd: 'acdm_cd' }, user: 'usr_cd' },
  workflowButtons: [
    {
      button: 'undo',
      label: 'Undo Promotion',
      path: 'undo',
      target: 'path',
      confirm: 'Undo promotion no. {{title}}? Its students are removed from the target year.',
      done: 'Promotion no. {{title}} undone.',
      enabledWhen: { field: 'prmtn_sts', equals: 'Promoted' },
    },
  ],
  defaultSort: { field: 'prmtn_cd', dir: 'desc' },
});
