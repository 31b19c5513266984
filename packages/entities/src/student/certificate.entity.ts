import { code, date, defineEntity, link, text } from '../define';

/** A certificate issued to a student (transfer, bonafide, conduct): who issued which one, and when. */
export const certificate = defineEntity({
  name: 'certificate',
  table: 'certificate',
  key: 'cert_fct_cd',
  scope: 'academic-year',
  label: 'Certificate',
  title: 'cert_fct_nm',
  fields: {
    cert_fct_cd: code({ label: 'Certificate No' }),
    stud_cd: link({ label: 'Student', to: 'student', display: 'stud_fs_nm', as: 'stud_fs_nm', required: true, search: true }),
    // Not unique: every leaver gets a 'Transfer Certificate'.
    cert_fct_nm: text({ label: 'Certificate Name', required: true, search: true, max: 100 }),
    cert_fct_crt_dt: date({ label: 'Issued Date', auto: 'created-at' }),
    usr_nm: text({ label: 'Issued By', auto: 'created-by', max: 60 }),
  },
  // 'His students only': the rows of the teacher's own students, by the student's own rule.
  ownership: { via: 'stud_cd' },
  // Latest issue first.
  defaultSort: { field: 'cert_fct_cd', dir: 'desc' },
});
