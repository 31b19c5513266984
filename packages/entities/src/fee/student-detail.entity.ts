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
    // Found by its start on the student's own code index (student_stud_adm_cd_code), as on the student list.
    stud_adm_cd: text({ label: 'Admission No', search: true, exactCode: true, max: 40 }),
    stud_roll_nmb: number({ label: 'Roll No', gridHidden: true }),
    // Not in the quick search (as on the student list): an OR with the class and section names kept every
    // search off the student indexes; the list's filters (f_cls_cd, f_sec_cd) narrow by them.
    cls_cd: link({ label: 'Class', to: 'class', display: 'cls_nm', as: 'cls_nm' }),
    sec_cd: link({ label: 'Section', to: 'section', display: 'sec_nm', as: 'sec_nm' }),
    // A parent at the counter often gives his own name: the child's name, the father's and the phone make the
    // finder's one trigram expression, which the index student_finder_search_trgm holds (student-detail.view.ts).
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
