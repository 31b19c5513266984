import { code, date, defineEntity, link, money, number, text } from '../define';

/**
 * Student detail (fee/quick_fee_collection at /api/student/detail/): the fee counter's student finder:
 * each student of the year with the parent's name and phone, the bus, what is overdue and the balance, so
 * the clerk finds the child by any of them and opens the collection.
 */
export const studentDetail = defineEntity({
  name: 'student_detail',
  api: '/api/student/detail/',
  table: 'student_detail_v',
  storage: 'view',
  key: 'stud_cd',
  scope: 'academic-year',
  label: 'Student Fee Detail',
  title: 'stud_fs_nm',
  fields: {
    // The admission number identifies a child to the office; the internal code stays in the Columns menu.
    stud_cd: code({ label: 'Student Code', gridHidden: true }),
    stud_fs_nm: text({ label: 'Student Name', search: true, max: 150 }),
    stud_adm_cd: text({ label: 'Admission No', search: true, max: 40 }),
    stud_roll_nmb: number({ label: 'Roll No', gridHidden: true }),
    cls_cd: link({ label: 'Class', to: 'class', display: 'cls_nm', as: 'cls_nm', search: true }),
    sec_cd: link({ label: 'Section', to: 'section', display: 'sec_nm', as: 'sec_nm', search: true }),
    stud_fthr_nm: text({ label: "Father's Name", search: true, max: 150 }),
    stud_ph: text({ label: 'Phone', format: 'phone', search: true, max: 20 }),
    bs_trck_bus_nm: text({ label: 'Bus', max: 100, gridHidden: true }),
    pendingAmt: money({ label: 'Overdue' }),
    balAmt: money({ label: 'Balance' }),
    fee_coll_cd: number({ label: 'Last Bill No' }),
    fee_coll_crt_dt: date({ label: 'Last Bill Date' }),
  },
  ownership: { through: 'subject_detail', match: { sec_cd: 'sec_cd' }, user: 'usr_cd' },
  defaultSort: { field: 'stud_fs_nm', dir: 'asc' },
});
