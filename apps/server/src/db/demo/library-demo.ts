import { settingNumber } from '../../workflows/setting/institute-setting';
import { rows, sql } from '../client';
import { addDays, holidaysOf, iso } from './calendar';
import type { Row } from './insert-rows';
import type { Rng } from './prng';
import type { DemoScope } from './demo-scope';

export type LibraryDemo = DemoScope;

export type HolderType = 'Student' | 'Employee';

export interface Holder {
  typ: HolderType;
  /** stud_cd or usr_cd, by the type. */
  cd: number;
  name: string;
  /** How likely each shelf is; a shelf not named is never picked. */
  shelves: Readonly<Record<string, number>>;
}

export interface Title {
  bk_cd: number;
  shelf: string;
  /** Copies the library owns (bk_qty). */
  qty: number;
}

export interface MovementLine {
  bk_cd: number;
  qty: number;
}

/** One visit to the desk: what the issue or return workflow writes as one row (plus its lines). */
export interface Movement {
  holder: Holder;
  date: string;
  time: string;
  lines: MovementLine[];
}

export interface StockRow {
  holder: Holder;
  bk_cd: number;
  qty: number;
  /** The day the copies held were issued (a holder never borrows a title again, so there is one). */
  issued: string;
  /** issued + the loan days, as the issue workflow sets it; before today means overdue. */
  due: string;
}

export interface LibraryPlan {
  issues: Movement[];
  returns: Movement[];
  stock: StockRow[];
}

/** The desk's open days: Monday to Friday, no holidays, within the academic year, up to yesterday. */
export function openDays(kind: 'school' | 'college', startYear: number, joinMonth: number, today: string, weeks = 8): string[] {
  const yearStart = iso(startYear, joinMonth, 1);
  const holidays = holidaysOf(startYear, kind);
  const out: string[] = [];
  // Nothing today: a movement at a later hour of today would lie in the future.
  for (let k = weeks * 7; k >= 1; k--) {
    const day = addDays(today, -k);
    const dow = new Date(`${day}T00:00:00Z`).getUTCDay();
    if (day < yearStart || dow === 0 || dow === 6) continue;
    if (holidays.some((h) => h.from <= day && day <= h.to)) continue;
    out.push(day);
  }
  return out;
}

const pad = (n: number): string => String(n).padStart(2, '0');
const clock = (minutes: number): string => `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}:00`;
const minutesOf = (time: string): number => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
/** Students come in the breaks and the last hour; staff in their free periods. */
const STUDENT_SLOTS: readonly [number, number][] = [[10 * 60 + 40, 11 * 60], [12 * 60 + 30, 13 * 60 + 15], [15 * 60 + 30, 16 * 60 + 15]];
const STAFF_SLOTS: readonly [number, number][] = [[9 * 60, 16 * 60 + 30]];
function timeAt(r: Rng, h: Holder): string {
  const [from, to] = r.pick(h.typ === 'Student' ? STUDENT_SLOTS : STAFF_SLOTS);
  return clock(r.int(from, to));
}

function weighted(r: Rng, weights: Readonly<Record<string, number>>, allowed: ReadonlySet<string>): string | undefined {
  const list = Object.entries(weights).filter(([s, w]) => w > 0 && allowed.has(s));
  let roll = r.next() * list.reduce((a, [, w]) => a + w, 0);
  for (const [s, w] of list) {
    roll -= w;
    if (roll < 0) return s;
  }
  return list.at(-1)?.[0];
}

const OPEN = '9999-12-31';

/**
 * Issues, returns and the stock they leave, as the issue/return workflow would have written them over the
 * open days: each borrower takes 1-3 titles; a student brings them back after 7-21 days, staff after 2-6
 * weeks (reference books often stay for the term); a few students keep theirs past the due date, a few
 * return part of a visit, and some borrow again when they return. Every copy out fits in the book's bk_qty
 * at every moment, and the stock is exactly issued minus returned per holder and book (no row at 0).
 */
export function planLibrary(r: Rng, holders: readonly Holder[], titles: readonly Title[], days: readonly string[], loanDays = 14): LibraryPlan {
  const issues: Movement[] = [];
  const returns: Movement[] = [];
  if (days.length === 0 || titles.length === 0) return { issues, returns, stock: [] };
  const last = days.at(-1)!;
  const dayIndex = new Map(days.map((d, i) => [d, i]));
  /** The first open day on or after a date; undefined past the window (still out today). */
  const openOnOrAfter = (date: string): string | undefined => {
    if (date > last) return undefined;
    for (let d = date; d <= last; d = addDays(d, 1)) if (dayIndex.has(d)) return d;
    return undefined;
  };
  // Per book, the copies out as [from, to] (to = OPEN while held): a new loan must fit beside them all.
  const loans = new Map<number, { from: string; to: string; qty: number }[]>(titles.map((t) => [t.bk_cd, []]));
  const fits = (t: Title, from: string, to: string, qty: number): boolean => {
    // Counting every overlapping loan (not the peak) is stricter than needed, never looser.
    const out = loans.get(t.bk_cd)!.filter((l) => l.from <= to && from <= l.to).reduce((a, l) => a + l.qty, 0);
    return out + qty <= t.qty;
  };
  const byShelf = new Map<string, Title[]>();
  for (const t of titles) byShelf.set(t.shelf, [...(byShelf.get(t.shelf) ?? []), t]);

  for (const h of holders) {
    const staff = h.typ === 'Employee';
    const read = new Set<number>();
    // The first visit leans to the early weeks: a borrower who started recently has not been back yet.
    let date: string | undefined = days[Math.min(r.int(0, days.length - 1), r.chance(0.35) ? r.int(0, days.length - 1) : days.length)];
    let time = timeAt(r, h);
    while (date) {
      // When the loan ends decides what fits, so pick the return day first.
      const back = openOnOrAfter(addDays(date, staff ? r.int(14, 45) : r.int(7, 21)));
      const keeps = back === undefined || r.chance(staff ? 0.3 : 0.08);
      const until = keeps ? OPEN : back;
      const want = staff ? r.int(1, 3) : r.chance(0.5) ? 1 : r.chance(0.7) ? 2 : 3;
      const lines: MovementLine[] = [];
      for (let tries = 0; lines.length < want && tries < want * 6; tries++) {
        const shelves = new Set([...byShelf.keys()].filter((s) => (byShelf.get(s) ?? []).some((t) => !read.has(t.bk_cd) && !lines.some((l) => l.bk_cd === t.bk_cd))));
        const shelf = weighted(r, h.shelves, shelves);
        if (!shelf) break;
        const t = r.pick(byShelf.get(shelf)!.filter((x) => !read.has(x.bk_cd) && !lines.some((l) => l.bk_cd === x.bk_cd)));
        // Now and then a teacher takes two copies of a class reader for the classroom shelf.
        const qty = staff && t.shelf !== 'Reference' && r.chance(0.15) ? 2 : 1;
        if (fits(t, date, until, qty)) lines.push({ bk_cd: t.bk_cd, qty });
        else if (qty === 2 && fits(t, date, until, 1)) lines.push({ bk_cd: t.bk_cd, qty: 1 });
      }
      if (lines.length === 0) break;
      for (const l of lines) read.add(l.bk_cd);
      issues.push({ holder: h, date, time, lines });
      if (keeps || back === undefined) {
        for (const l of lines) loans.get(l.bk_cd)!.push({ from: date, to: OPEN, qty: l.qty });
        break;
      }
      // A student with two or three books sometimes brings back all but one and keeps reading it.
      // The kept copy was checked up to the return day only, so it must also fit while held on.
      const keptLine = lines.at(-1)!;
      const keptTitle = titles.find((t) => t.bk_cd === keptLine.bk_cd)!;
      const partial = !staff && lines.length > 1 && r.chance(0.15) && fits(keptTitle, date, OPEN, keptLine.qty);
      const kept = partial ? [keptLine] : [];
      const backLines = partial ? lines.slice(0, -1) : lines;
      for (const l of backLines) loans.get(l.bk_cd)!.push({ from: date, to: back, qty: l.qty });
      for (const l of kept) loans.get(l.bk_cd)!.push({ from: date, to: OPEN, qty: l.qty });
      const backTime = timeAt(r, h);
      returns.push({ holder: h, date: back, time: backTime, lines: backLines });
      if (partial || !r.chance(staff ? 0.3 : 0.4)) break;
      // Borrowing again: often at the same visit, just after the return, else a few days later.
      const sameVisit = r.chance(0.6);
      date = sameVisit ? back : openOnOrAfter(addDays(back, r.int(2, 10)));
      time = sameVisit ? clock(Math.min(minutesOf(backTime) + r.int(2, 8), 16 * 60 + 59)) : timeAt(r, h);
    }
  }

  const byTime = (a: Movement, b: Movement): number => a.date.localeCompare(b.date) || a.time.localeCompare(b.time);
  issues.sort(byTime);
  returns.sort(byTime);
  const held = new Map<string, StockRow>();
  for (const [list, sign] of [[issues, 1], [returns, -1]] as const) {
    for (const m of list) {
      for (const l of m.lines) {
        const key = `${m.holder.typ}|${m.holder.cd}|${l.bk_cd}`;
        const s = held.get(key) ?? { holder: m.holder, bk_cd: l.bk_cd, qty: 0, issued: m.date, due: addDays(m.date, loanDays) };
        s.qty += sign * l.qty;
        if (sign === 1) {
          s.issued = m.date;
          s.due = addDays(m.date, loanDays);
        }
        held.set(key, s);
      }
    }
  }
  return { issues, returns, stock: [...held.values()].filter((s) => s.qty > 0) };
}

/** Shelf weights of a borrower: young readers take stories, older ones everything but the reference shelf. */
function shelvesFor(kind: 'school' | 'college', group: 'primary' | 'middle' | 'college' | 'staff', all: readonly string[]): Record<string, number> {
  const w: Record<string, number> = {};
  for (const s of all) {
    if (group === 'staff') w[s] = s === 'Reference' ? 4 : s === "Children's Fiction" ? 0 : 1;
    else if (s === 'Reference') w[s] = 0;
    else if (group === 'primary') w[s] = { "Children's Fiction": 6, 'Tamil Literature': 2, 'General Knowledge': 2, Science: 1 }[s] ?? 0;
    else if (group === 'middle') w[s] = { "Children's Fiction": 2, Classics: 3, 'History and Geography': 2, 'General Knowledge': 2, Science: 2 }[s] ?? 1;
    else w[s] = s === 'Competitive Examinations' ? 2 : 1;
  }
  if (kind === 'college' && group === 'staff') w['Competitive Examinations'] = 2;
  return w;
}

/** Share of the readers (class I up) who borrowed in the last eight weeks: about 80 of the school's 480. */
const STUDENT_SHARE = { school: 1 / 6, college: 0.2 } as const;
const STAFF_BORROWERS = { school: 12, college: 6 } as const;

/** The first n of a list in a seeded random order. */
function sample<T>(r: Rng, list: readonly T[], n: number): T[] {
  const a = [...list];
  for (let i = a.length - 1; i > 0; i--) {
    const j = r.int(0, i);
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a.slice(0, Math.max(0, n));
}

/**
 * Book issues, returns and stock for the last eight weeks, written in the shape the issue/return workflow
 * (workflows/lend-books) writes them (docs/decisions.md, 'Library demo'): Book Issue, Book Return, Stock and
 * Staff Stock all show the same story, each issue due back after the loan days, the late ones overdue today.
 */
export async function libraryDemo(d: LibraryDemo): Promise<void> {
  const r = d.rng('library-movements');
  const titles = await rows<{ bk_cd: number; bk_nm: string; ctgy_nm: string; bk_qty: number }>(
    d.tx,
    sql`SELECT b.bk_cd, b.bk_nm, c.ctgy_nm, b.bk_qty FROM book b JOIN book_category c ON c.ctgy_cd = b.ctgy_cd
        WHERE b.inst_cd = ${d.instCd} ORDER BY b.bk_cd`,
  );
  const shelves = [...new Set(titles.map((t) => t.ctgy_nm))];
  // Pre-primary children do not borrow; the class group tells primary from middle school.
  const kids = await rows<{ stud_cd: number; stud_fs_nm: string; cls_grp_nm: string | null }>(
    d.tx,
    sql`SELECT s.stud_cd, s.stud_fs_nm, g.cls_grp_nm FROM student s JOIN class c ON c.cls_cd = s.cls_cd
        LEFT JOIN class_group g ON g.cls_grp_id = c.cls_grp_id
        WHERE s.inst_cd = ${d.instCd} AND coalesce(g.cls_grp_nm, '') <> 'Pre-Primary'
          AND s.acdm_cd = ${d.acdmCd}
        ORDER BY s.stud_cd`,
  );
  const staff = await rows<{ usr_cd: number; usr_full_nm: string; rl_nm: string }>(
    d.tx,
    sql`SELECT e.usr_cd, e.usr_full_nm, x.rl_nm FROM employee e JOIN role x ON x.rl_cd = e.usr_typ
        WHERE e.inst_cd = ${d.instCd} AND e.usr_cd <> ${d.admin} ORDER BY e.usr_cd`,
  );
  const readers = staff.filter((e) => ['TEACHER', 'HEAD MASTER', 'HEAD OF DEPARTMENT'].includes(e.rl_nm));
  const librarian = staff.find((e) => e.rl_nm === 'LIBRARIAN')?.usr_cd ?? d.admin;
  const group = (g: string | null): 'primary' | 'middle' | 'college' => (d.kind === 'college' ? 'college' : g === 'Primary' ? 'primary' : 'middle');
  const holders: Holder[] = [
    ...sample(r, kids, Math.round(kids.length * STUDENT_SHARE[d.kind])).map((k): Holder => ({ typ: 'Student', cd: k.stud_cd, name: k.stud_fs_nm, shelves: shelvesFor(d.kind, group(k.cls_grp_nm), shelves) })),
    ...sample(r, readers, STAFF_BORROWERS[d.kind]).map((e): Holder => ({ typ: 'Employee', cd: e.usr_cd, name: e.usr_full_nm, shelves: shelvesFor(d.kind, 'staff', shelves) })),
  ];
  const loanDays = await settingNumber(d.tx, d.instCd, 'LIB_LOAN_DAYS');
  const plan = planLibrary(
    r,
    holders,
    titles.map((t) => ({ bk_cd: t.bk_cd, shelf: t.ctgy_nm, qty: t.bk_qty })),
    openDays(d.kind, d.startYear, d.joinMonth, d.today),
    loanDays,
  );
  const titleOf = new Map(titles.map((t) => [t.bk_cd, t.bk_nm]));
  const movement = (m: Movement): Row => ({
    inst_cd: d.instCd,
    bk_chk_usr_typ: m.holder.typ,
    bk_chk_usr_cd: m.holder.cd,
    bk_chk_usr_nm: m.holder.name,
    bk_chk_bk_nms: m.lines.map((l) => `${titleOf.get(l.bk_cd) ?? `#${l.bk_cd}`}${l.qty > 1 ? ` x${l.qty}` : ''}`).join(', '),
    bk_chk_bk_cnt: m.lines.length,
    bk_chk_tot_qty: m.lines.reduce((a, l) => a + l.qty, 0),
    bk_chk_dt: m.date,
    bk_chk_tm: m.time,
    // The librarian at the desk wrote them.
    crt_by: librarian,
  });
  // In time order, so Issue No and Return No grow with the date like the workflow's would.
  await d.add('book_checkout', plan.issues.map((m) => ({ ...movement(m), bk_chk_due_dt: addDays(m.date, loanDays) })));
  await d.add('book_checkin', plan.returns.map(movement));
  await d.add(
    'book_checkinout_summary',
    plan.stock.map((s) => ({
      inst_cd: d.instCd,
      usr_bk_stk_usr_typ: s.holder.typ,
      usr_bk_stk_usr_cd: s.holder.cd,
      usr_bk_stk_usr_nm: s.holder.name,
      bk_cd: s.bk_cd,
      usr_bk_stk_qty: s.qty,
      usr_bk_stk_due_dt: s.due,
      usr_bk_stk_iss_dt: s.issued,
      crt_by: librarian,
    })),
  );
}
