import { code, defineEntity, money, number, text } from '../define';

/**
 * Transport budget (reports/transport_budget): per bus, how many students ride it this year and what it
 * cost (expense entries of sub-categories tied to the bus), computed by the database from those rows.
 */
export const transportBudget = defineEntity({
  name: 'transport_budget',
  api: '/api/transport_budget/',
  table: 'transport_budget_v',
  storage: 'view',
  // The bus's own code: one row per bus and academic year.
  key: 'bs_trck_cd',
  scope: 'academic-year',
  label: 'Transport Budget',
  title: 'bs_trck_bus_nm',
  fields: {
    bs_trck_cd: code({ label: 'Bus Code' }),
    bs_trck_bus_nm: text({ label: 'Bus Name', search: true, max: 100 }),
    bs_trck_dscr: text({ label: 'Route', search: true, max: 500 }),
    trns_stud_cnt: number({ label: 'Students' }),
    trns_exp_cnt: number({ label: 'Expense Entries' }),
    trns_inc_amt: money({ label: 'Income' }),
    trns_exp_amt: money({ label: 'Expense' }),
    // Expense over riders, 2 decimals; empty for a bus nobody rides.
    trns_cost_per_stud: money({ label: 'Cost per Student' }),
  },
  defaultSort: { field: 'bs_trck_bus_nm', dir: 'asc' },
});
