import { code, date, defineEntity, link, money, number, text } from '../define';

/**
 * Fee collection summary (spec section 3; fee/fee_management at /api/fee_collection/): each student's fee
 * position for the year, computed by the database from the fee mapping, discounts and active bills, so it
 * always agrees with the counter. See apps/server/src/db/views/fee-collection.view.ts for the sums.
 */
export const feeCollection = defineEntity({
  name: 'fee_collection',
  api: '/api/fee_collection/',
  table: 'fee_collection_v',
  storage: 'view',
  key: 'stud_cd',
  scope: 'academic-year',
  label: 'Fee Collection Summary',
  title: 'stud_fs_nm',
  fields: {
    // The admission number identifies a child to the office; the internal code stays in the Columns menu.
    stud_cd: code({ label: 'Student Code', gridHidden: true }),
    stud_fs_nm: text({ label: 'Student Name', search: true, max: 150 }),
    stud_adm_cd: text({ label: 'Admission No', search: true, max: 40 }),
    stud_roll_nmb: number({ label: 'Roll No', gridHidden: true }),
    cls_cd: link({ label: 'Class', to: 'class', display: 'cls_nm', as: 'cls_nm', search: true }),
    sec_cd: link({ label: 'Section', to: 'section', display: 'sec_nm', as: 'sec_nm', search: true }),
    needtopay: money({ label: 'Need to Pay' }),
    discount: money({ label: 'Discount' }),
    fee_coll_amt: money({ label: 'Paid' }),
    pendingAmt: money({ label: 'Overdue' }),
    balAmt: money({ label: 'Balance' }),
    fee_coll_cd: number({ label: 'Last Bill No' }),
    fee_coll_crt_dt: date({ label: 'Last Bill Date' }),
    fee_dflt_since: date({ label: 'Overdue Since', gridHidden: true }),
  },
  ownership: { through: 'subject_detail', match: { sec_cd: 'sec_cd' }, user: 'usr_cd' },
  defaultSort: { field: 'stud_fs_nm', dir: 'asc' },
});
