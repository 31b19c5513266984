import { entity } from '@campus/entities/registry';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReadBudget } from '../src/access/read-budget';
import { buildApp } from '../src/app';
import { openDatabase, rows, sql, type Database } from '../src/db/client';
import type { RealtimeEvent, RealtimeEvents } from '../src/realtime-events';
import { contextForUser } from '../src/workflows/notification-rules/notification-rule.service';
import { staffAccount } from './staff-account';
import { backends, call, login, startTestServer, type Session, type TestServer } from './test-server';

type Row = Record<string, unknown>;

/** A RealtimeEvents that keeps what was sent to users (no socket server). */
function recordingEvents(): RealtimeEvents & { sent: { usrCds: number[]; event: RealtimeEvent }[] } {
  const sent: { usrCds: number[]; event: RealtimeEvent }[] = [];
  return {
    sent,
    toUsers: (usrCds, event) => void sent.push({ usrCds: [...usrCds], event }),
    toInstitute: () => undefined,
    attach: () => undefined,
  };
}

/** The institute's budget for these tests: 120 religions read three times over crosses it. */
const BUDGET = 300;
const RELIGIONS = 120;

describe.each(backends)('the bulk-read budget on %s', (backend) => {
  let srv: TestServer;
  let admin: Session;

  beforeAll(async () => {
    srv = await startTestServer(backend);
    admin = await login(srv.app);
    const saved = await call(srv.app, { ...admin, modulename: 'institute', pagename: 'profile' }, 'POST', `/api/institute/${admin.instCd}/settings`, {
      read_budget_rows_hour: BUDGET,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    await srv.database.db.execute(
      sql`INSERT INTO religion (inst_cd, rgn_nm) SELECT ${admin.instCd}, 'Religion ' || lpad(g::text, 3, '0') FROM generate_series(1, ${RELIGIONS}) g`,
    );
  });
  afterAll(async () => srv?.close());

  const reader = async (): Promise<Session> => ({
    ...(await staffAccount(srv.app, admin, { 'master/religion': '' }, false, 'R')).session,
    modulename: 'master',
    pagename: 'religion',
  });
  const page = (app: FastifyInstance, s: Session, n: number, size = 50) => call(app, s, 'GET', `/api/religion/?page=${n}&size=${size}`);
  const events = async (usr: number): Promise<Row[]> =>
    rows<Row>(
      srv.database.db,
      sql`SELECT actn_hsty_after FROM action_history WHERE actn_hsty_mthd = 'BULK_READ' AND actn_hsty_entity = 'employee' AND actn_hsty_row_key = ${String(usr)}`,
    );
  /** Pages 1, 2, 3 over and over until one is refused: the rows read before it, and the refusal. */
  const readUntilRefused = async (app: FastifyInstance, s: Session, limit = 40) => {
    let read = 0;
    for (let i = 0; i < limit; i++) {
      const res = await page(app, s, (i % 3) + 1);
      if (res.statusCode === 429) return { read, refused: res };
      expect(res.statusCode, res.body).toBe(200);
      read += res.json<{ rows: Row[] }>().rows.length;
    }
    throw new Error(`never refused after ${read} rows`);
  };

  it('refuses pages after the first once a user has read more rows than the budget, records one event, and an admin lifts it', async () => {
    const s = await reader();
    const { read, refused } = await readUntilRefused(srv.app, s);
    // The page that crossed was served (and a first page after it, which a block leaves open); the next bulk
    // page is refused, with what was read and the limit.
    expect(read).toBeGreaterThan(BUDGET);
    expect(read).toBeLessThanOrEqual(BUDGET + 100);
    const crossed = Number(/^You have read (\d+)/.exec(refused.json<{ message: string }>().message)?.[1]);
    expect(crossed).toBeGreaterThan(BUDGET);
    expect(refused.json<{ message: string }>().message).toBe(
      `You have read ${crossed} rows in the last hour, over the limit of ${BUDGET}. Ask an administrator to lift the block (Dashboard > Security events); the first page of each list still opens.`,
    );
    // The grid's first page still opens; a second page, or an export's 500-row page, does not.
    expect((await page(srv.app, s, 1)).statusCode).toBe(200);
    expect((await page(srv.app, s, 2)).statusCode).toBe(429);
    expect((await page(srv.app, s, 1, 500)).statusCode).toBe(429);
    const ev = await events(s.usr_cd);
    expect(ev).toHaveLength(1);
    expect(ev[0].actn_hsty_after).toMatchObject({ rows: crossed, budget: BUDGET, entity: 'religion', usr_nm: s.usr_nm });

    // Administrators see it on the dashboard, with the user still blocked; the user's own dashboard has no such key.
    const dash = await call(srv.app, admin, 'GET', '/api/dashboard/');
    expect(dash.statusCode, dash.body).toBe(200);
    const listed = dash.json<{ securityEvents: Row[] }>().securityEvents;
    expect(listed[0]).toMatchObject({ usr_cd: s.usr_cd, usr_nm: s.usr_nm, rows: crossed, budget: BUDGET, entity: 'religion', blocked: true });
    expect('securityEvents' in (await call(srv.app, s, 'GET', '/api/dashboard/')).json<Row>()).toBe(false);

    // Only an administrator lifts it; then the user reads in bulk again, and a second lift finds nothing.
    const selfLift = await call(srv.app, s, 'POST', `/api/read_budget/${s.usr_cd}/lift`);
    expect(selfLift.statusCode).toBe(403);
    const lift = await call(srv.app, admin, 'POST', `/api/read_budget/${s.usr_cd}/lift`);
    expect(lift.statusCode, lift.body).toBe(200);
    expect((await page(srv.app, s, 2)).statusCode).toBe(200);
    expect((await page(srv.app, s, 1, 500)).statusCode).toBe(200);
    expect((await call(srv.app, admin, 'POST', `/api/read_budget/${s.usr_cd}/lift`)).statusCode).toBe(404);
    const after = (await call(srv.app, admin, 'GET', '/api/dashboard/')).json<{ securityEvents: Row[] }>().securityEvents;
    expect(after[0]).toMatchObject({ usr_cd: s.usr_cd, blocked: false });
    const unblock = await rows<Row>(srv.database.db, sql`SELECT 1 FROM action_history WHERE actn_hsty_mthd = 'UNBLOCK' AND actn_hsty_row_key = ${String(s.usr_cd)}`);
    expect(unblock).toHaveLength(1);
  });

  it("refuses an administrator's lift of his own block: another administrator lifts it", async () => {
    const adminRole = (await call(srv.app, { ...admin, modulename: 'master', pagename: 'role' }, 'GET', '/api/role/?f_rl_nm=ADMIN')).json<{ rows: Row[] }>().rows[0];
    const made = await call(srv.app, { ...admin, modulename: 'employee', pagename: 'profile' }, 'POST', '/api/employee/', {
      usr_nm: 'SECONDADMIN',
      usr_full_nm: 'Second Administrator',
      usr_typ: adminRole.rl_cd,
      usr_is_lgn: true,
      usr_pwd: 'Second-Admin-Pass-2026',
    });
    expect(made.statusCode, made.body).toBe(201);
    const second = await login(srv.app, 'SECONDADMIN', 'Second-Admin-Pass-2026');
    const own = { ...admin, modulename: 'master', pagename: 'religion' };
    const { refused } = await readUntilRefused(srv.app, own);
    expect(refused.statusCode).toBe(429);
    const selfLift = await call(srv.app, admin, 'POST', `/api/read_budget/${admin.usr_cd}/lift`);
    expect(selfLift.statusCode).toBe(403);
    expect(selfLift.json<{ message: string }>().message).toBe('Another administrator must lift a block on your own reads.');
    expect((await page(srv.app, own, 2)).statusCode).toBe(429);
    const lifted = await call(srv.app, second, 'POST', `/api/read_budget/${admin.usr_cd}/lift`);
    expect(lifted.statusCode, lifted.body).toBe(200);
    expect((await page(srv.app, own, 2)).statusCode).toBe(200);
  });

  it.skipIf(backend !== 'postgres')('counts the rows read through two app instances on the same database together', { timeout: 60_000 }, async () => {
    let second: Database | undefined;
    let other: FastifyInstance | undefined;
    try {
      second = await openDatabase({ databaseUrl: srv.cfg.databaseUrl, dataDir: srv.cfg.dataDir });
      other = await buildApp(srv.cfg, second, { logger: false });
      await other.ready();
      const s = await reader();
      // Four pages through the first instance (the seed's religions and ours): under the budget alone.
      let read = 0;
      for (const n of [1, 2, 3, 1]) {
        const res = await page(srv.app, s, n);
        expect(res.statusCode, res.body).toBe(200);
        read += res.json<{ rows: Row[] }>().rows.length;
      }
      expect(read).toBeGreaterThan(BUDGET / 2);
      expect(read).toBeLessThan(BUDGET);
      // What the first instance holds is written within its flush period (5 s), or at once past half the budget.
      for (let i = 0; i < 100; i++) {
        const [r] = await rows<{ rdb_rows: number }>(srv.database.db, sql`SELECT rdb_rows FROM read_budget WHERE usr_cd = ${s.usr_cd}`);
        if (r?.rdb_rows === read) break;
        await new Promise((ok) => setTimeout(ok, 100));
      }
      // The second instance adds to the same count: it refuses once the two together cross the budget.
      const there = await readUntilRefused(other, s);
      expect(read + there.read).toBeGreaterThan(BUDGET);
      expect(there.read).toBeLessThanOrEqual(BUDGET - read + 100);
      // The sentence says the count that crossed (the first page read after it is not in it).
      const said = /^You have read (\d+) rows in the last hour, over the limit of 300\./.exec(there.refused.json<{ message: string }>().message);
      expect(Number(said?.[1])).toBeGreaterThan(BUDGET);
      expect(Number(said?.[1])).toBeLessThanOrEqual(read + there.read);
      // The first instance learns of the block at its next write (at most one more page), then refuses too.
      const next = (await page(srv.app, s, 2)).statusCode;
      expect([200, 429]).toContain(next);
      expect((await page(srv.app, s, 2)).statusCode).toBe(429);
      expect(await events(s.usr_cd)).toHaveLength(1);
    } finally {
      await other?.close();
      await second?.close();
    }
  });

  /** The bell notifications stored for one BULK_READ event, by recipient. */
  const alarmsOf = async (readerCd: number): Promise<{ usr_cd: number; usr_ntf_ref: number; usr_ntf_ttl: string }[]> =>
    rows(
      srv.database.db,
      sql`SELECT n.usr_cd, n.usr_ntf_ref, n.usr_ntf_ttl FROM user_notification n
          JOIN action_history h ON h.actn_hsty_cd = n.usr_ntf_ref AND h.actn_hsty_mthd = 'BULK_READ' AND h.actn_hsty_row_key = ${String(readerCd)}
          WHERE n.usr_ntf_kind = 'security' ORDER BY n.usr_ntf_ref, n.usr_cd`,
    );
  /** An employee with the ADMIN role: home in `home` (default ours), optionally mapped to ours, optionally barred from signing in. */
  const adminAccount = async (nm: string, o: { home?: number; mappedHere?: boolean; canSignIn?: boolean } = {}): Promise<number> => {
    const adminRole = (await call(srv.app, { ...admin, modulename: 'master', pagename: 'role' }, 'GET', '/api/role/?f_rl_nm=ADMIN')).json<{ rows: Row[] }>().rows[0];
    const made = await call(srv.app, { ...admin, modulename: 'employee', pagename: 'profile' }, 'POST', '/api/employee/', {
      usr_nm: nm,
      usr_full_nm: `Admin ${nm}`,
      usr_typ: adminRole.rl_cd,
      usr_is_lgn: true,
      usr_pwd: 'Alarm-Admin-Pass-2026',
    });
    expect(made.statusCode, made.body).toBe(201);
    const usrCd = Number(made.json<Row>().usr_cd);
    if (o.home !== undefined) await srv.database.db.execute(sql`UPDATE employee SET inst_cd = ${o.home} WHERE usr_cd = ${usrCd}`);
    if (o.mappedHere) await srv.database.db.execute(sql`INSERT INTO user_institute (usr_cd, inst_cd, usr_inst_sts) VALUES (${usrCd}, ${admin.instCd}, true)`);
    if (o.canSignIn === false) await srv.database.db.execute(sql`UPDATE employee SET usr_is_lgn = false WHERE usr_cd = ${usrCd}`);
    return usrCd;
  };
  const otherInstitute = async (): Promise<number> =>
    Number((await rows<{ inst_cd: number }>(srv.database.db, sql`SELECT inst_cd FROM institute WHERE inst_cd <> ${admin.instCd} ORDER BY inst_cd LIMIT 1`))[0].inst_cd);

  it("tells each administrator of the institute in the bell, but not the reader, a colleague, a barred or another institute's administrator", async () => {
    const college = await otherInstitute();
    const here = await adminAccount('ALARMADMIN');
    const mapped = await adminAccount('ALARMMAPPED', { home: college, mappedHere: true });
    const elsewhere = await adminAccount('ALARMELSEWHERE', { home: college });
    const barred = await adminAccount('ALARMBARRED', { canSignIn: false });
    const colleague = (await reader()).usr_cd;
    const recorder = recordingEvents();
    const original = srv.app.realtimeEvents.toUsers;
    srv.app.realtimeEvents.toUsers = recorder.toUsers;
    try {
      const s = await reader();
      const { refused } = await readUntilRefused(srv.app, s);
      const crossed = Number(/^You have read (\d+)/.exec(refused.json<{ message: string }>().message)?.[1]);
      const stored = await alarmsOf(s.usr_cd);
      const to = stored.map((n) => n.usr_cd);
      // One per administrator (the seed's ADMIN, the one made here, the one mapped here from the college).
      expect(to).toContain(admin.usr_cd);
      expect(to).toContain(here);
      expect(to).toContain(mapped);
      expect(new Set(to).size).toBe(to.length);
      for (const no of [s.usr_cd, colleague, elsewhere, barred]) expect(to).not.toContain(no);
      expect(new Set(stored.map((n) => n.usr_ntf_ref)).size).toBe(1);
      // Sent to exactly those administrators' open pages.
      const told = recorder.sent.filter((e) => e.event === 'updateNotification');
      expect(told).toHaveLength(1);
      expect([...told[0].usrCds].sort((a, b) => a - b)).toEqual([...to].sort((a, b) => a - b));

      // The administrator's bell lists it with its kind and the sentence, unread, next to the rules' runs.
      const bell = await call(srv.app, admin, 'GET', `/api/notification/userNotification/${admin.usr_cd}`);
      expect(bell.statusCode, bell.body).toBe(200);
      const answer = bell.json<{ rows: Row[]; unread: number }>();
      const item = answer.rows.find((r) => r.usr_ntf_kind === 'security' && r.usr_ntf_ref === stored[0].usr_ntf_ref);
      expect(item).toMatchObject({
        ntf_id: null,
        usr_ntf_is_read: false,
        usr_ntf_cnt: crossed,
        usr_ntf_ttl: `Bulk-read alarm: Teacher ${s.usr_nm} (${s.usr_nm}) read ${crossed} rows in an hour, over the limit of ${BUDGET}. Further bulk reads are blocked until an administrator lifts it.`,
        usr_ntf_rows: { usr_cd: s.usr_cd, usr_nm: s.usr_nm, rows: crossed, budget: BUDGET },
      });
      expect(answer.unread).toBeGreaterThan(0);
      const read = await call(srv.app, admin, 'PUT', `/api/notification/userNotification/${String(item?.usr_ntf_cd)}/read`);
      expect(read.statusCode, read.body).toBe(200);
      expect((await call(srv.app, s, 'GET', `/api/notification/userNotification/${s.usr_cd}`)).json<{ rows: Row[] }>().rows).toEqual([]);

      // The lift leaves them (the history of what happened); crossing again is a new event and a new notification.
      expect((await call(srv.app, admin, 'POST', `/api/read_budget/${s.usr_cd}/lift`)).statusCode).toBe(200);
      expect(await alarmsOf(s.usr_cd)).toHaveLength(stored.length);
      await readUntilRefused(srv.app, s);
      const again = await alarmsOf(s.usr_cd);
      expect(again).toHaveLength(stored.length * 2);
      expect(new Set(again.map((n) => n.usr_ntf_ref)).size).toBe(2);
      expect(again.filter((n) => n.usr_cd === here)).toHaveLength(2);
      const bellAgain = (await call(srv.app, admin, 'GET', `/api/notification/userNotification/${admin.usr_cd}`)).json<{ rows: Row[] }>().rows;
      expect(bellAgain.filter((r) => r.usr_ntf_kind === 'security' && (r.usr_ntf_rows as Row).usr_cd === s.usr_cd)).toHaveLength(2);
    } finally {
      srv.app.realtimeEvents.toUsers = original;
    }
  });

  it('records one event and one notification per administrator when two counters cross together', async () => {
    const s = await reader();
    const ctx = await contextForUser(srv.database.db, s.usr_cd, admin.instCd, 'religion');
    expect(ctx).not.toBeNull();
    if (!ctx) return;
    const religion = entity('religion');
    const [ea, eb] = [recordingEvents(), recordingEvents()];
    // Two app instances' counters on one database: each answer over the budget is written at once (page 2).
    const a = new ReadBudget(srv.database.db, { flushRows: 1, flushMs: 60_000 }, ea);
    const b = new ReadBudget(srv.database.db, { flushRows: 1, flushMs: 60_000 }, eb);
    try {
      await Promise.all([a.count(ctx, religion, BUDGET + 1, 2, 50), b.count(ctx, religion, BUDGET + 1, 2, 50)]);
      expect(await events(s.usr_cd)).toHaveLength(1);
      const stored = await alarmsOf(s.usr_cd);
      const to = stored.map((n) => n.usr_cd);
      expect(to).toContain(admin.usr_cd);
      expect(new Set(to).size).toBe(to.length);
      expect(to).not.toContain(s.usr_cd);
      const told = [...ea.sent, ...eb.sent];
      expect(told).toHaveLength(1);
      expect(told[0].event).toBe('updateNotification');
      expect([...told[0].usrCds].sort((x, y) => x - y)).toEqual([...to].sort((x, y) => x - y));
    } finally {
      await a.close();
      await b.close();
    }
  });
});
