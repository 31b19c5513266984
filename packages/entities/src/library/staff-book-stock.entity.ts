import { code, date, defineEntity, link, number, text } from '../define';

/**
 * Staff stock (library/book_checkinout_summary_staff): the books each employee holds now, with the
 * employee's current name and designation; the Stock rows of employees, read through a view so the two
 * pages always agree.
 */
export const staffBookStock = defineEntity({
  name: 'staff_book_stock',
  api: '/api/bookcheckinoutsummary/staff',
  table: 'staff_book_stock_v',
  storage: 'view',
  key: 'usr_bk_stk_cd',
  scope: 'institute',
  label: 'Staff Book Stock',
  title: 'usr_full_nm',
  fields: {
    usr_bk_stk_cd: code(),
    usr_full_nm: text({ label: 'Employee Name', search: true, max: 150 }),
    usr_nm: text({ label: 'Login Id', search: true, max: 60 }),
    desg_nm: text({ label: 'Designation', search: true, max: 100 }),
    bk_cd: link({ label: 'Book', to: 'book', display: 'bk_nm', as: 'bk_nm', search: true }),
    usr_bk_stk_qty: number({ label: 'Quantity Held' }),
    // The latest issue of this book to this employee: how long it has been out.
    bk_chk_dt: date({ label: 'Last Issued' }),
    // The earliest due date of the copies held, and how many days past it today is (0 while not yet due):
    // the engine has no computed fields, so the view works it out and the grid can sort the late ones first.
    usr_bk_stk_due_dt: date({ label: 'Due Date' }),
    days_overdue: number({ label: 'Days Overdue' }),
  },
  defaultSort: { field: 'usr_full_nm', dir: 'asc' },
});
