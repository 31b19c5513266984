import { code, defineEntity, link, money, text } from '../define';

/**
 * Fee mapping: what one fee type costs one class in one fee group (term) of the year. A student who joined
 * this year pays fee_amt; one promoted from last year pays fee_amt_aftr_prmtn (admission-time fees differ).
 */
export const fee = defineEntity({
  name: 'fee',
  table: 'fee',
  key: 'fee_cd',
  // Amounts are set afresh each year, like the fee groups they belong to.
  scope: 'academic-year',
  label: 'Fee Mapping',
  // 'Term 1 - Tuition Fee - VI': what a discount or a bill line shows for the mapping (kept by the fee hooks).
  title: 'fee_nm',
  fields: {
    fee_cd: code(),
    fee_grp_cd: link({ label: 'Fee Group', to: 'fee_group', display: 'fee_grp_nm', as: 'fee_grp_nm', required: true, search: true }),
    feetyp_cd: link({ label: 'Fee Type', to: 'fee_type', display: 'feetyp_nm', as: 'feetyp_nm', required: true, search: true }),
    cls_cd: link({ label: 'Class', to: 'class', display: 'cls_nm', as: 'cls_nm', required: true, search: true }),
    fee_amt: money({ label: 'New Student Amount', required: true }),
    fee_amt_aftr_prmtn: money({ label: 'Old Student Amount', required: true }),
    // Written by the server from the term, fee type and class names (hooks/fee.hooks.ts), renamed with them.
    fee_nm: text({ label: 'Fee', readOnly: true, search: true, gridHidden: true, formHidden: true, max: 300 }),
  },
  // Two amounts for one fee of one class in one term would leave the fee counter guessing.
  uniqueTogether: [{ fields: ['fee_grp_cd', 'feetyp_cd', 'cls_cd'], message: 'This class already has an amount for this fee type in this fee group.' }],
  inlineEdit: ['fee_amt'],
  defaultSort: { field: 'fee_cd', dir: 'asc' },
});
