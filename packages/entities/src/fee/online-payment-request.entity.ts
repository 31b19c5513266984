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
    // Written when the request is accepted: the counter's bill number, and the bill itself.
    oln_pay_bill_no: text({ label: 'Bill No', search: true, readOnly: true, max: 40 }),
    fee_coll_cd: link({ label: 'Bill', to: 'collected_fee', display: 'fee_coll_bill_no', as: 'fee_coll_bill_nmb', readOnly: true, gridHidden: true }),
    // Accepting writes a bill and rejecting needs a reason: both go through the take-action workflow, never a PUT.
    oln_pay_acpt_sts: select({ label: 'Status', options: ['Pending', 'Accepted', 'Rejected'], required: true, defaultValue: 'Pending', search: true, readOnly: true }),
    oln_pay_rjct_rsn: text({ label: 'Reason', readOnly: true, gridHidden: true, max: 500 }),
    oln_pay_actn_by: text({ label: 'Action By', readOnly: true, gridHidden: true, max: 150 }),
    // 'Gateway' rows came from the payment gateway's signed notification; 'Office' rows were typed in.
    oln_pay_src: select({ label: 'Source', options: ['Office', 'Gateway'], defaultValue: 'Office', readOnly: true, gridHidden: true }),
  },
  // The online-payment workflow (workflows/online-payment): Accepted bills the payment through the counter's
  // ledger (tender 'Online', reference = transaction id); Rejected records the reason.
  workflowButtons: [
    {
      button: 'take_action',
      label: 'Take Action',
      path: 'take_action',
      target: 'path',
      confirm: 'Accept or reject the payment {{title}}.',
      done: 'Payment {{title}} updated.',
      enabledWhen: { field: 'oln_pay_acpt_sts', equals: 'Pending' },
      inputs: {
        oln_pay_acpt_sts: select({ label: 'Status', options: ['Accepted', 'Rejected'], required: true }),
        reason: text({ label: 'Reason (when rejecting)', max: 500 }),
      },
      idempotent: true,
    },
  ],
  // 'His students only': the rows of the teacher's own students, by the student's own rule.
  ownership: { via: 'stud_cd' },
  defaultSort: { field: 'oln_pay_txn_dt', dir: 'desc' },
});
