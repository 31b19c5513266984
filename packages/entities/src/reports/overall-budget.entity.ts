import { code, defineEntity, money, number, select, text } from '../define';

/**
 * Overall budget (reports/overall_budget): the year's income and expense entries summed per month and
 * category, computed by the database from the Income / Expense rows so the report can never disagree with
 * them. One row per month, category and type.
 */
export const overallBudget = defineEntity({
  name: 'overall_budget',
  api: '/api/overall_budget/',
  table: 'overall_budget_v',
  storage: 'view',
  key: 'bdgt_cd',
  scope: 'academic-year',
  label: 'Overall Budget',
  title: 'exp_ctgy_nm',
  fields: {
    bdgt_cd: code(),
    bdgt_mnth: text({ label: 'Month', search: true, max: 7 }),
    exp_ctgy_nm: text({ label: 'Category', search: true, max: 100 }),
    bdgt_typ: select({ label: 'Type', options: ['Income', 'Expense'], search: true }),
    bdgt_cnt: number({ label: 'Entries' }),
    bdgt_amt: money({ label: 'Amount' }),
  },
  // The month key of a row is stable, so a row can be opened (view mode) after the list moved on.
  defaultSort: { field: 'bdgt_mnth', dir: 'asc' },
});
