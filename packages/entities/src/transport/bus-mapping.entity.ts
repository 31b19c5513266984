import { code, date, defineEntity, link, text } from '../define';

/** Which bus a student takes this year, and where they board it. */
export const busMapping = defineEntity({
  name: 'bus_mapping',
  table: 'bus_mapping',
  key: 'bs_map_cd',
  scope: 'academic-year',
  label: 'Bus Mapping',
  title: 'bs_map_cd',
  fields: {
    bs_map_cd: code(),
    // Fixed after create: putting another child on the bus is a new mapping, not an edit of this one.
    stud_cd: link({ label: 'Student', to: 'student', display: 'stud_fs_nm', as: 'stud_fs_nm', required: true, search: true, immutable: true }),
    bs_trck_cd: link({ label: 'Bus', to: 'bus', display: 'bs_trck_bus_nm', as: 'bs_trck_bus_nm', required: true, search: true }),
    bs_map_stop: text({ label: 'Boarding Point', required: true, search: true, max: 100 }),
    bs_map_frm_dt: date({ label: 'From Date', required: true }),
    bs_map_dscr: text({ label: 'Description', multiline: true, max: 500 }),
  },
  // A child rides one bus: changing bus edits the mapping, stopping transport deletes it.
  uniqueTogether: [{ fields: ['stud_cd'], message: 'This student already has a bus this year.' }],
  // 'His students only': the rows of the teacher's own students, by the student's own rule.
  ownership: { via: 'stud_cd' },
  defaultSort: { field: 'bs_map_cd', dir: 'desc' },
});
