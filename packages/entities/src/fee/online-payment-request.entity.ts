import { code, date, defineEntity, link, money, select, text } from '../define';

/** A fee paid online by a family, waiting for the office to accept it (and bill it) or reject it. */
export const onlinePaymentRequest = defineEntity({
  name: 'online_payment_request',
  table: 'online_payment_request',
  key: 'oln_pay_cd',
  scope: 'academic-year',
  label: 'Online Pay Request',
  title: 'oln_pay_txn_id',
  fields: {
    oln_pay_cd: code(),
    stud_cd: link({ label: 'Student', to: 'student', display: 'stud_fs_nm', as: 'stud_fs_nm', required: true, search: true }),
    // One gateway transaction is one payment: recording it twice would bill it twice.
    oln_pay_txn_id: text({ label: 'Transaction Id', required: true, search: true, unique: true, max: 100 }),
    oln_pay_txn_dt: date({ label: 'Transaction Date', required: true }),
    oln_pay_tot_amt: money({ label: 'Total Amount', required: true }),
    oln_pay_bill_no: text({ label: 'Bill No', search: true, max: 40 }),
    oln_pay_acpt_sts: select({ label: 'Status', options: ['Pending', 'Accepted', 'Rejected'], required: true, defaultValue: 'Pending', search: true }),
  },
  actions: [{ button: 'take_action', label: 'Take Action', field: 'oln_pay_acpt_sts' }],
  // 'His students only': the rows of the teacher's own students, by the student's own rule.
  ownership: { via: 'stud_cd' },
  defaultSort: { field: 'oln_pay_txn_dt', dir: 'desc' },
});
