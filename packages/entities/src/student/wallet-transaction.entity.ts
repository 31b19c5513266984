import { code, date, defineEntity, link, money, select, text, time } from '../define';

/**
 * One movement of a wallet: the balance is their sum. Written only by the wallet ledger (top-up, spend,
 * refund, a fee paid from the wallet and its cancellation, a balance carried into next year), never edited.
 * Amounts are signed: money in is positive, money out negative.
 */
export const walletTransaction = defineEntity({
  name: 'wallet_transaction',
  table: 'wallet_transaction',
  key: 'wlt_txn_cd',
  // Like the wallet it moves: a carried-forward balance is one row in each year.
  scope: 'academic-year',
  label: 'Wallet Transaction',
  title: 'wlt_txn_cd',
  fields: {
    wlt_txn_cd: code({ label: 'Txn No' }),
    wlt_cd: link({ label: 'Wallet', to: 'wallet', display: 'wlt_cd', as: 'wlt_no', readOnly: true, required: true, search: true }),
    stud_cd: link({ label: 'Student', to: 'student', display: 'stud_fs_nm', as: 'stud_fs_nm', readOnly: true, required: true, search: true }),
    wlt_txn_typ: select({
      label: 'Type',
      options: ['Top-up', 'Spend', 'Refund', 'Carried Forward', 'Fee Payment', 'Fee Cancelled'],
      readOnly: true,
      required: true,
      search: true,
    }),
    wlt_txn_amt: money({ label: 'Amount', readOnly: true, required: true }),
    // The balance right after this movement: a statement reads down the column.
    wlt_txn_bal: money({ label: 'Balance After', readOnly: true, required: true }),
    wlt_txn_rsn: text({ label: 'Reason', readOnly: true, search: true, max: 200 }),
    // The bill paid from the wallet (or cancelled back into it).
    fee_coll_cd: link({ label: 'Bill', to: 'collected_fee', display: 'fee_coll_bill_no', as: 'fee_coll_bill_no', readOnly: true }),
    wlt_txn_by: text({ label: 'By', readOnly: true, max: 150 }),
    wlt_txn_dt: date({ label: 'Date', readOnly: true }),
    wlt_txn_tm: time({ label: 'Time', readOnly: true }),
    // A balance carried by a promotion: both movements name it, and the one into the new wallet names the
    // wallet it came from, so an undo puts the money back there and nowhere else (admission numbers may change).
    prmtn_cd: link({ label: 'Promotion', to: 'promotion', display: 'prmtn_cd', as: 'prmtn_no', readOnly: true, internal: true }),
    src_wlt_cd: link({ label: 'Carried From Wallet', to: 'wallet', display: 'wlt_cd', as: 'src_wlt_no', readOnly: true, internal: true }),
    // The counter's key for one attempt: a retried top-up is one movement.
    wlt_txn_idem_key: text({ label: 'Idempotency Key', readOnly: true, unique: true, formHidden: true, internal: true, max: 64 }),
  },
  ownership: { via: 'stud_cd' },
  routes: ['list', 'get'],
  defaultSort: { field: 'wlt_txn_cd', dir: 'desc' },
});
