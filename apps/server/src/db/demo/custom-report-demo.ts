import { entity } from '@campus/entities/registry';
import { rows, sql } from '../client';
import type { Row } from './insert-rows';
import type { DemoScope } from './demo-scope';

export interface CustomReportDemo extends DemoScope {
  /** The top class (VIII, a final year): the class a report follows most closely. */
  topClass: string;
  /** The library's first shelf ("Children's Fiction", 'Computer Science'). */
  firstShelf: string;
}

async function codeOf(c: CustomReportDemo, entityName: string, nameField: string, name: string): Promise<number | undefined> {
  const e = entity(entityName);
  const [hit] = await rows<{ k: number }>(
    c.tx,
    sql`SELECT ${sql.identifier(e.key)} AS k FROM ${sql.identifier(e.table)} WHERE inst_cd = ${c.instCd} AND ${sql.identifier(nameField)} = ${name}`,
  );
  return hit?.k;
}

/**
 * Report groups (Reports > Group) and the saved reports an office would build first: a class list, a
 * scholarship list, a shelf, the electricity bills and the payment modes turned off. Every definition is
 * one the custom report hook accepts (fields of the entity, values by the field's own rule).
 */
export async function customReportDemo(c: CustomReportDemo): Promise<void> {
  const inst = (r: Row): Row => ({ inst_cd: c.instCd, ...r, crt_by: c.admin });
  const groups = await c.add(
    'report',
    [
      ['Students', 1],
      ['Accounts', 2],
      ['Library', 3],
    ].map(([rpt_nm, rpt_srt_ord]) => inst({ rpt_nm, rpt_srt_ord })),
    ['rpt_nm'],
  );
  const group = (nm: string): number | null => {
    const g = groups.find((x) => x.rpt_nm === nm);
    return g ? Number(g.rpt_cd) : null;
  };
  const cls = await codeOf(c, 'class', 'cls_nm', c.topClass);
  const shelf = await codeOf(c, 'book_category', 'ctgy_nm', c.firstShelf);
  const power = await codeOf(c, 'expense_sub_category', 'exp_sub_ctgy_nm', 'Electricity Charges');

  const report = (nm: string, grp: string, on: string, cols: string[], fltrs: { field: string; value: string }[], sort: string, dir: 'asc' | 'desc', dscr: string): Row =>
    inst({
      cst_rpt_nm: nm,
      rpt_cd: group(grp),
      cst_rpt_entity: on,
      cst_rpt_q: null,
      // jsonb columns take the JSON text.
      cst_rpt_cols: JSON.stringify(cols),
      cst_rpt_fltrs: fltrs.length ? JSON.stringify(fltrs) : null,
      cst_rpt_sort: sort,
      cst_rpt_dir: dir,
      cst_rpt_dscr: dscr,
    });
  const list: Row[] = [];
  if (cls !== undefined) {
    list.push(
      report(`${c.topClass} class list`, 'Students', 'student', ['stud_roll_nmb', 'stud_fs_nm', 'sec_cd', 'stud_fthr_nm', 'stud_ph'], [{ field: 'cls_cd', value: String(cls) }], 'stud_roll_nmb', 'asc', 'Roll call order with a parent contact'),
    );
  }
  list.push(
    report('Tamil medium girls', 'Students', 'student', ['stud_fs_nm', 'cls_cd', 'sec_cd', 'stud_mthr_nm', 'stud_ph'], [
      { field: 'medium', value: 'Tamil' },
      { field: 'stud_gnd', value: 'Female' },
    ], 'stud_fs_nm', 'asc', 'For the scholarship applications'),
  );
  if (power !== undefined) {
    list.push(report('Electricity bills', 'Accounts', 'expense', ['exp_dt', 'exp_desc', 'exp_amt'], [{ field: 'exp_sub_ctgy_cd', value: String(power) }], 'exp_dt', 'desc', 'Every bill paid this year, latest first'));
  }
  list.push(report('Payment modes turned off', 'Accounts', 'tender_type', ['tnd_typ_nm', 'tnd_typ_dscr'], [{ field: 'tnd_typ_sts', value: 'false' }], 'tnd_typ_odr', 'asc', 'Modes the counter must not accept'));
  if (shelf !== undefined) {
    list.push(report(`${c.firstShelf} shelf`, 'Library', 'book', ['bk_ser_nmb', 'bk_nm', 'bk_qty', 'bk_barcd'], [{ field: 'ctgy_cd', value: String(shelf) }], 'bk_nm', 'asc', 'Stock check of one shelf'));
  }
  await c.add('custom_report', list);
}
