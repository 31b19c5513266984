import { bool, code, defineEntity, number, text } from '../define';

/** A way a fee is paid: Cash, Cheque, UPI, Card... */
export const tenderType = defineEntity({
  name: 'tender_type',
  table: 'tender_type',
  key: 'tnd_typ_cd',
  scope: 'institute',
  label: 'Tender Type',
  title: 'tnd_typ_nm',
  fields: {
    tnd_typ_cd: code(),
    tnd_typ_nm: text({ label: 'Tender Type Name', required: true, search: true, unique: true, max: 100 }),
    tnd_typ_odr: number({ label: 'Order', max: 9999 }),
    // The reference the fee counter asks for with this tender (Cheque No., UPI Transaction Id); blank for cash.
    tnd_typ_fld_val: text({ label: 'Reference Field', max: 100 }),
    tnd_typ_dscr: text({ label: 'Description', multiline: true, max: 500 }),
    // Turned off, a tender stays on old receipts but is no longer offered at the counter.
    tnd_typ_sts: bool({ label: 'Active', defaultValue: true }),
  },
  toggles: [{ button: 'turn_on_off', label: 'Turn On/Off', field: 'tnd_typ_sts' }],
  defaultSort: { field: 'tnd_typ_odr', dir: 'asc' },
});
