import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows, sql } from '../src/db/client';
import { backends, call, login, startTestServer, type Session, type TestServer } from './test-server';

/*
 * Issue 12's dashboard on the demo school: widgets run their entity's list query with the VIEWER's scope, so
 * the demo TEACHER (the Student page with 'his students only') sees his own students' numbers, not the
 * school's, and no fee takings; a widget row naming an unknown entity or field is refused (400). The quick
 * menu is each user's own: another user's shortcuts are neither listed nor editable.
 */

interface Point {
  key: string;
  label: string;
  value: number;
  amount?: string;
}
interface Widget {
  wdgt_cd: number;
  wdgt_nm: string;
  kind: string;
  entity: string;
  money: boolean;
  value?: number | string;
  points?: Point[];
  rows?: { title: string; date: string | null }[];
  empty: boolean;
  error?: string;
}
interface Shortcut {
  qm_cd: number;
  qm_pg_nm: string;
  qm_pg_pth: string;
  qm_ord: number;
  row_ver: number;
}

const sumOf = (ps: Point[] | undefined): number => (ps ?? []).reduce((a, p) => a + p.value, 0);

describe.each(backends)('dashboard widgets and quick menu, on %s', (backend) => {
  let srv: TestServer;
  let admin: Session;
  let teacher: Session;

  const widgets = async (s: Session): Promise<Widget[]> => {
    const res = await call(srv.app, s, 'GET', '/api/widget/data/');
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ widgets: Widget[] }>().widgets;
  };
  const named = (list: Widget[], name: string): Widget => {
    const w = list.find((x) => x.wdgt_nm === name);
    if (!w) throw new Error(`no widget ${name} in ${list.map((x) => x.wdgt_nm).join(', ')}`);
    return w;
  };
  const studentTotal = async (s: Session): Promise<number> => {
    const res = await call(srv.app, { ...s, pagename: 'profile', modulename: 'student' }, 'GET', '/api/student/?size=1');
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ total: number }>().total;
  };
  const shortcuts = async (s: Session): Promise<Shortcut[]> => {
    const res = await call(srv.app, s, 'GET', '/api/quick_menu/?size=100');
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ rows: Shortcut[] }>().rows;
  };
  const asWidgetPage = (s: Session): Session => ({ ...s, modulename: 'features', pagename: 'widget' });

  beforeAll(async () => {
    srv = await startTestServer(backend, {}, { demo: true });
    admin = await login(srv.app);
    const account = srv.demo?.accounts.find((a) => a.login === 'TEACHER');
    if (!account) throw new Error('the demo has no TEACHER');
    teacher = await login(srv.app, account.login, account.password);
  }, 300_000);
  afterAll(async () => srv?.close());

  it("ADMIN sees the school's widgets: students by class add up to the roll, 30 days of fee takings, upcoming lists", async () => {
    const started = performance.now();
    const list = await widgets(admin);
    const ms = performance.now() - started;
    console.log(`[dashboard-widgets ${backend}] GET /api/widget/data/ for ADMIN: ${list.length} widgets in ${ms.toFixed(0)} ms`);
    expect(list.filter((w) => w.error)).toEqual([]);
    const byClass = named(list, 'Students by Class');
    expect(byClass.kind).toBe('bar');
    expect(byClass.points?.length).toBeGreaterThan(1);
    expect(sumOf(byClass.points)).toBe(await studentTotal(admin));

    // Classes in their own order (cls_odr: LKG, UKG, I ...), not by size or by code.
    const classes = await rows<{ cls_nm: string }>(
      srv.database.db,
      sql`SELECT cls_nm FROM class WHERE cls_cd IN (${sql.join(byClass.points!.map((p) => sql`${Number(p.key)}`), sql`, `)}) ORDER BY cls_odr, cls_nm`,
    );
    expect(byClass.points!.map((p) => p.label)).toEqual(classes.map((c) => c.cls_nm));
    // A section is named with its class ('VI - A'): 'A' alone says nothing among twelve classes.
    const bySection = named(list, "Today's Attendance by Section");
    for (const p of bySection.points ?? []) expect(p.label).toMatch(/^\S.* - \S+$/);

    const fees = named(list, 'Fees Collected per Day');
    expect(fees.kind).toBe('line');
    expect(fees.money).toBe(true);
    expect(fees.points).toHaveLength(30);
    // Exact decimal text per day equals the bills of that day, cancelled ones left out.
    const last = fees.points![29];
    const [day] = await rows<{ amt: string }>(
      srv.database.db,
      sql`SELECT coalesce(sum(fee_coll_amt), 0)::numeric(14, 2)::text AS amt FROM fee_collection_bill
          WHERE inst_cd = ${admin.instCd} AND fee_coll_crt_dt = ${last.key} AND fee_coll_sts = 'Active'
            AND acdm_cd = (SELECT acdm_cd FROM academic WHERE inst_cd = ${admin.instCd} AND acdm_sts ORDER BY acdm_strt_yr DESC LIMIT 1)`,
    );
    expect(Number(last.amount)).toBe(Number(day.amt));

    const defaulters = named(list, 'Fee Defaulters');
    expect(typeof defaulters.value).toBe('number');
    const holidays = named(list, 'Upcoming Holidays');
    expect(holidays.kind).toBe('list');
    for (const r of holidays.rows ?? []) expect(r.date! >= fees.points![29].key).toBe(true);
    expect(list.map((w) => w.wdgt_nm)).toEqual(expect.arrayContaining(["Today's Attendance by Section", 'Books Overdue', 'Upcoming Exams']));
    // 'Open' lists the rows behind a number: the page's list with the widget's conditions as its rule filter.
    const overdue = named(list, 'Books Overdue') as Widget & { rule?: unknown; page: string };
    expect(overdue.page).toBe('sms/library/book_checkinout_summary');
    const behind = await call(srv.app, { ...admin, modulename: 'library', pagename: 'book_checkinout_summary' }, 'GET', `/api/bookcheckinoutsummary/?size=1&rule=${encodeURIComponent(JSON.stringify(overdue.rule))}`);
    expect(behind.statusCode, behind.body).toBe(200);
    expect(behind.json<{ total: number }>().total).toBe(overdue.value);
    expect(overdue.value).toBeGreaterThan(0);
  });

  it("TEACHER under 'his students only' sees his own students' numbers, and no fee takings", async () => {
    const mine = await widgets(teacher);
    const all = await widgets(admin);
    // Only the Student page is his: widgets over other entities are not his at all.
    expect(new Set(mine.map((w) => w.entity))).toEqual(new Set(['student']));
    const his = named(mine, 'Students by Class');
    const school = named(all, 'Students by Class');
    const total = sumOf(his.points);
    expect(total).toBe(await studentTotal(teacher));
    expect(total).toBeGreaterThan(0);
    expect(total).toBeLessThan(sumOf(school.points));
    // His sections' students, counted from the stored rows (not by the engine): class by class.
    const counted = await rows<{ cls_cd: number; n: number }>(
      srv.database.db,
      sql`SELECT s.cls_cd, count(*)::int AS n FROM student s
          WHERE s.inst_cd = ${teacher.instCd}
            AND s.acdm_cd = (SELECT acdm_cd FROM academic WHERE inst_cd = ${teacher.instCd} AND acdm_sts ORDER BY acdm_strt_yr DESC LIMIT 1)
            AND EXISTS (SELECT 1 FROM subject_detail m WHERE m.usr_cd = ${teacher.usr_cd} AND m.sec_cd = s.sec_cd AND m.acdm_cd = s.acdm_cd)
          GROUP BY s.cls_cd ORDER BY s.cls_cd`,
    );
    expect(his.points?.map((p) => [Number(p.key), p.value]).sort((a, b) => a[0] - b[0])).toEqual(counted.map((c) => [c.cls_cd, c.n]));
    // The Students card says the same number as his chart; ADMIN's is the school's.
    const card = async (s: Session) => (await call(srv.app, s, 'GET', '/api/dashboard/')).json<{ students: number }>().students;
    expect(await card(teacher)).toBe(total);
    expect(await card(admin)).toBe(sumOf(school.points));
    expect(mine.find((w) => w.entity === 'collected_fee')).toBeUndefined();
    expect(mine.find((w) => w.wdgt_nm === 'Fee Defaulters')).toBeUndefined();
  });

  it('refuses a widget naming an unknown entity or field (400), and draws a valid one', async () => {
    const post = (body: Record<string, unknown>) => call(srv.app, asWidgetPage(admin), 'POST', '/api/widget/', { wdgt_mode: 'All Users', ...body });
    const unknownEntity = await post({ wdgt_nm: 'Broken 1', wdgt_typ: 'Count', wdgt_ent: 'no_such_thing' });
    expect(unknownEntity.statusCode, unknownEntity.body).toBe(400);
    expect(unknownEntity.json<{ message: string }>().message).toBe("'no_such_thing' is not an entity a widget can read.");
    const unknownField = await post({ wdgt_nm: 'Broken 2', wdgt_typ: 'Chart', wdgt_sub_typ: 'Bar', wdgt_ent: 'student', wdgt_grp: 'no_field' });
    expect(unknownField.statusCode).toBe(400);
    expect(unknownField.json<{ message: string }>().message).toBe("'no_field' is not a field of Student.");
    const textSum = await post({ wdgt_nm: 'Broken 3', wdgt_typ: 'Sum', wdgt_ent: 'student', wdgt_msr: 'stud_fs_nm' });
    expect(textSum.statusCode).toBe(400);
    const badFilter = await post({ wdgt_nm: 'Broken 4', wdgt_typ: 'Count', wdgt_ent: 'collected_fee', wdgt_whr: { fee_coll_sts: 'Lost' } });
    expect(badFilter.statusCode).toBe(400);
    const lineWithoutWindow = await post({ wdgt_nm: 'Broken 5', wdgt_typ: 'Chart', wdgt_sub_typ: 'Line', wdgt_ent: 'collected_fee', wdgt_dt_fld: 'fee_coll_crt_dt' });
    expect(lineWithoutWindow.statusCode).toBe(400);
    const [{ n }] = await rows<{ n: number }>(srv.database.db, sql`SELECT count(*)::int AS n FROM widget WHERE wdgt_nm LIKE 'Broken %'`);
    expect(n).toBe(0);

    const ok = await post({ wdgt_nm: 'Girls on Roll', wdgt_typ: 'Count', wdgt_ent: 'student', wdgt_whr: { stud_gnd: 'Female' }, wdgt_ord: 50 });
    expect(ok.statusCode, ok.body).toBe(201);
    const girls = named(await widgets(admin), 'Girls on Roll');
    const [{ f }] = await rows<{ f: number }>(
      srv.database.db,
      sql`SELECT count(*)::int AS f FROM student WHERE inst_cd = ${admin.instCd} AND stud_gnd = 'Female'
            AND acdm_cd = (SELECT acdm_cd FROM academic WHERE inst_cd = ${admin.instCd} AND acdm_sts ORDER BY acdm_strt_yr DESC LIMIT 1)`,
    );
    expect(girls.value).toBe(f);
    // An update that breaks it is refused as well, and the stored row stays readable.
    const cd = ok.json<{ wdgt_cd: number; row_ver: number }>();
    const broken = await call(srv.app, asWidgetPage(admin), 'PUT', `/api/widget/${cd.wdgt_cd}`, { wdgt_grp: 'cls_cd', row_ver: cd.row_ver });
    expect(broken.statusCode).toBe(400);
    // Admins Only widgets are not shown to others.
    await rows(srv.database.db, sql`UPDATE widget SET wdgt_mode = 'Admins Only' WHERE wdgt_cd = ${cd.wdgt_cd}`);
    expect((await widgets(teacher)).find((w) => w.wdgt_nm === 'Girls on Roll')).toBeUndefined();
    expect(named(await widgets(admin), 'Girls on Roll').value).toBe(f);
  });

  it("a widget whose stored definition no longer fits reports its own error; the others still answer", async () => {
    await rows(
      srv.database.db,
      sql`INSERT INTO widget (wdgt_nm, wdgt_typ, wdgt_mode, wdgt_ent, inst_cd, wdgt_ord) VALUES ('Stale One', 'Count', 'All Users', 'gone_entity', ${admin.instCd}, 0)`,
    );
    const list = await widgets(admin);
    expect(named(list, 'Stale One').error).toBe("'gone_entity' is not an entity a widget can read.");
    expect(named(list, 'Students by Class').error).toBeUndefined();
    await rows(srv.database.db, sql`DELETE FROM widget WHERE wdgt_nm = 'Stale One'`);
  });

  it("keeps each user's quick menu their own: another user's shortcuts are neither listed nor editable", async () => {
    const adminList = await shortcuts(admin);
    expect(adminList.map((s) => s.qm_pg_pth)).toContain('sms/fee/quick_fee_collection');
    expect(await shortcuts(teacher)).toEqual([]);

    // The teacher adds the page he is on (a mode in the path is dropped), once.
    const add = await call(srv.app, teacher, 'POST', '/api/quick_menu/', { qm_pg_nm: 'My Students', qm_pg_pth: '/sms/student/profile/table' });
    expect(add.statusCode, add.body).toBe(201);
    const again = await call(srv.app, teacher, 'POST', '/api/quick_menu/', { qm_pg_nm: 'Students again', qm_pg_pth: 'sms/student/profile' });
    expect(again.statusCode).toBe(409);
    // Not a page he may open, and not a page at all.
    expect((await call(srv.app, teacher, 'POST', '/api/quick_menu/', { qm_pg_nm: 'Fees', qm_pg_pth: 'sms/fee/fee_type' })).statusCode).toBe(400);
    expect((await call(srv.app, teacher, 'POST', '/api/quick_menu/', { qm_pg_nm: 'Nowhere', qm_pg_pth: 'sms/nothing/here' })).statusCode).toBe(400);
    // The dashboard is open to everyone. The Quick Menu page's form sends the order and an empty icon too.
    const home = await call(srv.app, teacher, 'POST', '/api/quick_menu/', { qm_pg_nm: 'Home', qm_pg_pth: 'sms/dashboard', qm_pg_icn: null, qm_ord: 5 });
    expect(home.statusCode, home.body).toBe(201);
    expect(home.json<{ qm_pg_icn: string; qm_ord: number }>()).toMatchObject({ qm_pg_icn: 'layout-dashboard', qm_ord: 5 });
    expect((await call(srv.app, teacher, 'POST', '/api/quick_menu/', { qm_pg_nm: 'X', qm_pg_pth: 'sms/dashboard', usr_cd: admin.usr_cd })).statusCode).toBe(400);

    const mine = await shortcuts(teacher);
    expect(mine.map((s) => s.qm_pg_pth)).toEqual(['sms/student/profile', 'sms/dashboard']);
    // The admin's list is unchanged; a forged usr_cd filter does not reach another user's rows.
    expect((await shortcuts(admin)).map((s) => s.qm_cd)).toEqual(adminList.map((s) => s.qm_cd));
    const forged = await call(srv.app, teacher, 'GET', `/api/quick_menu/?f_usr_cd=${admin.usr_cd}`);
    expect(forged.json<{ rows: Shortcut[] }>().rows.map((s) => s.qm_cd).sort()).toEqual(mine.map((s) => s.qm_cd).sort());

    const adminRow = adminList[0];
    const peek = await call(srv.app, teacher, 'GET', `/api/quick_menu/${adminRow.qm_cd}`);
    expect(peek.statusCode, peek.body).toBe(404);
    const steal = await call(srv.app, teacher, 'PUT', '/api/quick_menu/mine', { order: [mine[1].qm_cd, adminRow.qm_cd] });
    expect(steal.statusCode).toBe(404);
    expect((await shortcuts(teacher)).map((s) => s.qm_pg_pth)).toEqual(['sms/student/profile', 'sms/dashboard']);
    expect((await shortcuts(admin)).length).toBe(adminList.length);

    // ADMIN holds the Quick Menu page; its generic edit and delete still reach only his own rows.
    const asPage = { ...admin, modulename: 'features', pagename: 'quick_menu' };
    const edit = await call(srv.app, asPage, 'PUT', `/api/quick_menu/${mine[0].qm_cd}`, { qm_pg_nm: 'Taken', row_ver: mine[0].row_ver });
    expect(edit.statusCode).toBe(404);
    const del = await call(srv.app, asPage, 'DELETE', '/api/quick_menu/', { primids: [mine[0].qm_cd] });
    expect(del.statusCode).toBe(404);
    expect((await shortcuts(teacher)).map((s) => s.qm_pg_nm)).toEqual(['My Students', 'Home']);

    // Reorder and remove in one save: his own list only.
    const saved = await call(srv.app, teacher, 'PUT', '/api/quick_menu/mine', { order: [mine[1].qm_cd] });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await shortcuts(teacher)).map((s) => s.qm_pg_pth)).toEqual(['sms/dashboard']);
  });

  it('does not list a shortcut to a page the user can no longer open', async () => {
    const add = await call(srv.app, teacher, 'POST', '/api/quick_menu/', { qm_pg_nm: 'My Students', qm_pg_pth: 'sms/student/profile' });
    expect(add.statusCode, add.body).toBe(201);
    await rows(srv.database.db, sql`UPDATE user_permission SET usr_prms_is_alw = false WHERE usr_prms_usr_cd = ${teacher.usr_cd} AND usr_prms_page = 'profile'`);
    expect((await shortcuts(teacher)).map((s) => s.qm_pg_pth)).toEqual(['sms/dashboard']);
    await rows(srv.database.db, sql`UPDATE user_permission SET usr_prms_is_alw = true WHERE usr_prms_usr_cd = ${teacher.usr_cd} AND usr_prms_page = 'profile'`);
    expect((await shortcuts(teacher)).map((s) => s.qm_pg_pth)).toEqual(['sms/dashboard', 'sms/student/profile']);
  });
});
