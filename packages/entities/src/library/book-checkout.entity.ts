import { date, defineEntity, text } from '../define';
import { bookHolderOwnership, bookMovementFields } from './book-movement-fields';

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
  fields: {
    ...bookMovementFields('Issue No'),
    // The day the books of this issue are due back (the LIB_LOAN_DAYS setting, or the date the desk chose).
    bk_chk_due_dt: date({ label: 'Due Date', readOnly: true }),
    // The desk's key for one attempt: a retry or a double click gives the first issue, never a second.
    bk_chk_idem_key: text({ label: 'Idempotency Key', readOnly: true, unique: true, formHidden: true, internal: true, max: 64 }),
  },
  // Issuing changes the stock in the same transaction: the issue workflow will own the writes.
  // Written by the issue workflow (POST /api/bookcheckout/issue), which moves the stock in the same transaction.
  routes: ['list', 'get'],
  // Under 'his students only': the movements of his students' books (and his own), by the holder's type and code.
  ownership: bookHolderOwnership,
  defaultSort: { field: 'bk_chk_cd', dir: 'desc' },
});
