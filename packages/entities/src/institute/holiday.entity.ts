import { code, date, defineEntity, select, text } from '../define';

export const holiday = defineEntity({
  name: 'holiday',
  table: 'holiday',
  key: 'hly_cd',
  // The holiday list is published afresh for every academic year.
  scope: 'academic-year',
  label: 'Holiday',
  title: 'hly_nm',
  fields: {
    hly_cd: code(),
    hly_nm: text({ label: 'Holiday Name', required: true, search: true, unique: true, max: 100 }),
    hly_frm_dt: date({ label: 'From Date', required: true }),
    hly_to_dt: date({ label: 'To Date', required: true, notBefore: 'hly_frm_dt' }),
    hly_typ: select({ label: 'Holiday Type', options: ['Public', 'Festival', 'Institute', 'Exam'], required: true, defaultValue: 'Public' }),
  },
  defaultSort: { field: 'hly_frm_dt', dir: 'asc' },
});
