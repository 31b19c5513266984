import { code, defineEntity, select, text } from '../define';

/**
 * One round of examinations (Unit Test 1, Quarterly, Half Yearly, Annual) and where it stands: drafted,
 * scheduled, held, results published.
 */
export const examType = defineEntity({
  name: 'exam_type',
  // The spec's list call for the Exam Type page.
  api: '/api/examtype/',
  table: 'exam_type',
  key: 'exmtyp_cd',
  // The status follows one year's round of the exam, so 'Quarterly' is set up afresh each year.
  scope: 'academic-year',
  label: 'Exam Type',
  title: 'exmtyp_nm',
  fields: {
    exmtyp_cd: code(),
    exmtyp_nm: text({ label: 'Exam Type Name', required: true, search: true, unique: true, max: 100 }),
    exmtyp_dscr: text({ label: 'Description', multiline: true, max: 500 }),
    exmtyp_sts: select({ label: 'Status', options: ['Draft', 'Scheduled', 'Completed', 'Published'], required: true, defaultValue: 'Draft', search: true }),
  },
  actions: [{ button: 'take_action', label: 'Take Action', field: 'exmtyp_sts' }],
  defaultSort: { field: 'exmtyp_nm', dir: 'asc' },
});
