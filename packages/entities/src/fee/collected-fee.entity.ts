import { code, date, defineEntity, link, money, number, select, text, time } from '../define';

/**
 * A fee bill (receipt) of one student, written only by the collect-fee workflow (and its status by the
 * cancel-fee workflow), so the engine lists and reads it and nothing else. Names, class and section are
 * stored as they were at the counter: a receipt reprinted next year must read as the one handed over.
 */
export const collectedFee = defineEntity({
  name: 'collected_fee',
  // The spec's list call (section 7).
  api: '/api/fee/CollectedFee',
  table: 'fee_collection_bill',
  key: 'fee_coll_cd',
  scope: 'academic-year',
  label: 'Fee Collected',
  title: 'fee_coll_bill_no',
  fields: {
    // The grid opens with what the office reads off a bill (number, date, child, class, amount, status), which
    // fits a 1366 px screen; time, discount, tender, reference and collector wait in the Columns menu.
    // The bill number is what the office reads; the internal code stays in the Columns menu.
    fee_coll_cd: code({ gridHidden: true }),
    // Consecutive per institute and academic year, allocated inside the collecting transaction.
    fee_coll_bill_no: number({ label: 'Bill No', readOnly: true, unique: true, min: 1 }),
    fee_coll_crt_dt: date({ label: 'Bill Date', readOnly: true }),
    fee_coll_crt_tm: time({ label: 'Bill Time', readOnly: true, gridHidden: true }),
    stud_cd: link({ label: 'Student', to: 'student', display: 'stud_fs_nm', as: 'stud_fs_nm', readOnly: true, search: true }),
    stud_adm_cd: text({ label: 'Admission No', readOnly: true, search: true, exactCode: true, max: 40 }),
    cls_cd: link({ label: 'Class', to: 'class', display: 'cls_nm', as: 'cls_nm', readOnly: true }),
    sec_cd: link({ label: 'Section', to: 'section', display: 'sec_nm', as: 'sec_nm', readOnly: true }),
    fee_coll_amt: money({ label: 'Total Amount', readOnly: true }),
    fee_coll_disc_amt: money({ label: 'Discount', readOnly: true, gridHidden: true }),
    tnd_typ_cd: link({ label: 'Tender Type', to: 'tender_type', display: 'tnd_typ_nm', as: 'tnd_typ_nm', readOnly: true, gridHidden: true }),
    fee_coll_ref: text({ label: 'Reference', readOnly: true, search: true, gridHidden: true, max: 100 }),
    fee_coll_by: text({ label: 'Collected By', readOnly: true, search: true, gridHidden: true, max: 150 }),
    fee_coll_sts: select({ label: 'Status', options: ['Active', 'Cancelled'], defaultValue: 'Active', readOnly: true, search: true }),
    // The browser's key for one attempt: a retry or a double click returns the first bill, never a second.
    // A machine internal: never a column, a Columns-menu entry or an export column.
    fee_coll_idem_key: text({ label: 'Idempotency Key', readOnly: true, unique: true, formHidden: true, internal: true, max: 64 }),
    // What the attempt asked for (student, tender, reference, lines), hashed: the same key with another body
    // is refused instead of answered with a bill that does not match it.
    fee_coll_idem_hash: text({ label: 'Request Hash', readOnly: true, formHidden: true, internal: true, max: 64 }),
  },
  // 'His students only': the bill follows its student's section as it was when collected.
  ownership: { through: 'subject_detail', match: { sec_cd: 'sec_cd' }, user: 'usr_cd' },
  routes: ['list', 'get'],
  // The cancel-fee workflow's routes (they check the same buttons of fee/fee_collected).
  workflowButtons: [
    {
      button: 'cancel_bill',
      label: 'Cancel Bill',
      path: 'cancel',
      reason: { label: 'Reason' },
      confirm: 'Cancel bill no. {{title}}? Its amounts fall due again.',
      done: 'Bill no. {{title}} cancelled.',
      enabledWhen: { field: 'fee_coll_sts', equals: 'Active' },
    },
    {
      button: 'undo_cancel',
      label: 'Undo Cancel',
      path: 'undo-cancel',
      confirm: 'Restore bill no. {{title}} as paid?',
      done: 'Bill no. {{title}} is active again.',
      enabledWhen: { field: 'fee_coll_sts', equals: 'Cancelled' },
    },
  ],
  defaultSort: { field: 'fee_coll_cd', dir: 'desc' },
});
