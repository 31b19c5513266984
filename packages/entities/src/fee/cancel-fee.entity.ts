import { code, date, defineEntity, link, money, text } from '../define';

/**
 * A cancelled fee bill, kept for the audit of the fee office. Written only by the fee-cancel workflow (which
 * also undoes a cancellation), so the generic engine lists and reads it and nothing else.
 */
export const cancelFee = defineEntity({
  name: 'cancel_fee',
  table: 'cancel_fee',
  key: 'fee_cncl_cd',
  scope: 'academic-year',
  label: 'Cancelled Fee',
  title: 'fee_cncl_cd',
  fields: {
    // The grid opens with the bill, the child, the amount, when and why it was cancelled and when and by whom
    // that was undone, which fits a 1366 px screen; the code, who billed and who cancelled it and the bill's
    // date wait in the Columns menu.
    fee_cncl_cd: code({ gridHidden: true }),
    // The cancelled bill, shown by its bill number.
    fee_cncl_fee_cd: link({ label: 'Bill No', to: 'collected_fee', display: 'fee_coll_bill_no', as: 'fee_coll_bill_no', readOnly: true }),
    fee_cncl_stud_cd: link({ label: 'Student', to: 'student', display: 'stud_fs_nm', as: 'stud_fs_nm', readOnly: true, search: true }),
    fee_cncl_tot_amt: money({ label: 'Total Amount', readOnly: true }),
    // Names as they were at the time, like certificate's usr_nm: a later rename must not rewrite history.
    bill_by: text({ label: 'Billed By', readOnly: true, search: true, gridHidden: true, max: 60 }),
    fee_cncl_bill_dt: date({ label: 'Bill Date', readOnly: true, gridHidden: true }),
    cncl_by: text({ label: 'Cancelled By', readOnly: true, search: true, gridHidden: true, max: 60 }),
    fee_cncl_dt: date({ label: 'Cancelled Date', readOnly: true }),
    fee_cncl_rsn: text({ label: 'Reason', readOnly: true, search: true, multiline: true, max: 500 }),
    // Undoing a cancellation keeps this row as history and says when and by whom it was undone.
    fee_cncl_undo_dt: date({ label: 'Undone Date', readOnly: true }),
    fee_cncl_undo_by: text({ label: 'Undone By', readOnly: true, max: 150 }),
  },
  // 'His students only': the rows of the teacher's own students, by the student's own rule.
  ownership: { via: 'fee_cncl_stud_cd' },
  routes: ['list', 'get'],
  defaultSort: { field: 'fee_cncl_cd', dir: 'desc' },
});
