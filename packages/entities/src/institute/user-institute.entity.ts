import { bool, code, defineEntity, link, text } from '../define';

/** Employee mapping: which staff may work in this institute (the inst_cd header is checked against it). */
export const userInstitute = defineEntity({
  name: 'user_institute',
  table: 'user_institute',
  key: 'usr_inst_cd',
  scope: 'institute',
  label: 'Employee Mapping',
  title: 'usr_inst_cd',
  fields: {
    usr_inst_cd: code(),
    usr_cd: link({
      label: 'Employee',
      to: 'employee',
      display: 'usr_full_nm',
      as: 'usr_full_nm',
      required: true,
      search: true,
      immutable: true,
      anyOfMyInstitutes: true,
    }),
    usr_inst_sts: bool({ label: 'Active', defaultValue: true }),
    usr_inst_dscr: text({ label: 'Description', max: 300 }),
  },
  uniqueTogether: [{ fields: ['usr_cd'], message: 'This employee is already mapped to the institute.' }],
  toggles: [{ button: 'active', label: 'Active', field: 'usr_inst_sts' }],
});
