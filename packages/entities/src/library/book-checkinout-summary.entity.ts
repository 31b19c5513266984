import { code, date, defineEntity, link, number, select, text } from '../define';

/** Stock: how many copies of a book a student or an employee holds now; kept by the issue/return workflow. */
export const bookCheckinoutSummary = defineEntity({
  name: 'book_checkinout_summary',
  // The spec's list call for the Stock page.
  api: '/api/bookcheckinoutsummary/',
  table: 'book_checkinout_summary',
  key: 'usr_bk_stk_cd',
  scope: 'institute',
  label: 'Book Stock',
  title: 'usr_bk_stk_usr_nm',
  fields: {
    usr_bk_stk_cd: code(),
    usr_bk_stk_usr_typ: select({ label: 'User Type', options: ['Student', 'Employee'], readOnly: true, search: true }),
    // As on the issue and return rows: a stud_cd or a usr_cd by the user type.
    usr_bk_stk_usr_cd: number({ label: 'User Code', readOnly: true }),
    usr_bk_stk_usr_nm: text({ label: 'User Name', readOnly: true, search: true, max: 150 }),
    bk_cd: link({ label: 'Book', to: 'book', display: 'bk_nm', as: 'bk_nm', readOnly: true, search: true }),
    usr_bk_stk_qty: number({ label: 'Quantity Held', readOnly: true, max: 100_000 }),
    // The earliest due date of the copies held; past it the row is overdue. Empty once all are back.
    usr_bk_stk_due_dt: date({ label: 'Due Date', readOnly: true }),
    usr_bk_stk_iss_dt: date({ label: 'Last Issued', readOnly: true, gridHidden: true }),
  },
  // One running figure per holder and book, which the workflow's upsert (ON CONFLICT) relies on.
  uniqueTogether: [{ fields: ['usr_bk_stk_usr_typ', 'usr_bk_stk_usr_cd', 'bk_cd'], message: 'This user already has a stock row for this book.' }],
  routes: ['list', 'get'],
  // Earliest due first: the overdue copies head the Stock page, the ones to chase today.
  defaultSort: { field: 'usr_bk_stk_due_dt', dir: 'asc' },
});
