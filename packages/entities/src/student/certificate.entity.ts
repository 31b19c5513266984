import { code, date, defineEntity, link, number, select, text } from '../define';

/** The certificates the office issues; the printed title and wording follow the kind. */
export const certificateKinds = ['Bonafide', 'Conduct', 'Transfer Certificate'] as const;
export type CertificateKind = (typeof certificateKinds)[number];

/**
 * A certificate issued to a student (bonafide, conduct, transfer): which kind, its number, who issued it and
 * when, and what a transfer certificate states about leaving. The number (cert_fct_nmb) is what people read
 * and quote: the next of the institute's one running series, given by the server (certificate hooks);
 * cert_fct_cd stays the record's internal code.
 */
export const certificate = defineEntity({
  name: 'certificate',
  table: 'certificate',
  key: 'cert_fct_cd',
  scope: 'academic-year',
  label: 'Certificate',
  title: 'cert_fct_nm',
  fields: {
    cert_fct_cd: code({ label: 'Certificate Code', gridHidden: true }),
    cert_fct_nmb: number({ label: 'Certificate No', readOnly: true, unique: true, min: 1 }),
    // A printed, numbered certificate does not turn into another kind: a wrong one is issued again.
    cert_fct_typ: select({ label: 'Certificate Type', options: certificateKinds, required: true, search: true, immutable: true }),
    stud_cd: link({ label: 'Student', to: 'student', display: 'stud_fs_nm', as: 'stud_fs_nm', required: true, search: true }),
    // Not unique: every leaver gets a 'Transfer Certificate'. Left empty, the kind's own title is used.
    cert_fct_nm: text({ label: 'Certificate Name', search: true, max: 100 }),
    cert_fct_crt_dt: date({ label: 'Issued Date', auto: 'created-at' }),
    usr_nm: text({ label: 'Issued By', auto: 'created-by', max: 60 }),
    // Bonafide: what the certificate is asked for (a bank account, a scholarship, a bus pass).
    cert_fct_prps: text({ label: 'Purpose', max: 200, gridHidden: true }),
    // Transfer certificate: required for that kind (certificate hooks).
    cert_fct_lvng_dt: date({ label: 'Date of Leaving', gridHidden: true }),
    cert_fct_lvng_rsn: text({ label: 'Reason for Leaving', max: 200, gridHidden: true }),
    // Conduct and transfer certificates state it (required for those kinds).
    cert_fct_cndct: select({ label: 'Conduct and Character', options: ['Excellent', 'Very Good', 'Good', 'Satisfactory'], gridHidden: true }),
    cert_fct_rmks: text({ label: 'Remarks', multiline: true, max: 500, gridHidden: true }),
  },
  // 'His students only': the rows of the teacher's own students, by the student's own rule.
  ownership: { via: 'stud_cd' },
  // The selected certificate on the institute's letterhead: GET /api/certificate/{cert_fct_cd}/pdf.
  documents: [{ button: 'print', label: 'Print', path: 'pdf' }],
  // A certificate is a register entry with a number that may already be on paper: a mistake is corrected by
  // Edit (or a new certificate), never by deleting, which would hand the same number out again.
  routes: ['list', 'get', 'create', 'update', 'import'],
  // Latest issue first.
  defaultSort: { field: 'cert_fct_cd', dir: 'desc' },
});
