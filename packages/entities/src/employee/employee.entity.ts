import { bool, code, defineEntity, image, link, password, select, text } from '../define';

export const employee = defineEntity({
  name: 'employee',
  table: 'employee',
  key: 'usr_cd',
  scope: 'institute',
  label: 'Employee',
  title: 'usr_full_nm',
  fields: {
    usr_cd: code(),
    usr_nm: text({ label: 'Login Id', required: true, search: true, unique: 'global', max: 60, format: 'upper-code', immutable: true }),
    usr_full_nm: text({ label: 'Full Name', required: true, search: true, max: 150 }),
    usr_id: text({ label: 'Employee Id', search: true, unique: true, max: 40 }),
    usr_typ: link({ label: 'Role', to: 'role', display: 'rl_nm', as: 'rl_nm', required: true }),
    usr_desg: link({ label: 'Designation', to: 'designation', display: 'desg_nm', as: 'desg_nm' }),
    usr_gnd: select({ label: 'Gender', options: ['Male', 'Female', 'Other'] }),
    usr_ph: text({ label: 'Phone', format: 'phone', search: true, max: 20 }),
    usr_eml: text({ label: 'E-mail', format: 'email', search: true, max: 150 }),
    usr_cur_adr: text({ label: 'Current Address', multiline: true, max: 500 }),
    usr_is_lgn: bool({ label: 'Allow Login', defaultValue: false }),
    // Issue 11: at least 10 characters (the server also refuses the 10,000 most common passwords).
    usr_pwd: password({ label: 'Password', min: 10 }),
    // Set when an administrator resets the password: the owner chooses a new one at the next sign-in.
    usr_pwd_chg_req: bool({ label: 'Must Change Password', readOnly: true, internal: true, defaultValue: false }),
    usr_photo: image({ label: 'Photo' }),
  },
  toggles: [{ button: 'allow_login', label: 'Allow Login', field: 'usr_is_lgn' }],
  workflowButtons: [
    {
      // 'login' in the names: only administrators ever hold these (spec section 6). Issue 11's second factor.
      button: 'reset_mfa_login',
      label: 'Reset Two-Step Sign-in',
      path: 'mfa_reset',
      target: 'path',
      confirm: 'Reset the two-step sign-in of {{title}}? Their authenticator app and recovery codes stop working; they set it up again at their next sign-in if it is required.',
      done: 'The two-step sign-in of {{title}} is reset.',
    },
    {
      button: 'require_mfa_login',
      label: 'Require Two-Step Sign-in',
      path: 'mfa_require',
      target: 'path',
      confirm: 'Require two-step sign-in of {{title}}? They will set it up at their next sign-in.',
      done: '{{title}} must now use two-step sign-in.',
    },
  ],
  ownership: 'self',
  // One's own password is changed with Change Password (POST /api/employee/password/), which asks for the
  // current one; not through this form.
  selfService: ['usr_full_nm', 'usr_gnd', 'usr_ph', 'usr_eml', 'usr_cur_adr', 'usr_photo'],
  defaultSort: { field: 'usr_full_nm', dir: 'asc' },
});
