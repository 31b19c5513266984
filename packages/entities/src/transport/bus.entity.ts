import { code, defineEntity, text } from '../define';

export const bus = defineEntity({
  name: 'bus',
  // The spec's list call for the Bus Detail page.
  api: '/api/bus_tracking/',
  table: 'bus',
  key: 'bs_trck_cd',
  scope: 'institute',
  label: 'Bus',
  title: 'bs_trck_bus_nm',
  fields: {
    bs_trck_cd: code(),
    bs_trck_bus_nm: text({ label: 'Bus Name', required: true, search: true, unique: true, max: 100 }),
    // Searchable so a clerk can find the bus that serves a stop.
    bs_trck_dscr: text({ label: 'Route', multiline: true, search: true, max: 500 }),
  },
  defaultSort: { field: 'bs_trck_bus_nm', dir: 'asc' },
});
