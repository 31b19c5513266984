import { code, defineEntity, text } from '../define';

export const language = defineEntity({
  name: 'language',
  table: 'language',
  key: 'lang_cd',
  // Translation files are installation-wide, so the list of languages is too.
  scope: 'global',
  label: 'Language',
  title: 'lang_nm',
  fields: {
    lang_cd: code(),
    lang_nm: text({ label: 'Language Name', required: true, search: true, unique: true, max: 100 }),
    lang_asset_fl_nm: text({ label: 'Asset File Name', required: true, unique: true, max: 100, format: 'upper-code' }),
    lang_dscr: text({ label: 'Description', multiline: true, max: 500 }),
  },
  defaultSort: { field: 'lang_nm', dir: 'asc' },
});
