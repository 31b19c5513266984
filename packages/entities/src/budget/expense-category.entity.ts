import { code, defineEntity, number, text } from '../define';

/** Budget head (Salary, Transport, Building...); income and expense sub-categories sit under it. */
export const expenseCategory = defineEntity({
  name: 'expense_category',
  table: 'expense_category',
  key: 'exp_ctgy_cd',
  scope: 'institute',
  label: 'Expense Category',
  title: 'exp_ctgy_nm',
  fields: {
    exp_ctgy_cd: code(),
    exp_ctgy_nm: text({ label: 'Category Name', required: true, search: true, unique: true, max: 100 }),
    // Order of the heads in the budget report.
    exp_ctgy_odr: number({ label: 'Order', max: 9999 }),
    exp_ctgy_desc: text({ label: 'Description', multiline: true, max: 500 }),
  },
  defaultSort: { field: 'exp_ctgy_odr', dir: 'asc' },
});
