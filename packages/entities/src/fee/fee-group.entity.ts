import { code, date, defineEntity, money, text } from '../define';

/** A fee instalment (Term 1, Term 2...): when it opens, when it falls due, the late fee after that. */
export const feeGroup = defineEntity({
  name: 'fee_group',
  table: 'fee_group',
  key: 'fee_grp_cd',
  // Terms and their dates are set afresh every academic year.
  scope: 'academic-year',
  label: 'Fee Group',
  title: 'fee_grp_nm',
  fields: {
    fee_grp_cd: code(),
    fee_grp_nm: text({ label: 'Fee Group Name', required: true, search: true, unique: true, max: 100 }),
    fee_grp_fee_str_dt: date({ label: 'Start Date', required: true }),
    fee_grp_fee_exp_dt: date({ label: 'Due Date', required: true, notBefore: 'fee_grp_fee_str_dt' }),
    fee_grp_fee_prid_amt: money({ label: 'Late Fee Amount' }),
    fee_grp_dscr: text({ label: 'Description', multiline: true, max: 500 }),
  },
  defaultSort: { field: 'fee_grp_fee_str_dt', dir: 'asc' },
});
