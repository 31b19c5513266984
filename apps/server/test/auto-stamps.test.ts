import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, call, login, startTestServer, type Session, type TestServer } from './test-server';

type Row = Record<string, unknown>;

/* Fields the server fills itself: who changed a wallet and when, and the time a follow-up was noted. */
describe.each(backends)('server-stamped fields on %s', (backend) => {
  let srv: TestServer;
  let admin: Session;
  let studCd: unknown;

  beforeAll(async () => {
    srv = await startTestServer(backend);
    admin = await login(srv.app);
    const as = (module: string, pagename: string): Session => ({ ...admin, modulename: module, pagename });
    const cls = (await call(srv.app, as('class_section', 'class'), 'POST', '/api/class/', { cls_nm: 'Stamp VII', cls_odr: 7 })).json<Row>();
    const sec = (await call(srv.app, as('class_section', 'section'), 'POST', '/api/section/', { sec_nm: 'A', cls_cd: cls.cls_cd })).json<Row>();
    const stud = await call(srv.app, as('student', 'profile'), 'POST', '/api/student/', { stud_fs_nm: 'Nila Arjun', stud_adm_cd: 'STAMP-1', cls_cd: cls.cls_cd, sec_cd: sec.sec_cd });
    expect(stud.statusCode, stud.body).toBe(201);
    studCd = stud.json<Row>().stud_cd;
  });
  afterAll(async () => srv?.close());

  it("stamps the wallet's last change with the user's full name and the day, on create and on update", async () => {
    const s: Session = { ...admin, modulename: 'student', pagename: 'wallet' };
    const today = new Date();
    const day = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;
    const created = await call(srv.app, s, 'POST', '/api/wallet/', { stud_cd: studCd, usr_full_nm: 'Someone Else' });
    // A stamp is the server's: sending it is refused like any unknown field; so is a balance, which is the ledger's.
    expect(created.statusCode).toBe(400);
    expect((await call(srv.app, s, 'POST', '/api/wallet/', { stud_cd: studCd, wlt_amt: '250.00' })).statusCode).toBe(400);
    const ok = await call(srv.app, s, 'POST', '/api/wallet/', { stud_cd: studCd });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json<Row>()).toMatchObject({ usr_full_nm: 'Administrator', wlt_updt_dt: day, wlt_amt: '0.00' });
    const topup = await call(srv.app, s, 'POST', `/api/wallet/${ok.json<Row>().wlt_cd}/topup`, { amount: '300.50', reason: 'Canteen', idempotency_key: 'stamp-topup-0001' });
    expect(topup.statusCode, topup.body).toBeLessThan(300);
    const after = (await call(srv.app, s, 'GET', `/api/wallet/${ok.json<Row>().wlt_cd}`)).json<Row>();
    expect(after).toMatchObject({ usr_full_nm: 'Administrator', wlt_updt_dt: day, wlt_amt: '300.50' });
  });

  it('stamps the time a fee follow-up was noted', async () => {
    const s: Session = { ...admin, modulename: 'fee', pagename: 'followup' };
    const res = await call(srv.app, s, 'POST', '/api/fee_followup/', { stud_cd: studCd, fee_flwup_nt: 'Father promised to pay on Friday.' });
    expect(res.statusCode, res.body).toBe(201);
    expect(String(res.json<Row>().fee_flwup_crt_tm)).toMatch(/^\d{2}:\d{2}:\d{2}$/);
  });
});
