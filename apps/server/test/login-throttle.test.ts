import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_LOGIN } from '../src/db/seed';
import { staffAccount, STAFF_PASSWORD } from './staff-account';
import { ADMIN_PASSWORD, backends, call, login, startTestServer, type Session, type TestServer } from './test-server';

type Row = Record<string, unknown>;

const LOGIN = '/api/employee/login/';
const DEVICE = 'CAMPUS-DEVICE';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (const backend of backends) {
  describe(`sign-in throttling, not lockout (${backend})`, () => {
    let srv: TestServer;
    let admin: Session;

    beforeAll(async () => {
      // The defaults: 5 free failures per login id and address, waits from 1 s doubling up to 15 minutes,
      // 30 per address with waits of at most 60 s.
      srv = await startTestServer(backend);
      admin = await login(srv.app);
    });
    afterAll(async () => srv?.close());

    /** One sign-in as a browser at `ip` would send it, with its device cookie when it has one. */
    function signIn(usr_nm: string, usr_pwd: string, ip: string, device?: string): Promise<LightMyRequestResponse> {
      return srv.app.inject({ method: 'POST', url: LOGIN, remoteAddress: ip, payload: { usr_nm, usr_pwd }, cookies: device ? { [DEVICE]: device } : {} });
    }

    /** Signs in from `ip` and keeps the device cookie that browser is given. */
    async function knownBrowser(usr_nm: string, usr_pwd: string, ip: string): Promise<string> {
      const res = await signIn(usr_nm, usr_pwd, ip);
      expect(res.statusCode, res.body).toBe(200);
      // (Checked where it is used: today's sign-in gives no such cookie, and the test shows what that costs.)
      return res.cookies.find((c) => c.name === DEVICE)?.value ?? '';
    }

    const staff = async (prefix: string) => (await staffAccount(srv.app, admin, { 'master/religion': 'view' }, false, prefix)).session.usr_nm;

    it("accepts ADMIN's right password from its known browser after an attacker's 50 failures from another address", async () => {
      const owner = await knownBrowser(ADMIN_LOGIN, ADMIN_PASSWORD, '10.1.0.1');
      const codes: number[] = [];
      for (let i = 0; i < 50; i++) codes.push((await signIn(ADMIN_LOGIN, `guess-${i}`, '203.0.113.9')).statusCode);
      expect(codes.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
      // The attacker is held back: the tries after the fifth wait, so almost all of them are refused unchecked.
      expect(codes.filter((c) => c === 429).length).toBeGreaterThanOrEqual(40);
      expect(codes).not.toContain(200);
      // Even the right password waits in a browser never seen before...
      const fresh = await signIn(ADMIN_LOGIN, ADMIN_PASSWORD, '203.0.113.9');
      expect(fresh.statusCode).toBe(429);
      // ...but the owner's browser signs in at once, at the office and from home.
      const atOffice = await signIn(ADMIN_LOGIN, ADMIN_PASSWORD, '10.1.0.1', owner);
      expect(atOffice.statusCode, atOffice.body).toBe(200);
      const atHome = await signIn(ADMIN_LOGIN, ADMIN_PASSWORD, '198.18.0.20', owner);
      expect(atHome.statusCode, atHome.body).toBe(200);
    });

    it('lets an office address with 30 failures on other ids in: a known browser at once, a new browser of another login within a bounded wait', async () => {
      const office = '192.0.2.50';
      const clerk = await staff('CLERK');
      const newcomer = await staff('NEWC');
      const clerkBrowser = await knownBrowser(clerk, STAFF_PASSWORD, office);
      for (let i = 0; i < 30; i++) {
        const r = await signIn(`NOBODY${Math.floor(i / 5)}`, 'wrong', office);
        expect(r.statusCode, `failure ${i + 1}`).toBe(401);
      }
      const known = await signIn(clerk, STAFF_PASSWORD, office, clerkBrowser);
      expect(known.statusCode, known.body).toBe(200);
      let res = await signIn(newcomer, STAFF_PASSWORD, office);
      if (res.statusCode === 429) {
        const wait = Number(res.headers['retry-after']);
        expect(wait).toBeGreaterThan(0);
        expect(wait).toBeLessThanOrEqual(srv.cfg.loginAddressMaxWaitSeconds);
        expect(res.json<Row>().message).toMatch(/^Too many failed sign-ins\. Try again in \d+ second\(s\)\.$/);
        await sleep(wait * 1000 + 100);
        res = await signIn(newcomer, STAFF_PASSWORD, office);
      }
      expect(res.statusCode, res.body).toBe(200);
    });

    let grower = '';
    it('makes each further try of one login id from one address wait twice as long, without holding back that id elsewhere or that address for others', async () => {
      grower = await staff('GROW');
      const ip = '198.51.100.7';
      for (let i = 0; i < 5; i++) expect((await signIn(grower, 'bad', ip)).statusCode).toBe(401);
      const waits: number[] = [];
      for (let round = 0; round < 3; round++) {
        const held = await signIn(grower, STAFF_PASSWORD, ip);
        expect(held.statusCode).toBe(429);
        waits.push(Number(held.headers['retry-after']));
        await sleep(waits[round] * 1000 + 100);
        if (round < 2) expect((await signIn(grower, 'bad', ip)).statusCode).toBe(401);
      }
      expect(waits).toEqual([1, 2, 4]);
      expect((await signIn(grower, 'bad', ip)).statusCode).toBe(401);
      // The same login id from another address and another login id from this address are not held back.
      expect((await signIn(grower, 'bad', '198.51.100.8')).statusCode).toBe(401);
      const other = await staff('OTHER');
      expect((await signIn(other, STAFF_PASSWORD, ip)).statusCode).toBe(200);
    });

    it('shows the sign-in waits to the administrator, who lifts one; others may not lift', async () => {
      const ip = '198.51.100.7';
      expect((await signIn(grower, STAFF_PASSWORD, ip)).statusCode).toBe(429);
      const page = { ...admin, modulename: 'history', pagename: 'login_lock' };
      const list = await call(srv.app, page, 'GET', `/api/login_lock/?q=${grower}`);
      expect(list.statusCode, list.body).toBe(200);
      const rows = list.json<{ rows: Row[] }>().rows;
      const pair = rows.find((r) => r.atmpt_kind === 'Login Id and Address' && r.atmpt_ip === ip);
      expect(pair, JSON.stringify(rows)).toBeDefined();
      expect(pair!.atmpt_subject).toBe(`${grower} from ${ip}`);
      expect(pair!.atmpt_fail_cnt).toBe(8);
      expect(Number(pair!.atmpt_wait_sec)).toBeGreaterThan(0);
      expect(rows.find((r) => r.atmpt_kind === 'Login Id')?.atmpt_fail_cnt).toBe(9);

      const viewer = await staffAccount(srv.app, admin, { 'history/login_lock': 'view' }, false, 'VIEW');
      const asViewer = { ...viewer.session, modulename: 'history', pagename: 'login_lock' };
      expect((await call(srv.app, asViewer, 'GET', '/api/login_lock/')).statusCode).toBe(200);
      expect((await call(srv.app, asViewer, 'POST', `/api/login_lock/${String(pair!.atmpt_cd)}/lift`, {})).statusCode).toBe(403);

      const lifted = await call(srv.app, page, 'POST', `/api/login_lock/${String(pair!.atmpt_cd)}/lift`, {});
      expect(lifted.statusCode, lifted.body).toBe(200);
      expect((await signIn(grower, STAFF_PASSWORD, ip)).statusCode).toBe(200);
      const again = await call(srv.app, page, 'POST', `/api/login_lock/${String(pair!.atmpt_cd)}/lift`, {});
      expect(again.statusCode).toBe(404);
      const history = await call(srv.app, { ...admin, pagename: 'action' }, 'GET', '/api/action_history/actionhistory?f_actn_hsty_entity=login_lock');
      expect(history.json<{ rows: Row[] }>().rows.length).toBe(1);
    });

    it('holds a known browser to its own count: guesses from it wait too', async () => {
      const owner = await staff('DEV');
      const browser = await knownBrowser(owner, STAFF_PASSWORD, '10.9.0.1');
      for (let i = 0; i < 5; i++) expect((await signIn(owner, 'bad', '10.9.0.1', browser)).statusCode).toBe(401);
      expect((await signIn(owner, STAFF_PASSWORD, '10.9.0.1', browser)).statusCode).toBe(429);
      // A cookie the server never gave is no known browser.
      expect((await signIn(owner, 'bad', '10.9.0.2', 'x'.repeat(43))).statusCode).toBe(401);
    });
  });
}
