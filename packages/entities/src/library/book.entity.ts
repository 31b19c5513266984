import { code, defineEntity, link, number, text } from '../define';

/** One title in the library; bk_qty is how many copies of it the library owns. */
export const book = defineEntity({
  name: 'book',
  table: 'book',
  key: 'bk_cd',
  scope: 'institute',
  label: 'Book',
  title: 'bk_nm',
  fields: {
    bk_cd: code(),
    bk_nm: text({ label: 'Book Name', required: true, search: true, unique: true, max: 200 }),
    ctgy_cd: link({ label: 'Category', to: 'book_category', display: 'ctgy_nm', as: 'ctgy_nm', required: true, search: true }),
    bk_qty: number({ label: 'Quantity', required: true, min: 0, max: 100_000 }),
    // Scanned at issue and return, so it must find exactly one title; ISBNs carry hyphens.
    bk_barcd: text({ label: 'Barcode', search: true, exactCode: true, unique: true, max: 50, format: 'upper-code' }),
    bk_ser_nmb: text({ label: 'Serial Number', search: true, max: 50 }),
    bk_dscr: text({ label: 'Description', multiline: true, max: 500 }),
  },
  defaultSort: { field: 'bk_nm', dir: 'asc' },
});
