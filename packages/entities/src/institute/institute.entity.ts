import { bool, code, defineEntity, number, select, text } from '../define';

// The dialog cannot start from the stored values (it starts only from row fields of the same name), so a
// blank input means 'keep what is set', and says so.
const KEEP = 'Leave blank to keep the current value';

export const institute = defineEntity({
  name: 'institute',
  table: 'institute',
  key: 'inst_cd',
  scope: 'institute-root',
  label: 'Institute',
  title: 'inst_nm',
  fields: {
    inst_cd: code(),
    inst_nm: text({ label: 'Institute Name', required: true, search: true, unique: 'global', max: 200 }),
    // 'college' switches the interface to the language's _clg variant (Class -> Year, Student -> ...).
    // Stored lower case (the session and languageFileName compare 'college'); shown capitalised.
    inst_typ: select({
      label: 'Institute Type',
      options: ['school', 'college'],
      optionLabels: { school: 'School', college: 'College' },
      required: true,
      defaultValue: 'school',
    }),
    is_active: bool({ label: 'Active', defaultValue: true }),
    inst_ph: text({ label: 'Phone', format: 'phone', search: true, max: 20 }),
    inst_eml: text({ label: 'E-mail', format: 'email', search: true, max: 150 }),
    inst_adr1: text({ label: 'Address Line 1', max: 200 }),
    inst_adr2: text({ label: 'Address Line 2', max: 200 }),
  },
  toggles: [{ button: 'active', label: 'Active', field: 'is_active' }],
  // The institute's settings the workflows read (workflows/setting): each input is one setting code in lower
  // case. The secret is written, never shown: no row field carries it, so the dialog never prefills it.
  workflowButtons: [
    {
      button: 'settings',
      label: 'Settings',
      path: 'settings',
      target: 'path',
      confirm: 'Change the settings of {{title}}. A blank input keeps the current value.',
      done: 'The settings of {{title}} are saved.',
      inputs: {
        admn_no_ptrn: text({ label: 'Admission Number Pattern', max: 60, placeholder: KEEP }),
        lib_max_books_student: number({ label: 'Books a Student May Hold', min: 1, max: 100, placeholder: KEEP }),
        lib_max_books_employee: number({ label: 'Books an Employee May Hold', min: 1, max: 100, placeholder: KEEP }),
        lib_loan_days: number({ label: 'Loan Days', min: 1, max: 365, placeholder: KEEP }),
        read_budget_rows_hour: number({ label: 'Rows a User May Read per Hour', min: 100, max: 10000000, placeholder: KEEP }),
        pay_webhook_secret: text({ label: 'Payment Webhook Secret', max: 200, placeholder: KEEP }),
      },
    },
  ],
  defaultSort: { field: 'inst_nm', dir: 'asc' },
});
