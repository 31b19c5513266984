import { describe, expect, it } from 'vitest';
import { rows, sql } from '../src/db/client';
import { openDays, planLibrary, type Holder, type LibraryPlan, type Title } from '../src/db/demo/library-demo';
import { rngFor } from '../src/db/demo/prng';
import { localDateTime } from '../src/lib/clock';
import { startTestServer } from './test-server';

const TODAY = '2026-11-23';
const DEMO = 20_260_601;
const days = openDays('school', 2026, 6, TODAY);

function holders(students: number, staff: number): Holder[] {
  const kid = { "Children's Fiction": 3, Classics: 1, Science: 1 };
  const teacher = { Reference: 4, Classics: 1, Science: 1 };
  return [
    ...Array.from({ length: students }, (_, i): Holder => ({ typ: 'Student', cd: 100 + i, name: `Student ${i}`, shelves: kid })),
    // A teacher's usr_cd may equal a student's stud_cd: the type tells them apart.
    ...Array.from({ length: staff }, (_, i): Holder => ({ typ: 'Employee', cd: 100 + i, name: `Teacher ${i}`, shelves: teacher })),
  ];
}

function titles(copies: (shelf: string) => number): Title[] {
  const shelves = ["Children's Fiction", 'Classics', 'Science', 'Reference'];
  return shelves.flatMap((s, i) => Array.from({ length: 6 }, (_, j): Title => ({ bk_cd: i * 10 + j + 1, shelf: s, qty: copies(s) })));
}

/** Copies out of each book at the end of each open day, replaying the movements in time order. */
function peakOut(plan: LibraryPlan): Map<number, number> {
  const events = [
    ...plan.issues.flatMap((m) => m.lines.map((l) => ({ at: `${m.date} ${m.time}`, bk: l.bk_cd, d: l.qty }))),
    ...plan.returns.flatMap((m) => m.lines.map((l) => ({ at: `${m.date} ${m.time}`, bk: l.bk_cd, d: -l.qty }))),
  ].sort((a, b) => a.at.localeCompare(b.at));
  const now = new Map<number, number>();
  const peak = new Map<number, number>();
  for (const e of events) {
    now.set(e.bk, (now.get(e.bk) ?? 0) + e.d);
    expect(now.get(e.bk), `book ${e.bk} at ${e.at}`).toBeGreaterThanOrEqual(0);
    peak.set(e.bk, Math.max(peak.get(e.bk) ?? 0, now.get(e.bk)!));
  }
  return peak;
}

describe('library demo movements', () => {
  it('opens the desk on school days only, up to yesterday', () => {
    expect(days.length).toBeGreaterThan(25);
    expect(days.at(-1)! < TODAY).toBe(true);
    for (const d of days) expect([0, 6]).not.toContain(new Date(`${d}T00:00:00Z`).getUTCDay());
    // Quarterly holidays, Gandhi Jayanti and Ayudha Pooja are closed days; the Monday after them is open.
    for (const closed of ['2026-09-30', '2026-10-02', '2026-10-19', '2026-10-20']) expect(days).not.toContain(closed);
    expect(days).toContain('2026-10-05');
  });

  it('leaves a stock that is exactly what was issued minus what came back, per holder and book', () => {
    const plan = planLibrary(rngFor(7, 'lib'), holders(80, 12), titles((s) => (s === 'Reference' ? 2 : 8)), days);
    const net = new Map<string, number>();
    for (const [list, sign] of [[plan.issues, 1], [plan.returns, -1]] as const) {
      for (const m of list) for (const l of m.lines) net.set(`${m.holder.typ}|${m.holder.cd}|${l.bk_cd}`, (net.get(`${m.holder.typ}|${m.holder.cd}|${l.bk_cd}`) ?? 0) + sign * l.qty);
    }
    const stock = new Map(plan.stock.map((s) => [`${s.holder.typ}|${s.holder.cd}|${s.bk_cd}`, s.qty]));
    for (const [k, q] of net) {
      expect(q, k).toBeGreaterThanOrEqual(0);
      expect(stock.get(k) ?? 0, k).toBe(q);
    }
    expect(plan.stock.every((s) => s.qty > 0)).toBe(true);
    expect(plan.stock.some((s) => s.holder.typ === 'Employee')).toBe(true);
  });

  it('dates every return after its issue, within the open days, in time order', () => {
    const plan = planLibrary(rngFor(7, 'lib'), holders(80, 12), titles(() => 8), days);
    const open = new Set(days);
    for (const m of [...plan.issues, ...plan.returns]) {
      expect(open.has(m.date), m.date).toBe(true);
      expect(m.time).toMatch(/^(09|1[0-6]):[0-5]\d:00$/);
      expect(m.lines.length).toBeGreaterThan(0);
      expect(m.lines.length).toBeLessThanOrEqual(3);
    }
    for (const ret of plan.returns) {
      const issued = plan.issues.filter((i) => i.holder === ret.holder && ret.lines.every((l) => i.lines.some((x) => x.bk_cd === l.bk_cd)));
      expect(issued.length, `${ret.holder.name} ${ret.date}`).toBe(1);
      expect(ret.date > issued[0].date).toBe(true);
    }
    const stamps = plan.issues.map((m) => `${m.date} ${m.time}`);
    expect(stamps).toEqual([...stamps].sort());
  });

  it('never lends more copies of a book than the library owns, even when copies are scarce', () => {
    const owned = titles((s) => (s === 'Reference' ? 1 : 2));
    const plan = planLibrary(rngFor(3, 'scarce'), holders(300, 30), owned, days);
    const peak = peakOut(plan);
    for (const t of owned) expect(peak.get(t.bk_cd) ?? 0, `book ${t.bk_cd}`).toBeLessThanOrEqual(t.qty);
    expect(plan.issues.length).toBeGreaterThan(0);
  });

  it('looks like a library term: most students bring books back in 7-21 days, a few are overdue, teachers keep reference books', () => {
    const plan = planLibrary(rngFor(DEMO, 'school/library-movements'), holders(80, 12), titles((s) => (s === 'Reference' ? 3 : 10)), days);
    const students = plan.issues.filter((m) => m.holder.typ === 'Student');
    const copies = (list: typeof plan.issues) => list.reduce((a, m) => a + m.lines.reduce((b, l) => b + l.qty, 0), 0);
    const back = copies(plan.returns.filter((m) => m.holder.typ === 'Student')) / copies(students);
    expect(back).toBeGreaterThan(0.45);
    expect(back).toBeLessThan(0.8);
    const gap = (a: string, b: string) => (Date.parse(b) - Date.parse(a)) / 86_400_000;
    for (const ret of plan.returns.filter((m) => m.holder.typ === 'Student')) {
      const issued = plan.issues.find((i) => i.holder === ret.holder && i.lines.some((l) => l.bk_cd === ret.lines[0].bk_cd))!;
      expect(gap(issued.date, ret.date)).toBeGreaterThanOrEqual(7);
      expect(gap(issued.date, ret.date)).toBeLessThanOrEqual(24);
    }
    const overdue = plan.stock.filter((s) => s.holder.typ === 'Student' && students.some((i) => i.holder === s.holder && i.lines.some((l) => l.bk_cd === s.bk_cd) && gap(i.date, TODAY) > 21));
    expect(overdue.length).toBeGreaterThan(0);
    expect(overdue.length).toBeLessThan(20);
    const reference = new Set(titles(() => 1).filter((t) => t.shelf === 'Reference').map((t) => t.bk_cd));
    expect(plan.stock.some((s) => s.holder.typ === 'Employee' && reference.has(s.bk_cd))).toBe(true);
  });

  it('sets each copy out due after the loan days, keeps every holder within the desk limits, and leaves some overdue today', () => {
    const plan = planLibrary(rngFor(DEMO, 'school/library-movements'), holders(80, 12), titles((s) => (s === 'Reference' ? 3 : 10)), days, 14);
    for (const s of plan.stock) {
      const issue = plan.issues.filter((m) => m.holder === s.holder && m.lines.some((l) => l.bk_cd === s.bk_cd)).at(-1)!;
      expect(s.issued).toBe(issue.date);
      expect((Date.parse(s.due) - Date.parse(s.issued)) / 86_400_000).toBe(14);
    }
    const held = new Map<Holder, number>();
    for (const s of plan.stock) held.set(s.holder, (held.get(s.holder) ?? 0) + s.qty);
    // LIB_MAX_BOOKS_STUDENT and LIB_MAX_BOOKS_EMPLOYEE by default: the workflow would have refused more.
    for (const [h, n] of held) expect(n, h.name).toBeLessThanOrEqual(h.typ === 'Student' ? 3 : 10);
    const overdue = plan.stock.filter((s) => s.due < TODAY);
    expect(overdue.length).toBeGreaterThan(0);
    expect(overdue.length).toBeLessThan(plan.stock.length);
  });
});

describe('the library demo in the database', () => {
  it('agrees with the desk: Stock = issued minus returned per book, never above bk_qty, every copy out with a due date, some overdue', async () => {
    const srv = await startTestServer('pglite', {}, { demo: true });
    try {
      const db = srv.database.db;
      const books = await rows<{ bk_cd: number; bk_qty: number; out: number; no_due: number }>(
        db,
        sql`SELECT b.bk_cd, b.bk_qty, coalesce(sum(k.usr_bk_stk_qty), 0)::int AS out, count(k.*) FILTER (WHERE k.usr_bk_stk_due_dt IS NULL)::int AS no_due
            FROM book b LEFT JOIN book_checkinout_summary k ON k.bk_cd = b.bk_cd GROUP BY b.bk_cd, b.bk_qty`,
      );
      expect(books.length).toBeGreaterThan(50);
      for (const b of books) {
        expect(Number(b.out), `book ${b.bk_cd}`).toBeLessThanOrEqual(Number(b.bk_qty));
        expect(Number(b.no_due)).toBe(0);
      }
      // Per holder, the copies on Stock are the copies on their issue slips minus those on their return slips.
      const holders = await rows<{ k: number; i: number; r: number }>(
        db,
        sql`SELECT h.inst_cd, h.typ, h.cd,
                   (SELECT coalesce(sum(usr_bk_stk_qty), 0) FROM book_checkinout_summary k WHERE k.inst_cd = h.inst_cd AND k.usr_bk_stk_usr_typ = h.typ AND k.usr_bk_stk_usr_cd = h.cd)::int AS k,
                   (SELECT coalesce(sum(bk_chk_tot_qty), 0) FROM book_checkout c WHERE c.inst_cd = h.inst_cd AND c.bk_chk_usr_typ = h.typ AND c.bk_chk_usr_cd = h.cd)::int AS i,
                   (SELECT coalesce(sum(bk_chk_tot_qty), 0) FROM book_checkin c WHERE c.inst_cd = h.inst_cd AND c.bk_chk_usr_typ = h.typ AND c.bk_chk_usr_cd = h.cd)::int AS r
            FROM (SELECT DISTINCT inst_cd, bk_chk_usr_typ AS typ, bk_chk_usr_cd AS cd FROM book_checkout) h`,
      );
      expect(holders.length).toBeGreaterThan(20);
      for (const h of holders) expect(Number(h.k)).toBe(Number(h.i) - Number(h.r));
      const [c] = await rows<{ no_due: number; late: number; total: number }>(
        db,
        sql`SELECT (SELECT count(*) FROM book_checkout WHERE bk_chk_due_dt IS NULL)::int AS no_due,
                   (SELECT count(*) FROM book_checkinout_summary WHERE usr_bk_stk_due_dt < ${localDateTime().date})::int AS late,
                   (SELECT count(*) FROM book_checkinout_summary)::int AS total`,
      );
      expect(c.no_due).toBe(0);
      expect(c.late).toBeGreaterThan(0);
      expect(c.late).toBeLessThan(c.total);
    } finally {
      await srv.close();
    }
  }, 240_000);
});
