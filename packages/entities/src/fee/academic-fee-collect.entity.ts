import { code, date, defineEntity, link, money, number, text } from '../define';

/**
 * Academic fee collect (fee/academic_fee_collect): this year's students with a balance left in an earlier
 * academic year, one row per student and earlier year. The balance is collected in that year (the year
 * switcher), where the bill belongs: see academic-fee-collect.view.ts.
 */
export const academicFeeCollect = defineEntity({
  name: 'academic_fee_collect',
  api: '/api/academic_fee_collect/',
  table: 'academic_fee_collect_v',
  storage: 'view',
  key: 'acdm_fee_stud_cd',
  scope: 'academic-year',
  label: 'Previous Year Dues',
  title: 'stud_fs_nm',
  fields: {
    acdm_fee_stud_cd: code({ label: 'Student Code (that year)', gridHidden: true }),
    stud_fs_nm: text({ label: 'Student Name', search: true, max: 150 }),
    stud_adm_cd: text({ label: 'Admission No', search: true, max: 40 }),
    cls_cd: link({ label: 'Class', to: 'class', display: 'cls_nm', as: 'cls_nm', search: true }),
    sec_cd: link({ label: 'Section', to: 'section', display: 'sec_nm', as: 'sec_nm', search: true }),
    acdm_label: text({ label: 'Academic Year', search: true, max: 7 }),
    acdm_fee_acdm_cd: number({ label: 'Academic Year Code', gridHidden: true }),
    prev_cls_nm: text({ label: 'Class That Year', max: 100 }),
    needtopay: money({ label: 'Need to Pay' }),
    discount: money({ label: 'Discount' }),
    fee_coll_amt: money({ label: 'Paid' }),
    balAmt: money({ label: 'Balance' }),
    fee_coll_cd: number({ label: 'Last Bill No' }),
    fee_coll_crt_dt: date({ label: 'Last Bill Date' }),
  },
  ownership: { through: 'subject_detail', match: { sec_cd: 'sec_cd' }, user: 'usr_cd' },
  defaultSort: { field: 'stud_fs_nm', dir: 'asc' },
});
