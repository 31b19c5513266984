import { code, defineEntity, number, select } from '../define';

/**
 * The last number handed out in one receipt book: one row per institute, academic year and kind of number.
 * The collecting transaction raises it (INSERT ... ON CONFLICT DO UPDATE ... RETURNING) as its last write,
 * so its row lock queues only the bills of that institute and year, and only until they commit; a bill that
 * rolls back takes its number back with it, so the numbers stay gapless. No page and no routes: nobody in
 * the office edits it.
 */
export const billCounter = defineEntity({
  name: 'bill_counter',
  table: 'bill_counter',
  key: 'bill_cntr_cd',
  scope: 'academic-year',
  label: 'Bill Counter',
  title: 'bill_cntr_kind',
  fields: {
    bill_cntr_cd: code(),
    // One counter per receipt book: fee bills today; another numbered document would be another kind.
    bill_cntr_kind: select({ label: 'Receipt Book', options: ['Fee Bill'], defaultValue: 'Fee Bill', required: true, readOnly: true, unique: true }),
    bill_cntr_last: number({ label: 'Last Number', required: true, readOnly: true }),
  },
  routes: [],
});
