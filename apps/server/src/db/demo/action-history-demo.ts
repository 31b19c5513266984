import { entity } from '@campus/entities/registry';
import { eq } from 'drizzle-orm';
import { rows, sql } from '../client';
import { selectionFor } from '../../engine/list-query';
import { addDays, iso } from './calendar';
import { insertRows, type Row } from './insert-rows';
import type { GroupGrant } from './access-demo';
import { workingDays, whoIs, type OfficeDemo, type StaffMember } from './staff-demo';

type Image = Record<string, unknown>;

interface Entry {
  date: string;
  time: string;
  usr: number;
  module: string;
  page: string;
  method: string;
  entityName: string;
  key: string | null;
  before: unknown;
  after: unknown;
}

/** The row as the engine's audit stores it: the grid's row (declared fields, linked names, row_ver). */
async function image(d: OfficeDemo, entityName: string, id: number): Promise<Image> {
  const e = entity(entityName);
  const s = selectionFor(e);
  let q = d.tx.select(s.columns).from(s.table).$dynamic();
  for (const j of s.joins) q = q.leftJoin(j.table, j.on);
  const [row] = await q.where(eq(s.table[e.key], id));
  if (!row) throw new Error(`demo: no ${entityName} ${id} for the history`);
  return row;
}

/**
 * An edit that happened: the row gets the new values (and its row_ver and updater, as the engine's PUT
 * leaves them); the images are the row before and after, as the audit writes them.
 */
async function edit(d: OfficeDemo, entityName: string, id: number, by: number, at: string, change: Record<string, [before: unknown, after: unknown]>): Promise<{ before: Image; after: Image }> {
  const e = entity(entityName);
  const sets = Object.entries(change).map(([f, [, v]]) => {
    if (!e.fields[f]) throw new Error(`demo: ${entityName} has no field ${f}`);
    return sql`${sql.identifier(f)} = ${v as string | number | boolean | null}`;
  });
  await d.tx.execute(
    sql`UPDATE ${sql.identifier(e.table)} SET ${sql.join(sets, sql`, `)}, row_ver = row_ver + 1, updt_by = ${by}, updt_dt = ${at}
        WHERE ${sql.identifier(e.key)} = ${id}`,
  );
  const after = await image(d, entityName, id);
  const before: Image = { ...after, row_ver: Number(after.row_ver) - 1 };
  for (const [f, [v]] of Object.entries(change)) before[f] = v;
  return { before, after };
}

/**
 * Action history (history/action): what the office did on its last working days, as the engine's audit
 * writes it (engine/audit.ts) — who, on which page, which method and row, and the row before and after — plus
 * how the permission groups were set up before the year began. Edits recorded here are applied to their rows,
 * so the history and the rows agree.
 */
export async function actionHistory(
  d: OfficeDemo,
  staff: readonly StaffMember[],
  made: { assignments: Row[]; resources: Row[]; notes: Row[]; groups: GroupGrant[]; mappings: Row[] },
): Promise<void> {
  const r = d.rng('action-history');
  const school = d.kind === 'school';
  const admin = d.admin;
  const recent = workingDays(d, addDays(d.today, -21), addDays(d.today, -1)).slice(-5);
  const list: Entry[] = [];
  const at = (day: string, h: number, m = r.int(0, 59)): { date: string; time: string } => ({ date: day, time: `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:${String(r.int(0, 59)).padStart(2, '0')}` });
  const stamp = (x: { date: string; time: string }): string => `${x.date}T${x.time}+05:30`;
  const push = (when: { date: string; time: string }, usr: number, module: string, page: string, method: string, entityName: string, key: number | string | null, before: unknown, after: unknown): void => {
    list.push({ ...when, usr, module, page, method, entityName, key: key === null ? null : String(key), before, after });
  };

  // The groups, their pages and their members, set up before the year opened.
  const setUp = addDays(iso(d.startYear, d.joinMonth, 1), -2);
  let minute = 0;
  const next = (): { date: string; time: string } => {
    minute += r.int(1, 4);
    return { date: setUp, time: `${String(10 + Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}:${String(r.int(0, 59)).padStart(2, '0')}` };
  };
  if (setUp <= d.today) {
    for (const g of made.groups) {
      push(next(), admin, 'user_permission', 'group', 'POST', 'user_permission_group', g.upg_cd, null, await image(d, 'user_permission_group', g.upg_cd));
      push(next(), admin, 'user_permission', 'permission', 'REPLACE', 'user_permission', `grp:${g.upg_cd}`, { rows: [] }, { rows: g.rows, at: setUp });
    }
    const maps = await rows<{ up_map_cd: number }>(d.tx, sql`SELECT up_map_cd FROM user_permission_mapping WHERE inst_cd = ${d.instCd} ORDER BY up_map_cd`);
    for (const m of maps) push(next(), admin, 'user_permission', 'mapping', 'POST', 'user_permission_mapping', m.up_map_cd, null, await image(d, 'user_permission_mapping', m.up_map_cd));
  }

  // Each morning the staff register.
  const registers = recent.length
    ? await rows<{ usr_atnc_cd: number; usr_atnc_dt: string }>(
        d.tx,
        sql`SELECT usr_atnc_cd, usr_atnc_dt::text AS usr_atnc_dt FROM employee_attendance
            WHERE inst_cd = ${d.instCd} AND acdm_cd = ${d.acdmCd} AND usr_atnc_dt BETWEEN ${recent[0]} AND ${recent.at(-1)} ORDER BY usr_atnc_dt`,
      )
    : [];
  for (const reg of registers) push(at(reg.usr_atnc_dt, 9, r.int(35, 55)), admin, 'employee', 'attendance', 'POST', 'employee_attendance', reg.usr_atnc_cd, null, await image(d, 'employee_attendance', reg.usr_atnc_cd));

  // The latest staff resource, uploaded on its day.
  const lastRes = [...made.resources].sort((a, b) => String(a.usr_rscs_upl_dt).localeCompare(String(b.usr_rscs_upl_dt))).at(-1);
  if (lastRes) push(at(String(lastRes.usr_rscs_upl_dt), 11), admin, 'employee', 'resource', 'POST', 'user_resource', Number(lastRes.usr_rscs_cd), null, await image(d, 'user_resource', Number(lastRes.usr_rscs_cd)));

  // Tasks given out, one taken up, one called off.
  for (const [i, a] of made.assignments.entries()) {
    const id = Number(a.usr_asgmt_cd);
    const day = recent[i % Math.max(1, recent.length)];
    if (!day) break;
    if (a.usr_asgmt_sts === 'Open') push(at(day, 12), admin, 'employee', 'assignment', 'POST', 'user_assignment', id, null, await image(d, 'user_assignment', id));
    if (a.usr_asgmt_sts === 'In Progress' || a.usr_asgmt_sts === 'Cancelled') {
      const when = at(recent.at(-1 - (i % 2)) ?? day, 15);
      const { before, after } = await edit(d, 'user_assignment', id, admin, stamp(when), { usr_asgmt_sts: ['Open', a.usr_asgmt_sts] });
      push(when, admin, 'employee', 'assignment', 'PUT', 'user_assignment', id, before, after);
    }
  }

  // Messages to parents drafted this week.
  for (const n of made.notes) {
    const day = String(n.mob_ntf_dtl_crt_dt);
    if (day < (recent[0] ?? d.today) || day >= d.today || (n.mob_ntf_dtl_sts !== 'Ready' && n.mob_ntf_dtl_sts !== 'Draft')) continue;
    push(at(day, 16), admin, 'features', 'mob_notification', 'POST', 'mob_notification', Number(n.mob_ntf_dtl_cd), null, await image(d, 'mob_notification', Number(n.mob_ntf_dtl_cd)));
  }

  const [d0, d1, d2, d3, d4] = recent;
  if (school && d0 && d4) {
    const acc = d.accounts.get('ACCOUNTANT');
    const lib = d.accounts.get('LIBRARIAN');
    const teacher = d.accounts.get('TEACHER');
    // The card machine went back to the vendor: the accountant turned Card off.
    const [card] = await rows<{ tnd_typ_cd: number; tnd_typ_sts: boolean }>(d.tx, sql`SELECT tnd_typ_cd, tnd_typ_sts FROM tender_type WHERE inst_cd = ${d.instCd} AND tnd_typ_nm = 'Card'`);
    if (acc && card && !card.tnd_typ_sts) {
      const when = at(d0, 11);
      const { before, after } = await edit(d, 'tender_type', card.tnd_typ_cd, acc, stamp(when), { tnd_typ_sts: [true, false] });
      push(when, acc, 'fee', 'tender_type', 'PUT', 'tender_type', card.tnd_typ_cd, before, after);
    }
    if (acc) {
      const [{ n }] = await rows<{ n: number }>(d.tx, sql`SELECT count(*)::int AS n FROM fee_type WHERE inst_cd = ${d.instCd}`);
      push(at(d4, 10), acc, 'fee', 'fee_type', 'EXPORT', 'fee_type', null, null, { count: n });
    }
    // Two copies of a title arrived: the librarian raised its quantity.
    const [book] = await rows<{ bk_cd: number; bk_qty: number }>(d.tx, sql`SELECT bk_cd, bk_qty FROM book WHERE inst_cd = ${d.instCd} AND bk_qty > 2 ORDER BY bk_cd LIMIT 1 OFFSET 3`);
    if (lib && book && d1) {
      const when = at(d1, 12);
      const { before, after } = await edit(d, 'book', book.bk_cd, lib, stamp(when), { bk_qty: [book.bk_qty - 2, book.bk_qty] });
      push(when, lib, 'library', 'book', 'PUT', 'book', book.bk_cd, before, after);
    }
    // The teacher took the class list home for the parents' meeting.
    if (teacher && d2) {
      const [{ n }] = await rows<{ n: number }>(
        d.tx,
        sql`SELECT count(*)::int AS n FROM student s WHERE s.inst_cd = ${d.instCd} AND s.acdm_cd = ${d.acdmCd}
            AND EXISTS (SELECT 1 FROM subject_detail m WHERE m.sec_cd = s.sec_cd AND m.usr_cd = ${teacher})`,
      );
      push(at(d2, 15), teacher, 'student', 'profile', 'EXPORT', 'student', null, null, { count: n });
    }
    // A clerk's new mobile number.
    const clerk = whoIs(staff, d, 'Office Assistant', 1);
    const [old] = await rows<{ usr_ph: string | null }>(d.tx, sql`SELECT usr_ph FROM employee WHERE usr_cd = ${clerk.usr_cd}`);
    if (d3) {
      const when = at(d3, 10);
      const phone = `+91 9${r.int(1000, 9999)} ${r.int(10000, 99999)}`;
      const { before, after } = await edit(d, 'employee', clerk.usr_cd, admin, stamp(when), { usr_ph: [old?.usr_ph ?? null, phone] });
      push(when, admin, 'employee', 'profile', 'PUT', 'employee', clerk.usr_cd, before, after);
    }
    // A shortcut added twice and removed: its row is gone, its image stays in the history.
    const [dup] = await insertRows(d.tx, 'quick_menu', [{ inst_cd: d.instCd, qm_pg_nm: 'Fee Counter', qm_pg_pth: 'sms/fee/quick_fee_collection', qm_pg_icn: 'cash', qm_ord: 99, crt_by: admin }]);
    const gone = await image(d, 'quick_menu', Number(dup.qm_cd));
    await d.tx.execute(sql`DELETE FROM quick_menu WHERE qm_cd = ${Number(dup.qm_cd)}`);
    push(at(d4, 9), admin, 'features', 'quick_menu', 'DELETE', 'quick_menu', Number(dup.qm_cd), gone, null);
  }

  // The visiting lecturer whose term ended: switched off in the employee mapping.
  const ended = made.mappings.find((m) => m.usr_inst_sts === false);
  if (ended && recent.length) {
    const when = at(recent[Math.min(2, recent.length - 1)], 14);
    const id = Number(ended.usr_inst_cd);
    const { before, after } = await edit(d, 'user_institute', id, admin, stamp(when), { usr_inst_sts: [true, false] });
    push(when, admin, 'institute', 'user_institute', 'PUT', 'user_institute', id, before, after);
  }

  list.sort((a, b) => `${a.date} ${a.time}`.localeCompare(`${b.date} ${b.time}`));
  const ipOf = new Map<number, string>([[admin, school ? '192.168.1.10' : '192.168.2.10']]);
  for (const [login, usr] of d.accounts) ipOf.set(usr, `192.168.1.${{ ACCOUNTANT: 23, LIBRARIAN: 31, TEACHER: 57 }[login] ?? 40}`);
  const json = (v: unknown): string | null => (v === null || v === undefined ? null : JSON.stringify(v));
  await d.add(
    'action_history',
    list.map((x) => ({
      inst_cd: d.instCd,
      usr_cd: x.usr,
      actn_hsty_mdl: x.module,
      actn_hsty_pg_nm: x.page,
      actn_hsty_mthd: x.method,
      actn_hsty_entity: x.entityName,
      actn_hsty_row_key: x.key,
      actn_hsty_dt: x.date,
      actn_hsty_tm: x.time,
      actn_hsty_ip: ipOf.get(x.usr) ?? '192.168.1.40',
      actn_hsty_pfm: 'web',
      actn_hsty_before: json(x.before),
      actn_hsty_after: json(x.after),
      crt_by: x.usr,
    })),
  );
  if (school) await signInCounters(d, ipOf, recent.at(-1) ?? addDays(d.today, -1));
}

/**
 * The Sign-in Locks page's counters as a morning leaves them: the librarian mistyped her password twice at
 * her desk (below the free tries, so nothing waited), and someone on an outside address guessed seven times
 * at a login id that does not exist ('PRINCIPAL') and was made to wait 1, 2 and 4 seconds. Rows are keyed as
 * the sign-in's own throttle keys them, so a real try from the same place counts on.
 */
async function signInCounters(d: OfficeDemo, ipOf: Map<number, string>, day: string): Promise<void> {
  const librarian = d.accounts.get('LIBRARIAN');
  const desk = (librarian !== undefined ? ipOf.get(librarian) : undefined) ?? '192.168.1.31';
  const outside = '203.0.113.45';
  const at = (time: string): string => `${day}T${time}+05:30`;
  const counters: [key: string, kind: string, usrNm: string | null, ip: string | null, fails: number, first: string, last: string, next: string][] = [
    [`p:librarian|${desk}`, 'Login Id and Address', 'LIBRARIAN', desk, 2, at('08:41:12'), at('08:41:40'), at('08:41:40')],
    ['u:librarian', 'Login Id', 'LIBRARIAN', null, 2, at('08:41:12'), at('08:41:40'), at('08:41:40')],
    [`a:${desk}`, 'Address', null, desk, 2, at('08:41:12'), at('08:41:40'), at('08:41:40')],
    [`p:principal|${outside}`, 'Login Id and Address', 'PRINCIPAL', outside, 7, at('23:02:05'), at('23:09:51'), at('23:09:55')],
    ['u:principal', 'Login Id', 'PRINCIPAL', null, 7, at('23:02:05'), at('23:09:51'), at('23:09:51')],
    [`a:${outside}`, 'Address', null, outside, 7, at('23:02:05'), at('23:09:51'), at('23:09:51')],
  ];
  for (const [key, kind, usrNm, ip, fails, first, last, next] of counters) {
    await d.tx.execute(
      sql`INSERT INTO login_attempt (atmpt_key, atmpt_kind, atmpt_usr_nm, atmpt_ip, atmpt_fail_cnt, atmpt_first_at, atmpt_last_at, atmpt_next_at)
          VALUES (${key}, ${kind}, ${usrNm}, ${ip}, ${fails}, ${first}, ${last}, ${next}) ON CONFLICT (atmpt_key) DO NOTHING`,
    );
  }
}
