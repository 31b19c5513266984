import { bool, code, defineEntity, select, text } from '../define';

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
  defaultSort: { field: 'inst_nm', dir: 'asc' },
});
