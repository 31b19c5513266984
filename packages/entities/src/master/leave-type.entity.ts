import { code, defineEntity, number, select, text } from '../define';

export const leaveType = defineEntity({
  name: 'leavetype',
  table: 'leave_type',
  key: 'leav_typ_cd',
  scope: 'institute',
  label: 'Leave Type',
  title: 'leav_typ_nm',
  fields: {
    leav_typ_cd: code(),
    leav_typ_nm: text({ label: 'Leave Type Name', required: true, search: true, unique: true, max: 100 }),
    leav_typ_for: select({ label: 'Applies To', options: ['Student', 'Employee', 'Both'], required: true, defaultValue: 'Both' }),
    leav_typ_days: number({ label: 'Days Allowed Per Year', max: 366 }),
    leav_typ_dscr: text({ label: 'Description', multiline: true, max: 500 }),
  },
  defaultSort: { field: 'leav_typ_nm', dir: 'asc' },
});
