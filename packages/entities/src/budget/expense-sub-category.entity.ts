import { code, defineEntity, link, select, text } from '../define';

export const expenseSubCategory = defineEntity({
  name: 'expense_sub_category',
  table: 'expense_sub_category',
  key: 'exp_sub_ctgy_cd',
  scope: 'institute',
  label: 'Expense Sub Category',
  title: 'exp_sub_ctgy_nm',
  fields: {
    exp_sub_ctgy_cd: code(),
    // Unique per institute, not per category: the expense entry dropdown shows the name alone.
    exp_sub_ctgy_nm: text({ label: 'Sub Category Name', required: true, search: true, unique: true, max: 100 }),
    exp_sub_ctgy_typ: select({ label: 'Type', options: ['Income', 'Expense'], required: true, defaultValue: 'Expense' }),
    exp_ctgy_cd: link({ label: 'Category', to: 'expense_category', display: 'exp_ctgy_nm', as: 'exp_ctgy_nm', required: true, search: true }),
    // The spec's bus_nm: a head tied to one bus (its diesel, its driver) feeds the transport budget report.
    bs_trck_cd: link({ label: 'Bus', to: 'bus', display: 'bs_trck_bus_nm', as: 'bus_nm', search: true }),
  },
  defaultSort: { field: 'exp_sub_ctgy_nm', dir: 'asc' },
});
