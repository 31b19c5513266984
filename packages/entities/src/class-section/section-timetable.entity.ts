import { code, date, defineEntity, link, number, time } from '../define';

/** A section's bell: when its first period starts and how long each period runs. */
export const sectionTimetable = defineEntity({
  name: 'section_timetable',
  table: 'section_timetable',
  key: 'tme_tbl_cd',
  scope: 'academic-year',
  label: 'Section Timetable',
  title: 'tme_tbl_cd',
  fields: {
    tme_tbl_cd: code(),
    cls_cd: link({ label: 'Class', to: 'class', display: 'cls_nm', as: 'cls_nm', required: true, search: true }),
    // A section of the chosen class: the form offers only those, the server refuses any other.
    sec_cd: link({ label: 'Section', to: 'section', display: 'sec_nm', as: 'sec_nm', required: true, search: true, within: { cls_cd: 'cls_cd' } }),
    tme_tbl_prd_strt_tme: time({ label: 'First Period Starts', required: true }),
    tme_tbl_prd_itvl: number({ label: 'Period Length (minutes)', required: true, min: 5, max: 240 }),
    tme_tbl_crt_dt: date({ label: 'Created Date', auto: 'created-at' }),
  },
  uniqueTogether: [{ fields: ['sec_cd'], message: 'This section already has a timetable.' }],
  defaultSort: { field: 'cls_cd', dir: 'asc' },
});
