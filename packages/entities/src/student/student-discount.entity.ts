import { code, defineEntity, link, money, number, text } from '../define';

/**
 * A student's discount on one fee mapping row of the year. The student hooks keep percent and amount in
 * step (spec section 5), keep the mapping to the student's class and never let a discount undercut what
 * has already been paid.
 */
export const studentDiscount = defineEntity({
  name: 'student_discount',
  api: '/api/discount/',
  table: 'student_discount',
  key: 'disc_cd',
  scope: 'academic-year',
  label: 'Discount',
  title: 'disc_cd',
  fields: {
    disc_cd: code(),
    stud_cd: link({ label: 'Student', to: 'student', display: 'stud_fs_nm', as: 'stud_fs_nm', required: true, search: true }),
    fee_cd: link({ label: 'Fee Mapping', to: 'fee', display: 'fee_nm', as: 'fee_nm', required: true }),
    disc_pct: number({ label: 'Discount %', int: false, min: 0, max: 100 }),
    disc_amt: money({ label: 'Discount Amount' }),
    disc_rsn: text({ label: 'Reason', multiline: true, search: true, max: 500 }),
    // Copied from the student by the hooks: 'his students only' goes through the section.
    sec_cd: link({ label: 'Section', to: 'section', display: 'sec_nm', as: 'sec_nm', readOnly: true }),
  },
  uniqueTogether: [{ fields: ['stud_cd', 'fee_cd'], message: 'This student already has a discount on this fee.' }],
  ownership: { through: 'subject_detail', match: { sec_cd: 'sec_cd' }, user: 'usr_cd' },
  defaultSort: { field: 'disc_cd', dir: 'desc' },
});
