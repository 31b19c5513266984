import { defineEntity } from '../define';
import { bookMovementFields } from './book-movement-fields';

/** Books issued to a student or an employee in one go (page library/book_checkout). */
export const bookCheckout = defineEntity({
  name: 'book_checkout',
  // The spec's list call for the Book Issue page.
  api: '/api/bookcheckout/',
  table: 'book_checkout',
  key: 'bk_chk_cd',
  // A book issued in March comes back in June: library movements outlive the academic year.
  scope: 'institute',
  label: 'Book Issue',
  title: 'bk_chk_usr_nm',
  fields: bookMovementFields('Issue No'),
  // Issuing changes the stock in the same transaction: the issue workflow will own the writes.
  routes: ['list', 'get'],
  defaultSort: { field: 'bk_chk_cd', dir: 'desc' },
});
