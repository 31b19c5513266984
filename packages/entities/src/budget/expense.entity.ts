import { code, date, defineEntity, link, money, text } from '../define';

/** One income or expense entry; whether it is income or expense follows its sub-category's type. */
export const expense = defineEntity({
  name: 'expense',
  table: 'expense',
  key: 'exp_cd',
  // The budget reports add up one academic year's entries.
  scope: 'academic-year',
  label: 'Income / Expense',
  title: 'exp_desc',
  fields: {
    exp_cd: code(),
    exp_sub_ctgy_cd: link({ label: 'Sub Category', to: 'expense_sub_category', display: 'exp_sub_ctgy_nm', as: 'exp_sub_ctgy_nm', required: true, search: true }),
    exp_desc: text({ label: 'Description', required: true, search: true, max: 500 }),
    exp_amt: money({ label: 'Amount', required: true }),
    exp_dt: date({ label: 'Date', required: true, defaultValue: 'today' }),
    exp_crt_dt: date({ label: 'Created Date', auto: 'created-at' }),
  },
  defaultSort: { field: 'exp_dt', dir: 'desc' },
});
