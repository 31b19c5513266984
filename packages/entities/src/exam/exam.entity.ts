import { code, date, defineEntity, link, text } from '../define';

/** Exam schedule: one exam type held for one class section between two dates. */
export const exam = defineEntity({
  name: 'exam',
  table: 'exam',
  key: 'exm_cd',
  scope: 'academic-year',
  label: 'Exam',
  title: 'exm_nm',
  fields: {
    exm_cd: code(),
    // Not in the spec: the mark form's exam dropdown needs a name to show ('Quarterly - X A').
    exm_nm: text({ label: 'Exam Name', required: true, search: true, unique: true, max: 100 }),
    exmtyp_cd: link({ label: 'Exam Type', to: 'exam_type', display: 'exmtyp_nm', as: 'exmtyp_nm', required: true, search: true }),
    // The spec's cls_sec_nm is class and section together; a link shows one target field, so both are shown.
    cls_cd: link({ label: 'Class', to: 'class', display: 'cls_nm', as: 'cls_nm', required: true, search: true }),
    sec_cd: link({ label: 'Section', to: 'section', display: 'sec_nm', as: 'sec_nm', required: true, search: true, within: { cls_cd: 'cls_cd' } }),
    exm_strt_dt: date({ label: 'Start Date', required: true }),
    exm_end_dt: date({ label: 'End Date', required: true, notBefore: 'exm_strt_dt' }),
  },
  uniqueTogether: [{ fields: ['exmtyp_cd', 'sec_cd'], message: 'This section already has an exam of this type.' }],
  // 'His students only': the exams of the sections the teacher teaches (the schedule shows a teacher those).
  ownership: { through: 'subject_detail', match: { sec_cd: 'sec_cd' }, user: 'usr_cd' },
  defaultSort: { field: 'exm_strt_dt', dir: 'asc' },
});
