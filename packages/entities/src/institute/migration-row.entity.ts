import { code, defineEntity, link, number, text } from '../define';

/**
 * One row a year rollover wrote (the copy of fee group 12 as fee group 87), so rolling that run back deletes
 * exactly what it wrote and nothing typed since. Written and read by the migration workflow only.
 */
export const migrationRow = defineEntity({
  name: 'migration_row',
  table: 'migration_row',
  key: 'mgrtn_row_cd',
  scope: 'institute',
  label: 'Migrated Row',
  title: 'mgrtn_row_tbl',
  fields: {
    mgrtn_row_cd: code(),
    mgrtn_cd: link({ label: 'Migration', to: 'migration', display: 'mgrtn_tbl_cd', as: 'mgrtn_tbl_cd', required: true }),
    // The entity's registry name ('fee'), as on the migration row.
    mgrtn_row_tbl: text({ label: 'Table', required: true, max: 60 }),
    mgrtn_row_src_cd: number({ label: 'Copied From', required: true, max: 2_147_483_647 }),
    mgrtn_row_cpy_cd: number({ label: 'Copy', required: true, max: 2_147_483_647 }),
  },
  uniqueTogether: [{ fields: ['mgrtn_row_tbl', 'mgrtn_row_cpy_cd'], message: 'This copy is already recorded.' }],
  routes: [],
});
