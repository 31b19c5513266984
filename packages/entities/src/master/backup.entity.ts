import { bool, code, defineEntity, select, text } from '../define';

/** Where and when the database is backed up. Settings only: the backup job itself comes later. */
export const backup = defineEntity({
  name: 'backup',
  table: 'backup',
  key: 'bckp_cd',
  // One database holds every institute, so one backup covers them all.
  scope: 'global',
  label: 'Backup',
  title: 'bckp_fldr_nm',
  fields: {
    bckp_cd: code(),
    bckp_fldr_nm: text({ label: 'Folder Name', required: true, search: true, unique: true, max: 100 }),
    // A folder on the server; the backup job must keep it inside its configured backup root.
    bckp_path: text({ label: 'Backup Path', required: true, search: true, max: 300 }),
    bckp_typ: select({ label: 'Frequency', options: ['Daily', 'Weekly', 'Monthly'], required: true, defaultValue: 'Daily' }),
    // When within the frequency: a time for Daily (02:00), a weekday for Weekly, a day of month for Monthly.
    bckp_typ_vl: text({ label: 'Run At', max: 20 }),
    // File name pattern, e.g. campus_YYYYMMDD.
    bckp_ptrn: text({ label: 'File Name Pattern', max: 100 }),
    bckp_is_zip: bool({ label: 'Compress (zip)', defaultValue: true }),
  },
  defaultSort: { field: 'bckp_fldr_nm', dir: 'asc' },
});
