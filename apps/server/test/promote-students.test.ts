import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestContext } from '../src/access/request-context';
import { rows, sql } from '../src/db/client';
import { moveWallet } from '../src/workflows/wallet/wallet-ledger';
import { makeFixture, type Fixture, type Row } from './student-workflow-fixture';
import { backends, call, startTestServer, type Session, type TestServer } from './test-server';

interface Move {
  frm_sec_cd: number;
  to_sec_cd: number;
  stud_cds?: number[];
}

describe.each(backends)('promoting sections into next year on %s', (backend) => {
  let srv: TestServer;
  let f: Fixture;
  let admin: Session;
  let office: Session;
  let y1: number;
  let y2: number;
  let y1Label: string;
  let y2Label: string;
  let y3: number;
  let y3Label: string;
  const cls: number[] = [];
  /** Sections by name: '1A' is class 1 section A of this test's classes; '3A' is of the top class. */
  const sec: Record<string, number> = {};
  const kids: Record<string, number> = {};
  const tag = Date.now().toString(36).toUpperCase();

  beforeAll(async () => {
    srv = await startTestServer(backend);
    f = await makeFixture(srv);
    admin = f.admin;
    office = f.as(admin, 'student', 'promotion');
    const yearsPage = f.as(admin, 'institute', 'academic');
    const years = (await call(srv.app, yearsPage, 'GET', '/api/academic/?size=50')).json<{ rows: Row[] }>().rows;
    const cur = years.find((y) => Number(y.acdm_cd) === f.year)!;
    const start = Number(cur.acdm_strt_yr);
    y1 = f.year;
    y1Label = `${start}-${String((start + 1) % 100).padStart(2, '0')}`;
    y2Label = `${start + 1}-${String((start + 2) % 100).padStart(2, '0')}`;
    // Next year, as the office opens it on the Academic Year page.
    y2 = await f.created(yearsPage, '/api/academic/', { acdm_strt_yr: start + 1, acdm_strt_mn: 'Jun', acdm_end_yr: start + 2, acdm_end_mn: 'Apr' }, 'acdm_cd');
    // And the year after, for children promoted on again.
    y3Label = `${start + 2}-${String((start + 3) % 100).padStart(2, '0')}`;
    y3 = await f.created(yearsPage, '/api/academic/', { acdm_strt_yr: start + 2, acdm_strt_mn: 'Jun', acdm_end_yr: start + 3, acdm_end_mn: 'Apr' }, 'acdm_cd');
    for (const [i, odr] of [9001, 9002, 9003].entries()) {
      cls.push(await f.created(f.as(admin, 'class_section', 'class'), '/api/class/', { cls_nm: `Std ${i + 1} ${tag}`, cls_odr: odr }, 'cls_cd'));
    }
    for (const [c, names] of [[0, 'ABCDEFGHI'], [1, 'ABCDEFGHI'], [2, 'A']] as const) {
      for (const n of names) sec[`${c + 1}${n}`] = await f.created(f.as(admin, 'class_section', 'section'), '/api/section/', { sec_nm: n, cls_cd: cls[c] }, 'sec_cd');
    }
    const kid = async (key: string, name: string, roll: number) => {
      const c = cls[Number(key[0]) - 1];
      kids[name] = await f.created(f.as(admin, 'student', 'profile'), '/api/student/', { stud_fs_nm: `${name} ${tag}`, stud_adm_cd: `P${tag}${name}`, stud_roll_nmb: roll, cls_cd: c, sec_cd: sec[key], stud_dob: '2015-01-02', stud_fthr_nm: `Father of ${name}` }, 'stud_cd');
    };
    await kid('1A', 'Zara', 1);
    await kid('1A', 'Meena', 2);
    await kid('1A', 'Arun', 3);
    await kid('1B', 'Bala', 1);
    await kid('1B', 'Devi', 2);
    await kid('1C', 'Chitra', 1);
    await kid('1C', 'Cyril', 2);
    await kid('1D', 'Dinesh', 1);
    await kid('1D', 'Esther', 2);
    await kid('1E', 'Farah', 1);
    await kid('1F', 'Fiona', 1);
    await kid('1G', 'Gita', 1);
    await kid('1G', 'Hari', 2);
    await kid('1H', 'Indu', 1);
    await kid('1I', 'Ivan', 1);
    await kid('3A', 'Leela', 1);
    await kid('3A', 'Mohan', 2);
  });
  afterAll(async () => srv?.close());

  const body = (moves: Move[], roll?: string) => ({ frm_acdm_cd: y1, to_acdm_cd: y2, ...(roll ? { roll } : {}), moves });
  const preview = (moves: Move[], roll?: string) => call(srv.app, office, 'POST', '/api/promotion/preview', body(moves, roll));
  const promote = (moves: Move[], roll?: string) => call(srv.app, office, 'POST', '/api/promotion/', body(moves, roll));
  const undo = (id: number) => call(srv.app, office, 'POST', `/api/promotion/${id}/undo`, {});
  const names = (list: Row[]) => list.map((s) => String(s.stud_fs_nm).replace(` ${tag}`, ''));
  const nextYear = async (): Promise<Row[]> =>
    rows<Row>(
      srv.database.db,
      sql`SELECT s.stud_cd, s.stud_fs_nm, s.stud_adm_cd, s.stud_roll_nmb, s.cls_cd, s.sec_cd, s.prmtn_cd, s.stud_dob, s.stud_fthr_nm FROM student s
          WHERE s.acdm_cd = ${y2} AND s.stud_adm_cd LIKE ${`P${tag}%`} ORDER BY s.stud_fs_nm`,
    );
  const promotions = async (): Promise<Row[]> => (await call(srv.app, office, 'GET', '/api/promotion/?size=100')).json<{ rows: Row[] }>().rows;
  const ctxOf = (acdmCd: number): RequestContext =>
    ({ instCd: admin.instCd, acdmCd, user: { usr_cd: admin.usr_cd, usr_full_nm: 'Administrator' } }) as unknown as RequestContext;
  const topUp = async (studCd: number, acdmCd: number, amount: number): Promise<number> => {
    return srv.database.db.transaction(async (tx) => {
      const [w] = await rows<{ wlt_cd: number }>(tx, sql`SELECT wlt_cd FROM wallet WHERE stud_cd = ${studCd}`);
      const wltCd = w
        ? Number(w.wlt_cd)
        : Number(
            (await rows<{ id: number }>(tx, sql`INSERT INTO wallet (stud_cd, wlt_amt, inst_cd, acdm_cd, crt_by) VALUES (${studCd}, 0, ${admin.instCd}, ${acdmCd}, ${admin.usr_cd}) RETURNING wlt_cd AS id`))[0].id,
          );
      await moveWallet(tx, ctxOf(acdmCd), { wltCd, type: 'Top-up', paise: amount, reason: 'Canteen' });
      return wltCd;
    });
  };
  const walletOf = async (studCd: number): Promise<{ wlt_cd: number; wlt_amt: string; moves: Row[] } | null> => {
    const [w] = await rows<{ wlt_cd: number; wlt_amt: string }>(srv.database.db, sql`SELECT wlt_cd, wlt_amt::text AS wlt_amt FROM wallet WHERE stud_cd = ${studCd}`);
    if (!w) return null;
    const moves = await rows<Row>(
      srv.database.db,
      sql`SELECT wlt_txn_typ, wlt_txn_amt::text AS amt, wlt_txn_bal::text AS bal, acdm_cd FROM wallet_transaction WHERE wlt_cd = ${w.wlt_cd} ORDER BY wlt_txn_cd`,
    );
    return { wlt_cd: Number(w.wlt_cd), wlt_amt: w.wlt_amt, moves };
  };
  const sum = (moves: Row[]) => (moves.reduce((a, m) => a + Math.round(Number(m.amt) * 100), 0) / 100).toFixed(2);

  it('previews who moves, who is held back, and who leaves from the top class', async () => {
    const res = await preview([{ frm_sec_cd: sec['1A'], to_sec_cd: sec['2A'], stud_cds: [kids.Meena, kids.Arun] }]);
    expect(res.statusCode, res.body).toBe(200);
    const plan = res.json<{ from: Row; to: Row; moves: { from: Row; to: Row; moving: Row[]; already: Row[]; held: Row[] }[]; leaving: { section: Row; students: Row[] }[] }>();
    expect(plan.from.label).toBe(y1Label);
    expect(plan.to.label).toBe(y2Label);
    expect(plan.moves[0].from).toMatchObject({ sec_cd: sec['1A'], sec_nm: 'A' });
    expect(plan.moves[0].to).toMatchObject({ sec_cd: sec['2A'], cls_cd: cls[1] });
    expect(names(plan.moves[0].moving)).toEqual(['Meena', 'Arun']);
    expect(names(plan.moves[0].held)).toEqual(['Zara']);
    expect(plan.moves[0].already).toEqual([]);
    // The top class (highest order) has nobody moving: its children leave.
    const top = plan.leaving.find((l) => l.section.sec_cd === sec['3A']);
    expect(names(top?.students ?? [])).toEqual(['Leela', 'Mohan']);
    expect(await nextYear()).toEqual([]);
  });

  it("writes next year's rows (same admission number, new class, renumbered by name), one promotion per section; the same children again are refused", async () => {
    const res = await promote([{ frm_sec_cd: sec['1A'], to_sec_cd: sec['2A'], stud_cds: [kids.Meena, kids.Zara] }], 'Renumbered by name');
    expect(res.statusCode, res.body).toBe(201);
    const out = res.json<{ promotions: Row[]; held_back: number; skipped: number }>();
    expect(out).toMatchObject({ held_back: 1, skipped: 0 });
    const prmtnCd = Number(out.promotions[0].prmtn_cd);
    const rowsNow = await nextYear();
    expect(rowsNow.map((r) => [String(r.stud_fs_nm).replace(` ${tag}`, ''), r.stud_roll_nmb, r.cls_cd, r.sec_cd, r.prmtn_cd])).toEqual([
      ['Meena', 1, cls[1], sec['2A'], prmtnCd],
      ['Zara', 2, cls[1], sec['2A'], prmtnCd],
    ]);
    expect(rowsNow[0]).toMatchObject({ stud_adm_cd: `P${tag}Meena`, stud_dob: '2015-01-02', stud_fthr_nm: 'Father of Meena' });
    // Last year's rows stay as they were.
    const old = await call(srv.app, f.as(admin, 'student', 'profile'), 'GET', `/api/student/${kids.Meena}`);
    expect(old.json<Row>()).toMatchObject({ cls_cd: cls[0], sec_cd: sec['1A'], stud_roll_nmb: 2 });
    const p = (await promotions()).find((x) => Number(x.prmtn_cd) === prmtnCd)!;
    expect(p).toMatchObject({ frm_cls_cd: cls[0], frm_sec_cd: sec['1A'], to_cls_cd: cls[1], to_sec_cd: sec['2A'], prmtn_stud_cnt: 2, prmtn_sts: 'Promoted', prmtn_by: 'Administrator', crt_acdm_cd: y1, to_acdm_cd: y2, prmtn_roll: 'Renumbered by name' });

    // Meena again, by name: refused, naming her, nothing written.
    const before = (await promotions()).length;
    const again = await promote([{ frm_sec_cd: sec['1A'], to_sec_cd: sec['2B'], stud_cds: [kids.Meena, kids.Arun] }]);
    expect(again.statusCode).toBe(409);
    expect(again.json<{ message: string }>().message).toBe(`Meena ${tag} (Std 2 ${tag} A) is already in ${y2Label}: a child is promoted into a year only once. Nothing was promoted.`);
    expect(await nextYear()).toHaveLength(2);
    expect((await promotions()).length).toBe(before);

    // The preview shows who is there already; the whole section then moves only the rest (kept roll numbers).
    const plan = (await preview([{ frm_sec_cd: sec['1A'], to_sec_cd: sec['2A'] }])).json<{ moves: { moving: Row[]; already: Row[] }[] }>();
    expect(names(plan.moves[0].already)).toEqual(['Zara', 'Meena']);
    expect(names(plan.moves[0].moving)).toEqual(['Arun']);
    const rest = await promote([{ frm_sec_cd: sec['1A'], to_sec_cd: sec['2A'] }]);
    expect(rest.statusCode, rest.body).toBe(201);
    expect(rest.json<Row>()).toMatchObject({ skipped: 2 });
    expect((await nextYear()).find((r) => String(r.stud_fs_nm).startsWith('Arun'))).toMatchObject({ stud_roll_nmb: 3, sec_cd: sec['2A'] });
    const nobody = await promote([{ frm_sec_cd: sec['1A'], to_sec_cd: sec['2A'] }]);
    expect(nobody.statusCode).toBe(409);
    expect(await nextYear()).toHaveLength(3);
  });

  it("carries a wallet's balance forward with a movement in each year, and undo carries it back and removes the rows", async () => {
    await topUp(kids.Bala, y1, 15050);
    const devi = await topUp(kids.Devi, y1, 500);
    await srv.database.db.transaction((tx) => moveWallet(tx, ctxOf(y1), { wltCd: devi, type: 'Spend', paise: -500, reason: 'Books' }));
    const res = await promote([{ frm_sec_cd: sec['1B'], to_sec_cd: sec['2B'] }]);
    expect(res.statusCode, res.body).toBe(201);
    const out = res.json<{ promotions: Row[]; carried: Row[] }>();
    expect(out.carried).toEqual([{ stud_fs_nm: `Bala ${tag}`, amount: '150.50' }]);
    const prmtnCd = Number(out.promotions[0].prmtn_cd);
    const newBala = Number((await nextYear()).find((r) => String(r.stud_fs_nm).startsWith('Bala'))!.stud_cd);
    const newDevi = Number((await nextYear()).find((r) => String(r.stud_fs_nm).startsWith('Devi'))!.stud_cd);

    const oldW = (await walletOf(kids.Bala))!;
    expect(oldW.wlt_amt).toBe('0.00');
    expect(oldW.moves.map((m) => [m.wlt_txn_typ, m.amt, m.acdm_cd])).toEqual([
      ['Top-up', '150.50', y1],
      ['Carried Forward', '-150.50', y1],
    ]);
    const newW = (await walletOf(newBala))!;
    expect(newW.wlt_amt).toBe('150.50');
    expect(newW.moves.map((m) => [m.wlt_txn_typ, m.amt, m.acdm_cd])).toEqual([['Carried Forward', '150.50', y2]]);
    expect(sum(oldW.moves)).toBe(oldW.wlt_amt);
    expect(sum(newW.moves)).toBe(newW.wlt_amt);
    // An empty wallet is not carried.
    expect(await walletOf(newDevi)).toBeNull();

    const done = await undo(prmtnCd);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json<Row>().prmtn_sts).toBe('Undone');
    expect((await nextYear()).filter((r) => Number(r.prmtn_cd) === prmtnCd)).toEqual([]);
    const back = (await walletOf(kids.Bala))!;
    expect(back.wlt_amt).toBe('150.50');
    expect(back.moves.map((m) => m.amt)).toEqual(['150.50', '-150.50', '150.50']);
    expect(sum(back.moves)).toBe('150.50');
    expect(await rows(srv.database.db, sql`SELECT 1 FROM wallet WHERE wlt_cd = ${newW.wlt_cd}`)).toEqual([]);
    const twice = await undo(prmtnCd);
    expect(twice.statusCode).toBe(409);
    expect(twice.json<{ message: string }>().message).toBe(`Promotion no. ${prmtnCd} is already undone.`);
    // Undone, the section can be promoted again.
    const redo = await promote([{ frm_sec_cd: sec['1B'], to_sec_cd: sec['2B'] }]);
    expect(redo.statusCode, redo.body).toBe(201);
  });

  it('refuses to undo once something was recorded on a child in the new year, naming it, and changes nothing', async () => {
    const res = await promote([{ frm_sec_cd: sec['1C'], to_sec_cd: sec['2C'] }]);
    expect(res.statusCode, res.body).toBe(201);
    const prmtnCd = Number(res.json<{ promotions: Row[] }>().promotions[0].prmtn_cd);
    const newChitra = Number((await nextYear()).find((r) => String(r.stud_fs_nm).startsWith('Chitra'))!.stud_cd);
    const newCyril = Number((await nextYear()).find((r) => String(r.stud_fs_nm).startsWith('Cyril'))!.stud_cd);
    await topUp(newChitra, y2, 2000);
    // Cyril's first day in the new class is in the register.
    await srv.database.db.execute(
      sql`INSERT INTO student_attendance (stud_attn_dt, stud_cd, cls_cd, sec_cd, stud_attn_sts, inst_cd, acdm_cd, crt_by)
          VALUES ('2030-06-03', ${newCyril}, ${cls[1]}, ${sec['2C']}, 'Present', ${admin.instCd}, ${y2}, ${admin.usr_cd})`,
    );
    const refused = await undo(prmtnCd);
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ message: string }>().message).toBe(
      `Promotion no. ${prmtnCd} cannot be undone: Chitra ${tag} (Std 2 ${tag} C) has wallet movements in ${y2Label}. Cyril ${tag} (Std 2 ${tag} C) has attendance in ${y2Label}.`,
    );
    expect((await nextYear()).filter((r) => Number(r.prmtn_cd) === prmtnCd)).toHaveLength(2);
    expect((await walletOf(newChitra))!.wlt_amt).toBe('20.00');
    expect((await promotions()).find((p) => Number(p.prmtn_cd) === prmtnCd)!.prmtn_sts).toBe('Promoted');
  });

  it('undo puts a carried balance back into the wallet it came from, though the admission number was corrected in the new year; unknown origin is refused', async () => {
    const oldWlt = await topUp(kids.Fiona, y1, 7525);
    const res = await promote([{ frm_sec_cd: sec['1F'], to_sec_cd: sec['2F'] }]);
    expect(res.statusCode, res.body).toBe(201);
    const prmtnCd = Number(res.json<{ promotions: Row[] }>().promotions[0].prmtn_cd);
    const newFiona = Number((await nextYear()).find((r) => String(r.stud_fs_nm).startsWith('Fiona'))!.stud_cd);
    const newWlt = (await walletOf(newFiona))!.wlt_cd;
    // The office corrects a typing mistake in her admission number on the new year's row.
    await srv.database.db.execute(sql`UPDATE student SET stud_adm_cd = ${`P${tag}Fiona-1`} WHERE stud_cd = ${newFiona}`);
    const done = await undo(prmtnCd);
    expect(done.statusCode, done.body).toBe(200);
    const back = (await walletOf(kids.Fiona))!;
    expect(back.wlt_cd).toBe(oldWlt);
    expect(back.wlt_amt).toBe('75.25');
    expect(back.moves.map((m) => [m.wlt_txn_typ, m.amt])).toEqual([
      ['Top-up', '75.25'],
      ['Carried Forward', '-75.25'],
      ['Carried Forward', '75.25'],
    ]);
    expect(await rows(srv.database.db, sql`SELECT 1 FROM wallet WHERE wlt_cd = ${newWlt}`)).toEqual([]);

    // Promoted again; if the new wallet no longer says where its money came from, the undo refuses and keeps it.
    const again = await promote([{ frm_sec_cd: sec['1F'], to_sec_cd: sec['2F'] }]);
    expect(again.statusCode, again.body).toBe(201);
    const p2 = Number(again.json<{ promotions: Row[] }>().promotions[0].prmtn_cd);
    const newer = Number((await nextYear()).find((r) => String(r.stud_fs_nm).startsWith('Fiona'))!.stud_cd);
    await srv.database.db.execute(sql`UPDATE wallet_transaction SET src_wlt_cd = NULL WHERE stud_cd = ${newer}`);
    const refused = await undo(p2);
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ message: string }>().message).toBe(
      `Promotion no. ${p2} cannot be undone: the wallet of ${y1Label} that Fiona ${tag} (Std 2 ${tag} F) has 75.25 from is not known.`,
    );
    expect((await walletOf(newer))!.wlt_amt).toBe('75.25');
    expect((await walletOf(kids.Fiona))!.wlt_amt).toBe('0.00');
    expect((await nextYear()).filter((r) => Number(r.prmtn_cd) === p2)).toHaveLength(1);
  });

  it('refuses to undo a promotion whose children were promoted on out of the new year, and undoes it once that is undone', async () => {
    await topUp(kids.Gita, y1, 3000);
    const res = await promote([{ frm_sec_cd: sec['1G'], to_sec_cd: sec['2G'] }]);
    expect(res.statusCode, res.body).toBe(201);
    const p1 = Number(res.json<{ promotions: Row[] }>().promotions[0].prmtn_cd);
    const on = await call(srv.app, office, 'POST', '/api/promotion/', { frm_acdm_cd: y2, to_acdm_cd: y3, moves: [{ frm_sec_cd: sec['2G'], to_sec_cd: sec['3A'] }] });
    expect(on.statusCode, on.body).toBe(201);
    expect(on.json<{ carried: Row[] }>().carried).toEqual([{ stud_fs_nm: `Gita ${tag}`, amount: '30.00' }]);
    const p2 = Number(on.json<{ promotions: Row[] }>().promotions[0].prmtn_cd);

    const refused = await undo(p1);
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ message: string }>().message).toBe(
      `Promotion no. ${p1} cannot be undone: Gita ${tag} (Std 2 ${tag} G) is promoted on to ${y3Label} (promotion no. ${p2}). Hari ${tag} (Std 2 ${tag} G) is promoted on to ${y3Label} (promotion no. ${p2}).`,
    );
    expect((await nextYear()).filter((r) => Number(r.prmtn_cd) === p1)).toHaveLength(2);
    const [inY3] = await rows<{ stud_cd: number }>(srv.database.db, sql`SELECT stud_cd FROM student WHERE acdm_cd = ${y3} AND prmtn_cd = ${p2} AND stud_fs_nm = ${`Gita ${tag}`}`);
    expect((await walletOf(Number(inY3.stud_cd)))!.wlt_amt).toBe('30.00');

    // Undone from the far end first, each step gives the money back one year.
    expect((await undo(p2)).statusCode).toBe(200);
    const done = await undo(p1);
    expect(done.statusCode, done.body).toBe(200);
    expect((await walletOf(kids.Gita))!.wlt_amt).toBe('30.00');
    expect((await nextYear()).filter((r) => Number(r.prmtn_cd) === p1)).toEqual([]);
  });

  it("lets a restricted teacher undo only his own sections' promotions, and only while both years are open", async () => {
    const mine = await promote([{ frm_sec_cd: sec['1H'], to_sec_cd: sec['2H'] }]);
    const other = await promote([{ frm_sec_cd: sec['1I'], to_sec_cd: sec['2I'] }]);
    expect([mine.statusCode, other.statusCode]).toEqual([201, 201]);
    const pMine = Number(mine.json<{ promotions: Row[] }>().promotions[0].prmtn_cd);
    const pOther = Number(other.json<{ promotions: Row[] }>().promotions[0].prmtn_cd);
    const account = await f.employee([{ module: 'student', page: 'promotion', buttons: 'view,undo' }], true);
    // His section is 1H: he teaches a subject there.
    const subCd = await f.created(f.as(admin, 'subject', 'subject'), '/api/subject/', { sub_nm: `Subject ${tag} H` }, 'sub_cd');
    await f.created(f.as(admin, 'subject', 'subject_detail'), '/api/subjectDetail/', { cls_cd: cls[0], sec_cd: sec['1H'], sub_cd: subCd, usr_cd: account.usr_cd }, 'sub_dtl_cd');
    const teacher = f.as(account, 'student', 'promotion');
    const teacherUndo = (id: number) => call(srv.app, teacher, 'POST', `/api/promotion/${id}/undo`, {});

    const foreign = await teacherUndo(pOther);
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json<{ message: string }>().message).toBe('You can only undo promotions of your own sections.');
    expect((await nextYear()).filter((r) => Number(r.prmtn_cd) === pOther)).toHaveLength(1);

    await srv.database.db.execute(sql`UPDATE academic SET acdm_sts = false WHERE acdm_cd = ${y2}`);
    try {
      const closed = await teacherUndo(pMine);
      expect(closed.statusCode).toBe(403);
      expect(closed.json<{ message: string }>().message).toBe(`The academic year ${y2Label} is closed.`);
      expect((await nextYear()).filter((r) => Number(r.prmtn_cd) === pMine)).toHaveLength(1);
    } finally {
      await srv.database.db.execute(sql`UPDATE academic SET acdm_sts = true WHERE acdm_cd = ${y2}`);
    }
    const done = await teacherUndo(pMine);
    expect(done.statusCode, done.body).toBe(200);
    expect((await nextYear()).filter((r) => Number(r.prmtn_cd) === pMine)).toEqual([]);
  });

  it('refuses bad choices with a clear message and writes nothing', async () => {
    const before = (await nextYear()).length;
    const cases: [Row, number, string][] = [
      [{ frm_acdm_cd: y2, to_acdm_cd: y1, moves: [{ frm_sec_cd: sec['1E'], to_sec_cd: sec['2E'] }] }, 400, `The year to promote into must come after ${y2Label}.`],
      [body([{ frm_sec_cd: sec['1E'], to_sec_cd: sec['2E'] }, { frm_sec_cd: sec['1E'], to_sec_cd: sec['2D'] }]), 400, `Section Std 1 ${tag} E is listed twice.`],
      [body([{ frm_sec_cd: sec['1E'], to_sec_cd: sec['2E'], stud_cds: [kids.Leela] }]), 400, `Leela ${tag} is not in Std 1 ${tag} E in ${y1Label}.`],
      [body([{ frm_sec_cd: 99_999_999, to_sec_cd: sec['2E'] }]), 400, "'From Section' is not a valid choice."],
      [body([{ frm_sec_cd: sec['1E'], to_sec_cd: sec['2E'] }], 'Shuffled'), 400, "'Roll Numbers' must be one of: Kept, Renumbered by name."],
      [body([]), 400, 'Choose the sections to promote.'],
      [body([{ frm_sec_cd: sec['1E'], to_sec_cd: sec['2E'], stud_cds: [] }]), 400, 'Nobody is chosen to promote.'],
    ];
    for (const [payload, status, message] of cases) {
      const res = await call(srv.app, office, 'POST', '/api/promotion/', payload);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json<{ message: string }>().message).toBe(message);
    }
    expect((await nextYear()).length).toBe(before);
  });

  it("lets a restricted teacher promote only his own sections, and a viewer not at all", async () => {
    const teacher = await f.employee([{ module: 'student', page: 'promotion', buttons: 'view,create' }], true, [f.secA]);
    const res = await call(srv.app, f.as(teacher, 'student', 'promotion'), 'POST', '/api/promotion/preview', body([{ frm_sec_cd: sec['1E'], to_sec_cd: sec['2E'] }]));
    expect(res.statusCode).toBe(403);
    expect(res.json<{ message: string }>().message).toBe('You can only promote students of your own sections.');
    const viewer = await f.employee([{ module: 'student', page: 'promotion', buttons: 'view' }], false);
    expect((await call(srv.app, f.as(viewer, 'student', 'promotion'), 'POST', '/api/promotion/', body([{ frm_sec_cd: sec['1E'], to_sec_cd: sec['2E'] }]))).statusCode).toBe(403);
    expect((await call(srv.app, f.as(viewer, 'student', 'promotion'), 'POST', '/api/promotion/1/undo', {})).statusCode).toBe(403);
  });

  it.runIf(backend === 'postgres')('two parallel runs of one section: one promotes, the other is refused, no duplicate rows', async () => {
    const both = await Promise.all([promote([{ frm_sec_cd: sec['1D'], to_sec_cd: sec['2D'] }]), promote([{ frm_sec_cd: sec['1D'], to_sec_cd: sec['2D'] }])]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    const d = (await nextYear()).filter((r) => Number(r.sec_cd) === sec['2D']);
    expect(names(d)).toEqual(['Dinesh', 'Esther']);
    const again = await Promise.all([
      promote([{ frm_sec_cd: sec['1E'], to_sec_cd: sec['2E'], stud_cds: [kids.Farah] }]),
      promote([{ frm_sec_cd: sec['1E'], to_sec_cd: sec['2E'], stud_cds: [kids.Farah] }]),
    ]);
    expect(again.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect((await nextYear()).filter((r) => Number(r.sec_cd) === sec['2E'])).toHaveLength(1);
  });
});
