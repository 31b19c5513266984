import { code, defineEntity, text } from '../define';

export const community = defineEntity({
  name: 'community',
  table: 'community',
  key: 'cmty_cd',
  scope: 'institute',
  label: 'Community',
  title: 'cmty_nm',
  fields: {
    cmty_cd: code(),
    cmty_nm: text({ label: 'Community Name', required: true, search: true, unique: true, max: 100 }),
    // Reservation category (OC/BC/MBC/SC/ST...) drives fee concessions and government returns.
    cmty_ctgy: text({ label: 'Category', search: true, max: 50 }),
    cmty_desc: text({ label: 'Description', multiline: true, max: 500 }),
  },
  defaultSort: { field: 'cmty_nm', dir: 'asc' },
});
