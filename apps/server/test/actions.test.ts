import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, call, login, startTestServer, type Session, type TestServer } from './test-server';
import { staffAccount } from './staff-account';

type Row = Record<string, unknown>;

const API = '/api/examtype/';

/**
 * 'Take action' buttons (spec section 4) on exam type's status: like a toggle, the button alone allows a
 * PUT that changes only the status, and nobody without it sets the status, on create or on update.
 */
describe.each(backends)('take action buttons on %s', (backend) => {
  let srv: TestServer;
  let admin: Session;
  let n = 0;

  beforeAll(async () => {
    srv = await startTestServer(backend);
    admin = { ...(await login(srv.app)), modulename: 'exam', pagename: 'examtype' };
  });
  afterAll(async () => srv?.close());

  /** A signed-in teacher holding only these buttons of the Exam Type page. */
  async function teacher(btns: string): Promise<Session> {
    const { session } = await staffAccount(srv.app, admin, { 'exam/examtype': btns }, false, 'ACT');
    return { ...session, modulename: 'exam', pagename: 'examtype' };
  }

  async function examType(): Promise<Row> {
    const res = await call(srv.app, admin, 'POST', API, { exmtyp_nm: `Unit Test ${n++}`, exmtyp_sts: 'Draft' });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<Row>();
  }

  it('lets take_action change the status without edit, and nothing else', async () => {
    const t = await teacher('view,take_action');
    const row = await examType();
    const moved = await call(srv.app, t, 'PUT', `${API}${row.exmtyp_cd}`, { exmtyp_sts: 'Scheduled', row_ver: row.row_ver });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json<Row>()).toMatchObject({ exmtyp_sts: 'Scheduled', row_ver: 2 });
    const renamed = await call(srv.app, t, 'PUT', `${API}${row.exmtyp_cd}`, { exmtyp_nm: 'Renamed', row_ver: 2 });
    expect(renamed.statusCode).toBe(403);
    // The status with another field is an edit, which this user may not make.
    const mixed = await call(srv.app, t, 'PUT', `${API}${row.exmtyp_cd}`, { exmtyp_sts: 'Completed', exmtyp_dscr: 'held', row_ver: 2 });
    expect(mixed.statusCode).toBe(403);
    const stored = (await call(srv.app, admin, 'GET', `${API}${row.exmtyp_cd}`)).json<Row>();
    expect(stored).toMatchObject({ exmtyp_nm: row.exmtyp_nm, exmtyp_sts: 'Scheduled', exmtyp_dscr: null, row_ver: 2 });
  });

  it('refuses the status to someone without take_action, even with edit (403), and keeps the row', async () => {
    const t = await teacher('view,edit');
    const row = await examType();
    const moved = await call(srv.app, t, 'PUT', `${API}${row.exmtyp_cd}`, { exmtyp_sts: 'Published', row_ver: row.row_ver });
    expect(moved.statusCode).toBe(403);
    const both = await call(srv.app, t, 'PUT', `${API}${row.exmtyp_cd}`, { exmtyp_sts: 'Published', exmtyp_dscr: 'x', row_ver: row.row_ver });
    expect(both.statusCode).toBe(403);
    // Sending the unchanged status along with an edit is no action.
    const edit = await call(srv.app, t, 'PUT', `${API}${row.exmtyp_cd}`, { exmtyp_sts: 'Draft', exmtyp_dscr: 'Term one', row_ver: row.row_ver });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(edit.json<Row>()).toMatchObject({ exmtyp_sts: 'Draft', exmtyp_dscr: 'Term one' });
  });

  it('on create, sets a status other than the default only with take_action', async () => {
    const plain = await teacher('view,create');
    const published = await call(srv.app, plain, 'POST', API, { exmtyp_nm: `Annual ${n++}`, exmtyp_sts: 'Published' });
    expect(published.statusCode).toBe(403);
    const draft = await call(srv.app, plain, 'POST', API, { exmtyp_nm: `Annual ${n++}`, exmtyp_sts: 'Draft' });
    expect(draft.statusCode, draft.body).toBe(201);
    const actor = await teacher('view,create,take_action');
    const scheduled = await call(srv.app, actor, 'POST', API, { exmtyp_nm: `Annual ${n++}`, exmtyp_sts: 'Scheduled' });
    expect(scheduled.statusCode, scheduled.body).toBe(201);
    expect(scheduled.json<Row>().exmtyp_sts).toBe('Scheduled');
  });

  it('still validates the chosen status against the options', async () => {
    const t = await teacher('view,take_action');
    const row = await examType();
    const res = await call(srv.app, t, 'PUT', `${API}${row.exmtyp_cd}`, { exmtyp_sts: 'Cancelled', row_ver: row.row_ver });
    expect(res.statusCode).toBe(400);
  });
});
