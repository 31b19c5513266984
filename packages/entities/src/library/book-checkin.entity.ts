import { defineEntity, text } from '../define';
import { bookHolderOwnership, bookMovementFields } from './book-movement-fields';

/** Books returned by a student or an employee in one go (page library/book_checkin). */
export const bookCheckin = defineEntity({
  name: 'book_checkin',
  // The spec's list call for the Book Return page.
  api: '/api/bookcheckin/',
  table: 'book_checkin',
  key: 'bk_chk_cd',
  scope: 'institute',
  label: 'Book Return',
  title: 'bk_chk_usr_nm',
  fields: {
    ...bookMovementFields('Return No'),
    // The desk's key for one attempt, as on an issue: a retry after a lost answer gives the first return back,
    // never a second one (which would put on the shelf a copy the holder still has). Empty when none was sent.
    bk_chk_idem_key: text({ label: 'Idempotency Key', readOnly: true, unique: true, formHidden: true, internal: true, max: 64 }),
  },
  // Returning changes the stock in the same transaction: the return workflow will own the writes.
  routes: ['list', 'get'],
  // Under 'his students only': the movements of his students' books (and his own), by the holder's type and code.
  ownership: bookHolderOwnership,
  defaultSort: { field: 'bk_chk_cd', dir: 'desc' },
});
