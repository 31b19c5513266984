import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changedAmount, shiftDate } from '../src/workflows/roll-year-over/year-copy.service';
import { feeWorld, type FeeWorld } from './fee-fixture';
import { staffAccount } from './staff-account';
import { backends, call, startTestServer, type Session, type TestServer } from './test-server';

type Row = Record<string, unknown>;

describe('fee change and date shift arithmetic', () => {
  it('rounds a changed amount half up to whole rupees, exactly', () => {
    expect(changedAmount('8000.00', 1000)).toBe('8800.00');
    expect(changedAmount('1234.50', 1000)).toBe('1358.00'); // 1357.95
    expect(changedAmount('1234.50', 0)).toBe('1235.00');
    expect(changedAmount('105.00', -1000)).toBe('95.00'); // 94.50 rounds up
    expect(changedAmount('104.90', -1000)).toBe('94.00'); // 94.41
    expect(changedAmount('333.33', 750)).toBe('358.00'); // 358.329...
    expect(changedAmount('9999999999.99', 100_000)).toBe('110000000000.00');
    expect(changedAmount('500.00', -10_000)).toBe('0.00');
  });
  it('moves dates by whole years, 29 February to 28 February', () => {
    expect(shiftDate('2025-06-01', 1)).toBe('2026-06-01');
    expect(shiftDate('2024-02-29', 1)).toBe('2025-02-28');
    expect(shiftDate('2024-02-29', 4)).toBe('2028-02-29');
    expect(shiftDate('2026-01-31', -1)).toBe('2025-01-31');
  });
});

describe.each(backends)('year rollover on %s', (backend) => {
  let srv: TestServer;
  let w: FeeWorld;
  let nextYear: number;
  let office: Session;
  let startYear: number;

  const body = (tables: string[], more: Row = {}) => ({ frm_acdm_cd: w.thisYear, to_acdm_cd: nextYear, tables, ...more });
  const inNext = async (url: string, module: string, page: string, q = ''): Promise<Row[]> => {
    const res = await call(srv.app, w.as(w.admin, module, page, nextYear), 'GET', `${url}?size=500${q}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ rows: Row[] }>().rows;
  };
  const migrations = async (): Promise<Row[]> => (await call(srv.app, office, 'GET', '/api/migration/?size=500')).json<{ rows: Row[] }>().rows;
  const mine = (rows: Row[], field: string) => rows.filter((r) => String(r[field] ?? '').includes(w.tag));
  /** Two more terms and three fees of this year under a tag of their own, as in the fee fixture. */
  const moreTerms = async (): Promise<string> => {
    const tag = w.next();
    const grp = w.as(w.admin, 'fee', 'fee_group');
    const t1 = await w.created(grp, '/api/fee_group/', { fee_grp_nm: `Term 1 ${tag}`, fee_grp_fee_str_dt: '2020-06-01', fee_grp_fee_exp_dt: '2020-06-30' }, 'fee_grp_cd');
    const t2 = await w.created(grp, '/api/fee_group/', { fee_grp_nm: `Term 2 ${tag}`, fee_grp_fee_str_dt: '2020-07-01', fee_grp_fee_exp_dt: '2020-07-31' }, 'fee_grp_cd');
    const tuition = await w.created(w.as(w.admin, 'fee', 'fee_type'), '/api/fee_type/', { feetyp_nm: `Tuition ${tag}` }, 'feetyp_cd');
    const map = w.as(w.admin, 'fee', 'fee');
    for (const [g, amt] of [[t1, '8000.00'], [t2, '8000.00'], [t2, '1234.50']] as const) {
      const typ = amt === '1234.50' ? await w.created(w.as(w.admin, 'fee', 'fee_type'), '/api/fee_type/', { feetyp_nm: `Books ${tag}` }, 'feetyp_cd') : tuition;
      await w.created(map, '/api/fee/', { fee_grp_cd: g, feetyp_cd: typ, cls_cd: w.cls, fee_amt: amt, fee_amt_aftr_prmtn: amt }, 'fee_cd');
    }
    return tag;
  };

  beforeAll(async () => {
    srv = await startTestServer(backend);
    w = await feeWorld(srv);
    office = w.as(w.admin, 'institute', 'migration');
    const years = (await call(srv.app, w.as(w.admin, 'institute', 'academic'), 'GET', '/api/academic/?size=50')).json<{ rows: Row[] }>().rows;
    startYear = Number(years.find((y) => Number(y.acdm_cd) === w.thisYear)?.acdm_strt_yr);
    nextYear = await w.created(w.as(w.admin, 'institute', 'academic'), '/api/academic/', { acdm_strt_yr: startYear + 1, acdm_strt_mn: 'Jun', acdm_end_yr: startYear + 2, acdm_end_mn: 'Apr', acdm_sts: true }, 'acdm_cd');
  });
  afterAll(async () => srv?.close());

  it('offers this year -> the next, and each table with its rows in both years', async () => {
    const res = await call(srv.app, office, 'GET', '/api/migration/choices');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Row>()).toMatchObject({ frm_acdm_cd: w.thisYear, to_acdm_cd: nextYear, next_strt_yr: startYear + 1 });
    const tables = (await call(srv.app, office, 'GET', `/api/migration/tables?frm_acdm_cd=${w.thisYear}&to_acdm_cd=${nextYear}`)).json<Row[]>();
    expect(tables.map((t) => t.table)).toEqual(['fee_group', 'holiday', 'exam_type', 'subject_detail', 'section_timetable', 'fee']);
    expect(tables.find((t) => t.table === 'fee')).toMatchObject({ label: 'Fee Mapping', needs: ['fee_group'], fee_amounts: true });
    expect(Number(tables.find((t) => t.table === 'fee_group')?.rows)).toBeGreaterThanOrEqual(2);
  });

  it('refuses fee mappings whose fee groups are neither in the target year nor copied: preview names them, the run is 409 and writes nothing', async () => {
    const preview = await call(srv.app, office, 'POST', '/api/migration/preview', body(['fee'], { fee_pct: 10 }));
    expect(preview.statusCode, preview.body).toBe(200);
    const p = preview.json<{ blocked: string; tables: Row[] }>();
    expect(p.blocked).toContain(`Term 1 ${w.tag}`);
    expect(p.blocked).toContain(`Term 2 ${w.tag}`);
    const before = (await migrations()).length;
    const run = await call(srv.app, office, 'POST', '/api/migration/', body(['fee'], { fee_pct: 10 }));
    expect(run.statusCode).toBe(409);
    expect(run.json<Row>().message).toContain(`'Term 1 ${w.tag}'`);
    expect((await migrations()).length).toBe(before);
    expect(await inNext('/api/fee/', 'fee', 'fee')).toEqual([]);
  });

  it('previews counts and fee amounts before and after the percentage, rounded to whole rupees', async () => {
    const res = await call(srv.app, office, 'POST', '/api/migration/preview', body(['fee', 'fee_group'], { fee_pct: 10 }));
    expect(res.statusCode, res.body).toBe(200);
    const p = res.json<{ blocked: string | null; fee_pct: number; tables: Row[] }>();
    expect(p.blocked).toBeNull();
    expect(p.fee_pct).toBe(10);
    expect(p.tables.map((t) => t.table)).toEqual(['fee_group', 'fee']);
    const fee = p.tables.find((t) => t.table === 'fee') as { rows: number; copy: number; skip: number; amounts: { fields: Row[]; examples: Row[] } };
    expect(fee).toMatchObject({ rows: 3, copy: 3, skip: 0 });
    expect(fee.amounts.fields).toEqual([
      { field: 'fee_amt', label: 'New Student Amount', before: '17234.50', after: '18958.00' },
      { field: 'fee_amt_aftr_prmtn', label: 'Old Student Amount', before: '15234.50', after: '16758.00' },
    ]);
    expect(fee.amounts.examples).toContainEqual({ title: `Term 1 ${w.tag} - Books ${w.tag} - ${w.clsNm}`, before: ['1234.50', '1234.50'], after: ['1358.00', '1358.00'] });
    // A preview writes nothing.
    expect(await inNext('/api/fee_group/', 'fee', 'fee_group')).toEqual([]);
  });

  let feeGroupRun: Row;
  let feeRun: Row;

  it('copies fee groups (dates a year on) and fee mappings pointing at the copies, one migration row per table', async () => {
    const res = await call(srv.app, office, 'POST', '/api/migration/', body(['fee_group', 'fee'], { fee_pct: 10 }));
    expect(res.statusCode, res.body).toBe(201);
    const answer = res.json<{ mgrtn_run_cd: number; migrations: Row[]; copy: number }>();
    expect(answer.copy).toBe(5);
    expect(answer.migrations.map((m) => [m.mgrtn_tbl_cd, m.row_cnt, m.mgrtn_skip_cnt, m.mgrtn_sts, m.mgrtn_run_cd])).toEqual([
      ['fee_group', 2, 0, 'Copied', answer.mgrtn_run_cd],
      ['fee', 3, 0, 'Copied', answer.mgrtn_run_cd],
    ]);
    expect(Number(answer.migrations[1].mgrtn_pct)).toBe(10);
    expect(answer.migrations[0].mgrtn_pct).toBeNull();
    expect(answer.migrations[0].mgrtn_by).toBe('Administrator');
    [feeGroupRun, feeRun] = answer.migrations;

    const groups = mine(await inNext('/api/fee_group/', 'fee', 'fee_group'), 'fee_grp_nm');
    expect(groups.map((g) => [g.fee_grp_nm, g.fee_grp_fee_str_dt, g.fee_grp_fee_exp_dt, g.fee_grp_fee_prid_amt])).toEqual([
      [`Term 1 ${w.tag}`, '2021-06-01', '2021-06-30', '100.00'],
      [`Term 2 ${w.tag}`, '2021-07-01', '2100-12-31', '50.00'],
    ]);
    const fees = await inNext('/api/fee/', 'fee', 'fee');
    expect(fees).toHaveLength(3);
    const term1 = groups.find((g) => g.fee_grp_nm === `Term 1 ${w.tag}`)!;
    const books = fees.find((f) => String(f.fee_nm).includes('Books'))!;
    // The copy points at next year's Term 1, never at this year's.
    expect(books).toMatchObject({ fee_grp_cd: term1.fee_grp_cd, fee_amt: '1358.00', fee_amt_aftr_prmtn: '1358.00', cls_cd: w.cls });
    expect(books.fee_grp_cd).not.toBe(w.term1);
    expect(fees.map((f) => f.fee_amt).sort()).toEqual(['1358.00', '8800.00', '8800.00']);
    // This year's rows are untouched.
    const thisYearFee = (await call(srv.app, w.as(w.admin, 'fee', 'fee'), 'GET', `/api/fee/${w.books1}`)).json<Row>();
    expect(thisYearFee).toMatchObject({ fee_amt: '1234.50', fee_grp_cd: w.term1 });
  });

  it('running again copies nothing new and says so, never a duplicate', async () => {
    const before = (await migrations()).length;
    const res = await call(srv.app, office, 'POST', '/api/migration/', body(['fee_group', 'fee'], { fee_pct: 10 }));
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json<{ copy: number; skip: number; message: string; migrations: Row[] }>();
    expect(answer).toMatchObject({ copy: 0, skip: 5, migrations: [] });
    expect(answer.message).toContain('Nothing new to copy');
    expect((await migrations()).length).toBe(before);
    expect(await inNext('/api/fee/', 'fee', 'fee')).toHaveLength(3);
    // Fees alone now find their fee groups in the target year (copied earlier): no longer blocked, all skipped.
    const preview = (await call(srv.app, office, 'POST', '/api/migration/preview', body(['fee']))).json<{ blocked: string | null; tables: Row[] }>();
    expect(preview.blocked).toBeNull();
    expect(preview.tables[0]).toMatchObject({ copy: 0, skip: 3 });
    expect((preview.tables[0].conflicts as string[])[0]).toContain(w.tag);
  });

  it('skips holidays already typed into the target year, copies the rest a year on, and rolls back only its copies', async () => {
    const hol = w.as(w.admin, 'institute', 'holiday');
    await w.created(hol, '/api/holiday/', { hly_nm: `Pongal ${w.tag}`, hly_frm_dt: `${startYear + 1}-01-14`, hly_to_dt: `${startYear + 1}-01-16`, hly_typ: 'Festival' }, 'hly_cd');
    await w.created(hol, '/api/holiday/', { hly_nm: `Diwali ${w.tag}`, hly_frm_dt: `${startYear}-10-20`, hly_to_dt: `${startYear}-10-20`, hly_typ: 'Festival' }, 'hly_cd');
    const typed = await w.created(w.as(w.admin, 'institute', 'holiday', nextYear), '/api/holiday/', { hly_nm: `pongal ${w.tag}`, hly_frm_dt: `${startYear + 2}-01-15`, hly_to_dt: `${startYear + 2}-01-15`, hly_typ: 'Festival' }, 'hly_cd');
    const preview = (await call(srv.app, office, 'POST', '/api/migration/preview', body(['holiday']))).json<{ tables: Row[] }>().tables[0];
    expect(preview.skip).toBe(1);
    expect(preview.conflicts).toEqual([`Pongal ${w.tag}`]);
    const run = await call(srv.app, office, 'POST', '/api/migration/', body(['holiday']));
    expect(run.statusCode, run.body).toBe(201);
    const m = run.json<{ migrations: Row[] }>().migrations[0];
    expect(m).toMatchObject({ mgrtn_tbl_cd: 'holiday', mgrtn_skip_cnt: 1 });
    const holidays = mine(await inNext('/api/holiday/', 'institute', 'holiday'), 'hly_nm');
    expect(holidays.map((h) => [h.hly_nm, h.hly_frm_dt])).toEqual(
      expect.arrayContaining([
        [`pongal ${w.tag}`, `${startYear + 2}-01-15`],
        [`Diwali ${w.tag}`, `${startYear + 1}-10-20`],
      ]),
    );
    expect(holidays.filter((h) => String(h.hly_nm).toLowerCase() === `pongal ${w.tag}`.toLowerCase())).toHaveLength(1);

    const rb = await call(srv.app, office, 'POST', `/api/migration/${String(m.mgrtn_cd)}/rollback`, {});
    expect(rb.statusCode, rb.body).toBe(200);
    expect(rb.json<Row>()).toMatchObject({ mgrtn_sts: 'Rolled Back' });
    const left = mine(await inNext('/api/holiday/', 'institute', 'holiday'), 'hly_nm');
    // The row typed by hand survives; the copies are gone.
    expect(left.map((h) => h.hly_cd)).toEqual([typed]);
    const twice = await call(srv.app, office, 'POST', `/api/migration/${String(m.mgrtn_cd)}/rollback`, {});
    expect(twice.statusCode).toBe(409);
    expect(twice.json<Row>().message).toContain('already rolled back');
  });

  it('refuses to roll back fee groups while fee mappings point at them, and fee mappings once a discount refers to one; nothing deleted', async () => {
    const early = await call(srv.app, office, 'POST', `/api/migration/${String(feeGroupRun.mgrtn_cd)}/rollback`, {});
    expect(early.statusCode).toBe(409);
    expect(early.json<Row>().message).toMatch(/is used by \d+ Fee Mapping record\(s\)\. Nothing was deleted\./);
    expect(mine(await inNext('/api/fee_group/', 'fee', 'fee_group'), 'fee_grp_nm')).toHaveLength(2);

    const fees = await inNext('/api/fee/', 'fee', 'fee');
    const stud = await w.student(w.secA, `Rollover ${w.next()}`, nextYear);
    await w.created(w.as(w.admin, 'student', 'discount', nextYear), '/api/discount/', { stud_cd: stud, fee_cd: fees[0].fee_cd, disc_amt: '100.00' }, 'disc_cd');
    const blocked = await call(srv.app, office, 'POST', `/api/migration/${String(feeRun.mgrtn_cd)}/rollback`, {});
    expect(blocked.statusCode).toBe(409);
    expect(blocked.json<Row>().message).toContain('is used by 1 Discount record(s)');
    expect(await inNext('/api/fee/', 'fee', 'fee')).toHaveLength(3);
    expect((await migrations()).find((r) => r.mgrtn_cd === feeRun.mgrtn_cd)?.mgrtn_sts).toBe('Copied');
  });

  it('rolls back fee mappings then fee groups, leaving a fee typed by hand in the target year', async () => {
    // Fresh groups and fees copied, plus one typed by hand on a group typed by hand.
    const tag = await moreTerms();
    const handGroup = await w.created(w.as(w.admin, 'fee', 'fee_group', nextYear), '/api/fee_group/', { fee_grp_nm: `Term 9 ${tag}`, fee_grp_fee_str_dt: `${startYear + 1}-06-01`, fee_grp_fee_exp_dt: `${startYear + 1}-06-30` }, 'fee_grp_cd');
    const feeType = await w.created(w.as(w.admin, 'fee', 'fee_type'), '/api/fee_type/', { feetyp_nm: `Bus ${tag}` }, 'feetyp_cd');
    const handFee = await w.created(w.as(w.admin, 'fee', 'fee', nextYear), '/api/fee/', { fee_grp_cd: handGroup, feetyp_cd: feeType, cls_cd: w.cls, fee_amt: '500.00', fee_amt_aftr_prmtn: '500.00' }, 'fee_cd');
    const run = await call(srv.app, office, 'POST', '/api/migration/', body(['fee_group', 'fee']));
    expect(run.statusCode, run.body).toBe(201);
    const [groupsRow, feesRow] = run.json<{ migrations: Row[] }>().migrations;
    // Only the new terms' rows were new; the first ones were skipped.
    expect(groupsRow).toMatchObject({ row_cnt: 2 });
    expect(feesRow).toMatchObject({ row_cnt: 3 });
    const copiedFees = (await inNext('/api/fee/', 'fee', 'fee')).filter((f) => String(f.fee_nm).includes(tag) && f.fee_cd !== handFee);
    // Without a percentage the amounts are copied as they are, paise included.
    expect(copiedFees.map((f) => f.fee_amt).sort()).toEqual(['1234.50', '8000.00', '8000.00']);

    const fees = await call(srv.app, office, 'POST', `/api/migration/${String(feesRow.mgrtn_cd)}/rollback`, {});
    expect(fees.statusCode, fees.body).toBe(200);
    expect(fees.json<Row>().deleted).toBe(3);
    const groups = await call(srv.app, office, 'POST', `/api/migration/${String(groupsRow.mgrtn_cd)}/rollback`, {});
    expect(groups.statusCode, groups.body).toBe(200);
    const leftFees = (await inNext('/api/fee/', 'fee', 'fee')).filter((f) => String(f.fee_nm).includes(tag));
    expect(leftFees.map((f) => f.fee_cd)).toEqual([handFee]);
    expect((await inNext('/api/fee_group/', 'fee', 'fee_group')).filter((g) => String(g.fee_grp_nm).includes(tag)).map((g) => g.fee_grp_cd)).toEqual([handGroup]);
  });

  it('needs the create button to preview or run and the rollback button to roll back', async () => {
    const { session } = await staffAccount(srv.app, w.admin, { 'institute/migration': 'view' }, false, 'M');
    const s = { ...session, modulename: 'institute', pagename: 'migration', acdmCd: w.thisYear };
    expect((await call(srv.app, s, 'GET', '/api/migration/?size=5')).statusCode).toBe(200);
    const preview = await call(srv.app, s, 'POST', '/api/migration/preview', body(['holiday']));
    expect(preview.statusCode).toBe(403);
    expect((await call(srv.app, s, 'POST', '/api/migration/', body(['holiday']))).statusCode).toBe(403);
    expect((await call(srv.app, s, 'POST', `/api/migration/${String(feeRun.mgrtn_cd)}/rollback`, {})).statusCode).toBe(403);
  });

  it("refuses another institute's years, bad bodies with a clear 400, and an unknown migration with 404", async () => {
    const years = (await call(srv.app, { ...w.admin, modulename: 'institute', pagename: 'academic', instCd: 2 }, 'GET', '/api/academic/')).json<{ rows: Row[] }>().rows;
    const collegeYear = Number(years[0].acdm_cd);
    const foreign = await call(srv.app, office, 'POST', '/api/migration/preview', { frm_acdm_cd: collegeYear, to_acdm_cd: nextYear, tables: ['holiday'] });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json<Row>().message).toBe('This academic year does not belong to the institute.');
    expect((await call(srv.app, office, 'POST', '/api/migration/', { frm_acdm_cd: w.thisYear, to_acdm_cd: collegeYear, tables: ['holiday'] })).statusCode).toBe(403);
    const bad = async (b: Row) => {
      const r = await call(srv.app, office, 'POST', '/api/migration/preview', b);
      expect(r.statusCode, r.body).toBe(400);
      return r.json<Row>().message;
    };
    expect(await bad(body(['student']))).toContain('Tables may be only');
    expect(await bad(body([]))).toBe('Please select the tables to copy.');
    expect(await bad(body(['fee'], { fee_pct: 10.555 }))).toContain('at most 2 decimals');
    expect(await bad(body(['fee'], { fee_pct: -101 }))).toContain('from -100 to 1000');
    expect(await bad({ ...body(['fee']), to_acdm_cd: w.thisYear })).toBe('Choose two different years to copy from and to.');
    expect(await bad({ ...body(['fee']), tables: "fee'; DROP TABLE fee; --" })).toBeTruthy();
    expect((await call(srv.app, office, 'POST', '/api/migration/99999999/rollback', {})).statusCode).toBe(404);
    expect((await call(srv.app, office, 'POST', '/api/migration/abc/rollback', {})).statusCode).toBe(400);
  });

  it.runIf(backend === 'postgres')('two runs at once into one year copy each row once', async () => {
    const tag = await moreTerms();
    const go = () => call(srv.app, office, 'POST', '/api/migration/', body(['fee_group', 'fee']));
    const answers = await Promise.all([go(), go(), go()]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 201]);
    const fees = (await inNext('/api/fee/', 'fee', 'fee')).filter((f) => String(f.fee_nm).includes(tag));
    expect(fees).toHaveLength(3);
  });
});
