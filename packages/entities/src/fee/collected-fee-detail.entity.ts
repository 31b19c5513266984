import { code, defineEntity, link, money, select } from '../define';

/**
 * One line of a fee bill: what was paid against one fee mapping row (or a fee group's late fee). No page
 * and no routes: the bill's workflow writes it and the fee screens read it through their own queries.
 * The status copies the bill's, so 'paid so far' is one indexed sum over the student's lines.
 */
export const collectedFeeDetail = defineEntity({
  name: 'collected_fee_detail',
  table: 'fee_collection_line',
  key: 'fee_coll_dtl_cd',
  scope: 'academic-year',
  label: 'Fee Collected Line',
  title: 'fee_coll_dtl_cd',
  fields: {
    fee_coll_dtl_cd: code(),
    fee_coll_cd: link({ label: 'Bill', to: 'collected_fee', display: 'fee_coll_bill_no', as: 'fee_coll_bill_no', readOnly: true }),
    stud_cd: link({ label: 'Student', to: 'student', display: 'stud_fs_nm', as: 'stud_fs_nm', readOnly: true }),
    // Empty on a late fee line, which belongs to the fee group alone.
    fee_cd: link({ label: 'Fee Mapping', to: 'fee', display: 'fee_nm', as: 'fee_nm', readOnly: true }),
    fee_grp_cd: link({ label: 'Fee Group', to: 'fee_group', display: 'fee_grp_nm', as: 'fee_grp_nm', readOnly: true }),
    fee_coll_dtl_kind: select({ label: 'Line Kind', options: ['Fee', 'Late Fee'], defaultValue: 'Fee', readOnly: true }),
    fee_coll_dtl_amt: money({ label: 'Amount Paid', readOnly: true }),
    // The discount that stood against the mapping when this was paid (the receipt shows it).
    fee_coll_dtl_disc: money({ label: 'Discount', readOnly: true }),
    fee_coll_dtl_sts: select({ label: 'Status', options: ['Active', 'Cancelled'], defaultValue: 'Active', readOnly: true }),
  },
  // Also gives the (inst_cd, acdm_cd, stud_cd) index the 'paid so far' sum runs on.
  defaultSort: { field: 'stud_cd', dir: 'asc' },
  routes: [],
});
