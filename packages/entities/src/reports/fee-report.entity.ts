import { code, date, defineEntity, link, money, number, text } from '../define';

/**
 * Fee report (reports/fee_report at /api/feedefaultreport/): the fee defaulters of the year, students
 * with an overdue balance, oldest first, with the parent to call. A live view: there is nothing to refresh.
 */
export const feeReport = defineEntity({
  name: 'fee_report',
  api: '/api/feedefaultreport/',
  table: 'fee_report_v',
  storage: 'view',
  key: 'stud_cd',
  scope: 'academic-year',
  label: 'Fee Defaulters',
  title: 'stud_fs_nm',
  fields: {
    // The admission number identifies a child to the office; the internal code stays in the Columns menu.
    stud_cd: code({ label: 'Student Code', gridHidden: true }),
    stud_fs_nm: text({ label: 'Student Name', search: true, max: 150 }),
    stud_adm_cd: text({ label: 'Admission No', search: true, max: 40 }),
    cls_cd: link({ label: 'Class', to: 'class', display: 'cls_nm', as: 'cls_nm', search: true }),
    sec_cd: link({ label: 'Section', to: 'section', display: 'sec_nm', as: 'sec_nm', search: true }),
    stud_fthr_nm: text({ label: "Father's Name", search: true, max: 150 }),
    stud_ph: text({ label: 'Phone', format: 'phone', search: true, max: 20 }),
    pendingAmt: money({ label: 'Overdue' }),
    balAmt: money({ label: 'Balance' }),
    fee_dflt_since: date({ label: 'Overdue Since' }),
    fee_dflt_days: number({ label: 'Days Overdue' }),
    needtopay: money({ label: 'Need to Pay', gridHidden: true }),
    discount: money({ label: 'Discount', gridHidden: true }),
    fee_coll_amt: money({ label: 'Paid', gridHidden: true }),
    fee_coll_cd: number({ label: 'Last Bill No', gridHidden: true }),
    fee_coll_crt_dt: date({ label: 'Last Bill Date', gridHidden: true }),
  },
  ownership: { through: 'subject_detail', match: { sec_cd: 'sec_cd' }, user: 'usr_cd' },
  defaultSort: { field: 'fee_dflt_since', dir: 'asc' },
});
