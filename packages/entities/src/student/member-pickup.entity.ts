import { code, date, defineEntity, link, select, text } from '../define';

/** Someone other than the parents (an uncle, a driver) collecting a student, to be approved first. */
export const memberPickup = defineEntity({
  name: 'member_pickup',
  table: 'member_pickup',
  key: 'mbr_pckp_cd',
  scope: 'academic-year',
  label: 'Member Pickup',
  title: 'mbr_pckp_psn',
  fields: {
    mbr_pckp_cd: code(),
    stud_cd: link({ label: 'Student', to: 'student', display: 'stud_fs_nm', as: 'stud_fs_nm', required: true, search: true }),
    mbr_pckp_psn: text({ label: 'Person Picking Up', required: true, search: true, max: 150 }),
    mbr_pckp_dt: date({ label: 'Pickup Date', required: true, defaultValue: 'today' }),
    mbr_pckp_rsn: text({ label: 'Reason', max: 500 }),
    mbr_pckp_sts: select({ label: 'Status', options: ['Pending', 'Approved', 'Rejected', 'Picked Up'], required: true, defaultValue: 'Pending', search: true }),
    mbr_pckp_cmts: text({ label: 'Comments', multiline: true, max: 500 }),
  },
  actions: [{ button: 'take_action', label: 'Take Action', field: 'mbr_pckp_sts' }],
  // 'His students only': the rows of the teacher's own students, by the student's own rule.
  ownership: { via: 'stud_cd' },
  defaultSort: { field: 'mbr_pckp_dt', dir: 'desc' },
});
