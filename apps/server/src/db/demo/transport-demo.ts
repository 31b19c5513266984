import { rows, sql } from '../client';
import { addDays, inYear } from './calendar';
import type { Row } from './insert-rows';
import type { DemoScope } from './demo-scope';

export type TransportDemo = DemoScope;

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** Rs x.yz as a two-decimal string from whole paise, so no float ever makes the amount. */
const rupees = (paise: number): string => `${Math.floor(paise / 100)}.${String(paise % 100).padStart(2, '0')}`;

/**
 * Who rides which bus and what the buses cost, so Bus Mapping and the Transport Budget report show a
 * believable year: about a third of the children ride, boarding at a stop of their bus's route; each bus
 * has its diesel and its driver's salary every month that has ended, and now and then a repair.
 */
export async function transportDemo(d: TransportDemo): Promise<void> {
  const r = d.rng('transport');
  const buses = await rows<{ bs_trck_cd: number; bs_trck_bus_nm: string; bs_trck_dscr: string | null }>(
    d.tx,
    sql`SELECT bs_trck_cd, bs_trck_bus_nm, bs_trck_dscr FROM bus WHERE inst_cd = ${d.instCd} ORDER BY bs_trck_cd`,
  );
  if (buses.length === 0) return;
  const kids = await rows<{ stud_cd: number }>(d.tx, sql`SELECT stud_cd FROM student WHERE inst_cd = ${d.instCd} AND acdm_cd = ${d.acdmCd} ORDER BY stud_cd`);
  const opened = inYear(d.startYear, d.joinMonth, d.joinMonth, 1);
  // 'Avadi - Ambattur OT - Padi - School. Leaves Avadi 7.05 am.': the stops are the parts before 'School'.
  const stopsOf = (route: string | null): string[] => (route ?? '').split(' - ').filter((s) => s.trim() !== '' && !s.startsWith('School'));
  const mapping: Row[] = [];
  for (const k of kids) {
    if (!r.chance(0.35)) continue;
    const bus = r.pick(buses);
    const stops = stopsOf(bus.bs_trck_dscr);
    const later = addDays(opened, r.int(20, 90));
    mapping.push({
      inst_cd: d.instCd,
      acdm_cd: d.acdmCd,
      stud_cd: k.stud_cd,
      bs_trck_cd: bus.bs_trck_cd,
      bs_map_stop: stops.length ? r.pick(stops) : 'Main Gate',
      // Most from the first day; a few joined the bus later in the year.
      bs_map_frm_dt: r.chance(0.9) || later > d.today ? opened : later,
      bs_map_dscr: null,
      crt_by: d.admin,
    });
  }
  if (mapping.length) await d.add('bus_mapping', mapping);

  const heads = await rows<{ exp_sub_ctgy_cd: number; exp_sub_ctgy_nm: string; bs_trck_cd: number }>(
    d.tx,
    sql`SELECT exp_sub_ctgy_cd, exp_sub_ctgy_nm, bs_trck_cd FROM expense_sub_category
        WHERE inst_cd = ${d.instCd} AND bs_trck_cd IS NOT NULL ORDER BY exp_sub_ctgy_cd`,
  );
  const entries: Row[] = [];
  for (let i = 0; i < 12; i++) {
    const month = ((d.joinMonth - 1 + i) % 12) + 1;
    const paidOn = inYear(d.startYear, d.joinMonth, month, 28);
    if (paidOn > d.today) break;
    for (const h of heads) {
      const bus = buses.find((b) => b.bs_trck_cd === h.bs_trck_cd)?.bs_trck_bus_nm.replace(/ \(.*\)$/, '') ?? '';
      const entry = (desc: string, paise: number): Row => ({
        inst_cd: d.instCd,
        acdm_cd: d.acdmCd,
        exp_sub_ctgy_cd: h.exp_sub_ctgy_cd,
        exp_desc: `${desc} - ${bus} - ${MONTHS[month - 1]}`,
        exp_amt: rupees(paise),
        exp_dt: paidOn,
        exp_crt_dt: paidOn,
        crt_by: d.admin,
      });
      if (h.exp_sub_ctgy_nm.startsWith('Diesel')) entries.push(entry('Diesel', r.int(2_600_000, 3_400_000)));
      else if (h.exp_sub_ctgy_nm.startsWith('Driver Salary')) entries.push(entry('Driver salary', 1_850_000));
      else if (r.chance(0.3)) entries.push(entry('Repairs and service', r.int(250_000, 1_200_000)));
    }
  }
  if (entries.length) await d.add('expense', entries);
}
