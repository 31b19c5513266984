import { code, date, defineEntity, link, select, text, time } from '../define';

/** A request to take a student home before the end of the day. */
export const earlyPickup = defineEntity({
  name: 'early_pickup',
  table: 'early_pickup',
  key: 'erly_pckp_cd',
  scope: 'academic-year',
  label: 'Early Pickup',
  title: 'erly_pckp_req_rsn',
  fields: {
    erly_pckp_cd: code(),
    stud_cd: link({ label: 'Student', to: 'student', display: 'stud_fs_nm', as: 'stud_fs_nm', required: true, search: true }),
    erly_pckp_dt: date({ label: 'Pickup Date', required: true, defaultValue: 'today' }),
    erly_pckp_tm: time({ label: 'Pickup Time', required: true }),
    erly_pckp_req_rsn: text({ label: 'Reason', required: true, search: true, max: 500 }),
    erly_pckp_req_sts: select({ label: 'Status', options: ['Pending', 'Approved', 'Rejected', 'Picked Up'], required: true, defaultValue: 'Pending', search: true }),
    erly_pckp_cmts: text({ label: 'Comments', multiline: true, max: 500 }),
  },
  actions: [{ button: 'take_action', label: 'Take Action', field: 'erly_pckp_req_sts' }],
  // 'His students only': the rows of the teacher's own students, by the student's own rule.
  ownership: { via: 'stud_cd' },
  defaultSort: { field: 'erly_pckp_dt', dir: 'desc' },
});
