import { code, date, defineEntity, link, text, time } from '../define';

/** A note of a call or meeting with a family about unpaid fees, and when to chase them again. */
export const feeFollowup = defineEntity({
  name: 'fee_followup',
  table: 'fee_followup',
  key: 'fee_flwup_cd',
  scope: 'academic-year',
  label: 'Fee Follow Up',
  title: 'fee_flwup_nt',
  fields: {
    fee_flwup_cd: code(),
    stud_cd: link({ label: 'Student', to: 'student', display: 'stud_fs_nm', as: 'stud_fs_nm', required: true, search: true }),
    fee_flwup_nt: text({ label: 'Note', required: true, search: true, multiline: true, max: 1000 }),
    fee_flwup_nxt_dt: date({ label: 'Next Follow Up Date' }),
    fee_flwup_crt_dt: date({ label: 'Created Date', auto: 'created-at' }),
    fee_flwup_crt_tm: time({ label: 'Created Time', auto: 'created-at' }),
  },
  // 'His students only': the rows of the teacher's own students, by the student's own rule.
  ownership: { via: 'stud_cd' },
  defaultSort: { field: 'fee_flwup_cd', dir: 'desc' },
});
