import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, call, login, startTestServer, type Session, type TestServer } from './test-server';

type Row = Record<string, unknown>;

/**
 * Reports declared as views (storage 'view'): their numbers come from the rows they sum, follow every change
 * of those rows at once, and stay inside the request's institute and year like any list.
 */
describe.each(backends)('report views on %s', (backend) => {
  let srv: TestServer;
  let admin: Session;
  const at = (modulename: string, pagename: string): Session => ({ ...admin, modulename, pagename });

  async function post(s: Session, api: string, body: Row): Promise<Row> {
    const res = await call(srv.app, s, 'POST', api, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<Row>();
  }
  const list = async (s: Session, api: string): Promise<Row[]> => {
    const res = await call(srv.app, s, 'GET', api);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ rows: Row[] }>().rows;
  };

  let bus: Row;
  beforeAll(async () => {
    srv = await startTestServer(backend);
    admin = await login(srv.app);
    const ctgy = await post(at('budget', 'category'), '/api/expense_category/', { exp_ctgy_nm: 'Transport' });
    bus = await post(at('transport', 'bus_detail'), '/api/bus_tracking/', { bs_trck_bus_nm: 'Bus 7', bs_trck_dscr: 'Anna Nagar - School' });
    const diesel = await post(at('budget', 'sub_category'), '/api/expense_sub_category/', {
      exp_sub_ctgy_nm: 'Bus 7 Diesel', exp_sub_ctgy_typ: 'Expense', exp_ctgy_cd: ctgy.exp_ctgy_cd, bs_trck_cd: bus.bs_trck_cd,
    });
    const fares = await post(at('budget', 'sub_category'), '/api/expense_sub_category/', {
      exp_sub_ctgy_nm: 'Bus 7 Trip Hire', exp_sub_ctgy_typ: 'Income', exp_ctgy_cd: ctgy.exp_ctgy_cd, bs_trck_cd: bus.bs_trck_cd,
    });
    const e = at('budget', 'income_expense');
    await post(e, '/api/expense/', { exp_sub_ctgy_cd: diesel.exp_sub_ctgy_cd, exp_desc: 'Diesel June', exp_amt: '4500.50', exp_dt: '2026-06-10' });
    await post(e, '/api/expense/', { exp_sub_ctgy_cd: diesel.exp_sub_ctgy_cd, exp_desc: 'Diesel June 2', exp_amt: '1200.25', exp_dt: '2026-06-24' });
    await post(e, '/api/expense/', { exp_sub_ctgy_cd: diesel.exp_sub_ctgy_cd, exp_desc: 'Diesel July', exp_amt: '3000.00', exp_dt: '2026-07-05' });
    await post(e, '/api/expense/', { exp_sub_ctgy_cd: fares.exp_sub_ctgy_cd, exp_desc: 'Excursion hire', exp_amt: '2500.00', exp_dt: '2026-07-15' });
    const cls = await post(at('class_section', 'class'), '/api/class/', { cls_nm: 'VII', cls_odr: 7 });
    const sec = await post(at('class_section', 'section'), '/api/section/', { sec_nm: 'A', cls_cd: cls.cls_cd });
    const sp = at('student', 'profile');
    const bm = at('transport', 'bus_mapping');
    for (const [i, name] of ['Anitha R', 'Brian Dsouza', 'Charu M'].entries()) {
      const st = await post(sp, '/api/student/', { stud_fs_nm: name, stud_adm_cd: `RV${i}`, cls_cd: cls.cls_cd, sec_cd: sec.sec_cd });
      await post(bm, '/api/bus_mapping/', { stud_cd: st.stud_cd, bs_trck_cd: bus.bs_trck_cd, bs_map_stop: 'Anna Nagar', bs_map_frm_dt: '2026-06-01' });
    }
  });
  afterAll(async () => srv?.close());

  it('overall budget sums the entries per month, category and type, exactly', async () => {
    const rows = await list(at('reports', 'overall_budget'), '/api/overall_budget/?q=transport&size=50');
    const pick = rows.map((r) => ({ m: r.bdgt_mnth, t: r.bdgt_typ, n: r.bdgt_cnt, amt: r.bdgt_amt }));
    expect(pick).toEqual([
      { m: '2026-06', t: 'Expense', n: 2, amt: '5700.75' },
      { m: '2026-07', t: 'Expense', n: 1, amt: '3000.00' },
      { m: '2026-07', t: 'Income', n: 1, amt: '2500.00' },
    ]);
    // Keys are distinct and a row opens by its key.
    expect(new Set(rows.map((r) => r.bdgt_cd)).size).toBe(3);
    const one = await call(srv.app, at('reports', 'overall_budget'), 'GET', `/api/overall_budget/${String(rows[0].bdgt_cd)}`);
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json<Row>().bdgt_amt).toBe('5700.75');
  });

  it('transport budget counts the riders and the bus costs, and follows a deleted entry at once', async () => {
    const t = at('reports', 'transport_budget');
    const [row] = (await list(t, '/api/transport_budget/?q=Bus 7')).filter((r) => r.bs_trck_cd === bus.bs_trck_cd);
    expect(row).toMatchObject({ bs_trck_bus_nm: 'Bus 7', trns_stud_cnt: 3, trns_exp_cnt: 3, trns_exp_amt: '8700.75', trns_inc_amt: '2500.00', trns_cost_per_stud: '2900.25' });
    const e = at('budget', 'income_expense');
    const july = (await list(e, '/api/expense/?q=Diesel July')).map((r) => r.exp_cd);
    expect((await call(srv.app, e, 'DELETE', '/api/expense/', { primids: july })).statusCode).toBe(200);
    const [after] = (await list(t, '/api/transport_budget/?q=Bus 7')).filter((r) => r.bs_trck_cd === bus.bs_trck_cd);
    expect(after).toMatchObject({ trns_exp_cnt: 2, trns_exp_amt: '5700.75', trns_cost_per_stud: '1900.25' });
  });

  it('a report is read-only and needs its own page', async () => {
    expect((await call(srv.app, at('reports', 'overall_budget'), 'POST', '/api/overall_budget/', { bdgt_mnth: '2026-01' })).statusCode).toBe(404);
    expect((await call(srv.app, at('reports', 'overall_budget'), 'DELETE', '/api/overall_budget/', { primids: [1] })).statusCode).toBe(404);
  });

  it('a student summed by a report can still be deleted (a view holds no reference)', async () => {
    const sp = at('student', 'profile');
    const cls = (await list(at('class_section', 'class'), '/api/class/?q=VII'))[0];
    const sec = (await list(at('class_section', 'section'), '/api/section/?q=A')).find((r) => r.cls_cd === cls.cls_cd)!;
    const st = await post(sp, '/api/student/', { stud_fs_nm: 'Temp Pupil', stud_adm_cd: 'RVTMP', cls_cd: cls.cls_cd, sec_cd: sec.sec_cd });
    const res = await call(srv.app, sp, 'DELETE', '/api/student/', { primids: [st.stud_cd] });
    expect(res.statusCode, res.body).toBe(200);
  });
});
