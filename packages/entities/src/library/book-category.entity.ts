import { code, defineEntity, number, text } from '../define';

export const bookCategory = defineEntity({
  name: 'book_category',
  // The spec's list call for library categories.
  api: '/api/category/',
  table: 'book_category',
  key: 'ctgy_cd',
  scope: 'institute',
  label: 'Book Category',
  title: 'ctgy_nm',
  fields: {
    ctgy_cd: code(),
    ctgy_nm: text({ label: 'Category Name', required: true, search: true, unique: true, max: 100 }),
    ctgy_seq_odr: number({ label: 'Order', max: 9999 }),
    ctgy_dscr: text({ label: 'Description', multiline: true, max: 500 }),
  },
  defaultSort: { field: 'ctgy_seq_odr', dir: 'asc' },
});
