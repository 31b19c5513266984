import { code, defineEntity, text } from '../define';

/** A kind of fee: Tuition, Transport, Exam, Library... */
export const feeType = defineEntity({
  name: 'fee_type',
  table: 'fee_type',
  key: 'feetyp_cd',
  scope: 'institute',
  label: 'Fee Type',
  title: 'feetyp_nm',
  fields: {
    feetyp_cd: code(),
    feetyp_nm: text({ label: 'Fee Type Name', required: true, search: true, unique: true, max: 100 }),
    feetyp_desc: text({ label: 'Description', multiline: true, max: 500 }),
  },
  defaultSort: { field: 'feetyp_nm', dir: 'asc' },
});
