import { code, date, number, select, text, time, type OwnershipOfRecord } from '../define';

/** Whose a movement is: the holder's, a student (through his section) or an employee (himself). */
export const bookHolderOwnership: OwnershipOfRecord<'bk_chk_usr_typ' | 'bk_chk_usr_cd'> = {
  entity: 'bk_chk_usr_typ',
  key: 'bk_chk_usr_cd',
  entities: { Student: 'student', Employee: 'employee' },
};

/**
 * The fields of a book issue and of a book return. The spec gives one field list for both, so both tables
 * carry the same names; only the code's label differs. Every field is written by the issue/return workflow
 * (which also moves the stock), never by a generic request.
 */
export function bookMovementFields(codeLabel: string) {
  return {
    bk_chk_cd: code({ label: codeLabel }),
    bk_chk_usr_typ: select({ label: 'User Type', options: ['Student', 'Employee'], readOnly: true, search: true }),
    // A student's stud_cd or an employee's usr_cd, by the user type: one column cannot link to two tables.
    bk_chk_usr_cd: number({ label: 'User Code', readOnly: true }),
    // The name at the time of the movement, so the grid can show who without a join on two tables.
    bk_chk_usr_nm: text({ label: 'User Name', readOnly: true, search: true, max: 150 }),
    // The titles as they were at the desk ('Wings of Fire x2, Malgudi Days'), like the holder's name: what the
    // slip said, readable and searchable ('who took Wings of Fire?') without joining lines of two tables.
    bk_chk_bk_nms: text({ label: 'Books', readOnly: true, search: true, max: 2000 }),
    bk_chk_bk_cnt: number({ label: 'Book Count', readOnly: true, max: 1000 }),
    bk_chk_tot_qty: number({ label: 'Total Quantity', readOnly: true, max: 100_000 }),
    bk_chk_dt: date({ label: 'Date', readOnly: true }),
    bk_chk_tm: time({ label: 'Time', readOnly: true }),
  } as const;
}
