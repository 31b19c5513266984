import { code, date, datetime, defineEntity, link, select, text, time } from '../define';

/**
 * Tracking (transport/tracking): each bus's trips of the day and where they are, as the transport in-charge
 * or the driver reports it ("On the way, passed Anna Nagar, expected 8.10"), so the front office can answer
 * a parent's call at once. No GPS hardware is assumed: the status is reported, with the time of the last
 * report stamped by the server.
 */
export const busTrip = defineEntity({
  name: 'bus_trip',
  api: '/api/bus_trip/',
  table: 'bus_trip',
  key: 'bs_trip_cd',
  scope: 'institute',
  label: 'Bus Trip',
  title: 'bs_trip_last_stop',
  fields: {
    bs_trip_cd: code(),
    bs_trip_dt: date({ label: 'Date', required: true }),
    bs_trck_cd: link({ label: 'Bus', to: 'bus', display: 'bs_trck_bus_nm', as: 'bs_trck_bus_nm', required: true, search: true }),
    bs_trip_typ: select({ label: 'Trip', options: ['Morning Pickup', 'Evening Drop', 'Excursion'], required: true, search: true }),
    bs_trip_sts: select({
      label: 'Status',
      options: ['Not Started', 'On the Way', 'Reached School', 'Completed', 'Delayed', 'Breakdown'],
      defaultValue: 'Not Started',
      search: true,
    }),
    bs_trip_last_stop: text({ label: 'Last Stop Passed', search: true, max: 100 }),
    bs_trip_eta: time({ label: 'Expected At' }),
    bs_trip_drv_nm: text({ label: 'Driver', search: true, max: 100 }),
    bs_trip_drv_ph: text({ label: 'Driver Phone', format: 'phone', max: 20 }),
    bs_trip_rmks: text({ label: 'Remarks', multiline: true, max: 500 }),
    bs_trip_updt_dt: datetime({ label: 'Last Update', auto: 'updated-at' }),
    bs_trip_updt_by: text({ label: 'Updated By', auto: 'updated-by-name', max: 150 }),
  },
  // One morning and one evening trip per bus a day: a second row would leave the office reading the wrong one.
  uniqueTogether: [{ fields: ['bs_trip_dt', 'bs_trck_cd', 'bs_trip_typ'], message: 'This bus already has this trip on this date.' }],
  actions: [{ button: 'take_action', label: 'Take Action', field: 'bs_trip_sts' }],
  defaultSort: { field: 'bs_trip_dt', dir: 'desc' },
});
