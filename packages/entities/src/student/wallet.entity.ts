import { code, date, defineEntity, link, money, text } from '../define';

/**
 * A student's prepaid balance (canteen, stationery, fees paid in advance). It hangs on the student's row of
 * the year, like everything else about that year; carrying a balance into next year is the promotion
 * workflow's job.
 */
export const wallet = defineEntity({
  name: 'wallet',
  table: 'wallet',
  key: 'wlt_cd',
  scope: 'academic-year',
  label: 'Wallet',
  // Nothing links to a wallet, so the code is enough for messages.
  title: 'wlt_cd',
  fields: {
    wlt_cd: code(),
    // Fixed after create: moving a balance to another child is a refund and a new wallet, not an edit.
    stud_cd: link({ label: 'Student', to: 'student', display: 'stud_fs_nm', as: 'stud_fs_nm', required: true, search: true, immutable: true }),
    // The sum of the wallet's transactions (wallet_transaction), kept by the wallet ledger in the same
    // transaction as each movement: never typed.
    wlt_amt: money({ label: 'Balance', readOnly: true }),
    // The spec's 'last updated by / on': stamped by the server on every change of the balance.
    usr_full_nm: text({ label: 'Updated By', auto: 'updated-by-name', max: 150 }),
    wlt_updt_dt: date({ label: 'Updated Date', auto: 'updated-at' }),
  },
  uniqueTogether: [{ fields: ['stud_cd'], message: 'This student already has a wallet.' }],
  // 'His students only': the rows of the teacher's own students, by the student's own rule.
  ownership: { via: 'stud_cd' },
  // The wallet ledger's routes (workflows/wallet): each writes one wallet transaction and moves the balance.
  workflowButtons: [
    {
      button: 'topup',
      label: 'Top Up',
      path: 'topup',
      target: 'path',
      confirm: 'Add money to wallet no. {{title}}.',
      done: 'Wallet no. {{title}} topped up.',
      inputs: {
        amount: money({ label: 'Amount', required: true, max: 1_000_000 }),
        reason: text({ label: 'Reason', required: true, max: 200 }),
      },
      idempotent: true,
    },
    {
      button: 'spend',
      label: 'Spend',
      path: 'spend',
      target: 'path',
      confirm: 'Take money from wallet no. {{title}}.',
      done: 'Spent from wallet no. {{title}}.',
      inputs: {
        amount: money({ label: 'Amount', required: true, max: 1_000_000 }),
        reason: text({ label: 'Reason', required: true, max: 200 }),
      },
      idempotent: true,
    },
    {
      button: 'refund',
      label: 'Refund',
      path: 'refund',
      target: 'path',
      confirm: 'Pay money in wallet no. {{title}} back to the family.',
      done: 'Refunded from wallet no. {{title}}.',
      inputs: {
        amount: money({ label: 'Amount', required: true, max: 1_000_000 }),
        reason: text({ label: 'Reason', required: true, max: 200 }),
      },
      idempotent: true,
    },
  ],
  // The statement: the wallet's movements, on the (out of menu) wallet transaction page.
  related: [{ label: 'Statement', entity: 'wallet_transaction', field: 'wlt_cd' }],
  defaultSort: { field: 'wlt_cd', dir: 'desc' },
});
