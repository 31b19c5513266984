import { code, date, defineEntity, link, money, select, text, type AnyEntity } from '@campus/entities/define';
import type { PageDef } from '@campus/entities/pages';
import { entity } from '@campus/entities/registry';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildPagePermission, PagePermissionContext } from '../app/page-permission-context';
import { signIn } from '../lib/session-store';
import { adminUser } from '../test-support/fixtures';
import { createTestI18n, jsonResponse, renderWithProviders, resetTestState, stubBrowser, stubFetch } from '../test-support/render-app';
import type { EntityRow } from './entity-api';
import { EntityListPage } from './entity-list-page';
import { todayIso } from '../lib/validation';
import { permittedWorkflowButtons, workflowButtonBody, workflowButtonEnabled, workflowButtonUrl, workflowLinkLabels, workflowOpensPath, workflowStartValues } from './workflow-buttons';

// Declared here, not taken from the registry: these tests are about the engine, not about fee bills.
const ticket = defineEntity({
  name: 'ticket',
  api: '/api/desk/Ticket',
  table: 'ticket',
  key: 'tk_cd',
  scope: 'institute',
  label: 'Ticket',
  title: 'tk_no',
  fields: { tk_cd: code(), tk_no: text({ label: 'Ticket No' }), tk_sts: select({ label: 'Status', options: ['Open', 'Closed'], defaultValue: 'Open' }) },
  routes: ['list', 'get'],
  workflowButtons: [
    { button: 'close_ticket', label: 'Close Ticket', path: 'close', reason: { label: 'Why' }, confirm: 'Close ticket {{title}}?', done: 'Ticket {{title}} closed.', enabledWhen: { field: 'tk_sts', equals: 'Open' } },
    { button: 'reopen', label: 'Reopen', path: 'reopen', confirm: 'Reopen ticket {{title}}?', enabledWhen: { field: 'tk_sts', equals: 'Closed' } },
  ],
});
const page: PageDef = { module: 'fee', page: 'ticket', label: 'Tickets', entity: 'ticket', buttons: ['view', 'close_ticket', 'reopen'], menu: false };
const open: EntityRow = { tk_cd: 7, tk_no: 'T-7', tk_sts: 'Open', row_ver: 1 };
const closed: EntityRow = { tk_cd: 8, tk_no: 'T-8', tk_sts: 'Closed', row_ver: 1 };

let shown: string[];
let posts: { url: string; body: Record<string, unknown>; headers: Record<string, string> }[];
let lists: number;

beforeEach(() => {
  ({ shown } = stubBrowser());
  signIn(adminUser);
  posts = [];
  lists = 0;
});
afterEach(resetTestState);

function serve(onPost: () => Response): void {
  stubFetch(async (url, init) => {
    if (init.method === 'POST') {
      posts.push({ url, body: JSON.parse(String(init.body)) as Record<string, unknown>, headers: init.headers as Record<string, string> });
      return onPost();
    }
    lists += 1;
    return jsonResponse({ rows: [open, closed], total: 2 });
  });
}

async function renderPage(buttons: string) {
  const permission = buildPagePermission('fee', 'ticket', { usr_prms_is_alw: 1, usr_prms_btns: buttons }, [], false);
  const result = renderWithProviders(
    <PagePermissionContext.Provider value={permission}>
      <EntityListPage entity={ticket} page={page} searchMode={false} hasFormOverride={false} />
    </PagePermissionContext.Provider>,
    { route: '/sms/fee/ticket/table', i18n: await createTestI18n() },
  );
  const cellOf = (id: number): HTMLElement => {
    const el = result.container.querySelector<HTMLElement>(`.ag-row[row-id="${id}"] .ag-cell[col-id="tk_no"]`);
    if (!el) throw new Error(`no row ${id}`);
    return el;
  };
  // The grid is loaded lazily and draws in animation frames: slow on a busy machine.
  await waitFor(() => expect(cellOf(7).textContent).toBe('T-7'), { timeout: 15_000 });
  return { ...result, cellOf };
}

const button = (id: string) => screen.getByTestId(`btn-${id}`) as HTMLButtonElement;

describe('workflow buttons of the grid toolbar', () => {
  it('render only when the page grants them, and post the key and reason to the route under the API', () => {
    expect(permittedWorkflowButtons(ticket, (b) => b === 'reopen').map((b) => b.button)).toEqual(['reopen']);
    const [close, reopen] = ticket.workflowButtons ?? [];
    expect(workflowButtonUrl(ticket, close)).toBe('/api/desk/Ticket/close');
    expect(workflowButtonBody(ticket, close, { tk_cd: '7' }, '  lost  ')).toEqual({ tk_cd: 7, reason: 'lost' });
    expect(workflowButtonBody(ticket, reopen, { tk_cd: 7 }, 'ignored')).toEqual({ tk_cd: 7 });
    expect(workflowButtonEnabled(close, [open])).toBe(true);
    expect(workflowButtonEnabled(close, [closed])).toBe(false);
    // With none or several selected the click explains what to select.
    expect(workflowButtonEnabled(close, [])).toBe(true);
    expect(workflowButtonEnabled(close, [open, closed])).toBe(true);
    expect(permittedWorkflowButtons(entity('collected_fee'), (b) => b === 'cancel_bill').map((b) => b.path)).toEqual(['cancel']);
  });

  it('asks a reason, confirms, posts, toasts its own sentence and reads the rows again', async () => {
    serve(() => jsonResponse({ ok: true }));
    const { cellOf } = await renderPage('view,close_ticket,reopen');
    fireEvent.click(button('close_ticket'));
    expect(shown).toContain('Please select the Ticket records');

    fireEvent.click(cellOf(8));
    await waitFor(() => expect(button('close_ticket').disabled).toBe(true));
    expect(button('reopen').disabled).toBe(false);
    fireEvent.click(cellOf(8));
    fireEvent.click(cellOf(7));
    await waitFor(() => expect(button('close_ticket').disabled).toBe(false));
    expect(button('reopen').disabled).toBe(true);

    fireEvent.click(button('close_ticket'));
    expect((await screen.findByTestId('workflow-confirm')).textContent).toBe('Close ticket T-7?');
    const ok = screen.getByTestId('workflow-ok') as HTMLButtonElement;
    expect(ok.disabled).toBe(true);
    fireEvent.change(screen.getByTestId('workflow-reason'), { target: { value: '   ' } });
    expect(ok.disabled).toBe(true);
    fireEvent.change(screen.getByTestId('workflow-reason'), { target: { value: 'Paid twice' } });
    const before = lists;
    fireEvent.click(ok);

    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0].url).toBe('/api/desk/Ticket/close');
    expect(posts[0].body).toEqual({ tk_cd: 7, reason: 'Paid twice' });
    await waitFor(() => expect(shown).toContain('Ticket T-7 closed.'));
    expect(shown.some((m) => m.includes('Created Successfully'))).toBe(false);
    await waitFor(() => expect(lists).toBeGreaterThan(before));
    await waitFor(() => expect(screen.queryByTestId('workflow-confirm')).toBeNull());
  });

  it("shows the server's refusal and no success", async () => {
    serve(() => jsonResponse({ message: 'Ticket T-8 is not closed.' }, 409));
    const { cellOf } = await renderPage('reopen,close_ticket');
    expect(screen.queryByTestId('btn-view')).toBeNull();
    fireEvent.click(cellOf(8));
    await waitFor(() => expect(button('close_ticket').disabled).toBe(true));
    fireEvent.click(button('reopen'));
    expect(screen.queryByTestId('workflow-reason')).toBeNull();
    fireEvent.click(await screen.findByTestId('workflow-ok'));
    await waitFor(() => expect(shown).toContain('Ticket T-8 is not closed.'));
    expect(posts[0].body).toEqual({ tk_cd: 8 });
    expect(shown.some((m) => m.includes('active again') || m.includes('done'))).toBe(false);
  });
});

// A purse with the wallet's shape of buttons (inputs, the key in the path, one key per opening) and an
// application that opens the record it makes: engine tests, so declared here rather than taken from the registry.
const purse = defineEntity({
  name: 'purse',
  table: 'purse',
  key: 'pr_cd',
  scope: 'institute',
  label: 'Purse',
  title: 'pr_cd',
  fields: { pr_cd: code(), pr_amt: money({ label: 'Balance', readOnly: true }) },
  routes: ['list', 'get'],
  workflowButtons: [
    {
      button: 'fill',
      label: 'Fill',
      path: 'fill',
      target: 'path',
      confirm: 'Fill purse {{title}}.',
      done: 'Purse {{title}} filled.',
      inputs: { amount: money({ label: 'Amount', required: true, max: 1000 }), note: text({ label: 'Note', required: true, max: 20 }) },
      idempotent: true,
    },
  ],
});
const purseRow: EntityRow = { pr_cd: 7, pr_amt: '10.00', row_ver: 1 };

const application = defineEntity({
  name: 'application',
  table: 'application',
  key: 'ap_cd',
  scope: 'institute',
  label: 'Application',
  title: 'ap_nm',
  fields: {
    ap_cd: code(),
    ap_nm: text({ label: 'Name' }),
    cls_cd: link({ label: 'Class Applied For', to: 'class', display: 'cls_nm', as: 'cls_nm' }),
    ap_sts: select({ label: 'Status', options: ['Applied', 'Admitted', 'Rejected'] }),
  },
  routes: ['list', 'get'],
  workflowButtons: [
    {
      button: 'admit',
      label: 'Admit',
      path: 'admit',
      confirm: 'Admit {{title}}?',
      enabledWhen: { field: 'ap_sts', equals: ['Applied'] },
      inputs: {
        cls_cd: link({ label: 'Class', to: 'class', display: 'cls_nm', as: 'cls_nm', required: true }),
        sec_cd: link({ label: 'Section', to: 'section', display: 'sec_nm', as: 'sec_nm', required: true, within: { cls_cd: 'cls_cd' } }),
        doj: date({ label: 'Date of Joining', defaultValue: 'today' }),
        ap_sts: select({ label: 'Decision', options: ['Admitted', 'Rejected'] }),
      },
      idempotent: true,
      opens: 'student',
    },
  ],
});
const applied: EntityRow = { ap_cd: 3, ap_nm: 'Kavin', cls_cd: 4, cls_nm: 'VI', ap_sts: 'Applied', row_ver: 1 };

describe('workflow buttons with inputs', () => {
  const [fill] = purse.workflowButtons ?? [];
  const [admit] = application.workflowButtons ?? [];
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

  it("post under the row's key, start from the row and the defaults, and open the record they made", () => {
    expect(workflowButtonUrl(purse, fill, purseRow)).toBe('/api/purse/7/fill');
    expect(workflowButtonBody(purse, fill, purseRow, '', { amount: '5', note: 'x' }, 'k-1')).toEqual({ amount: '5', note: 'x', idempotency_key: 'k-1' });
    expect(workflowButtonBody(application, admit, applied, '', { sec_cd: 9 }, 'k-2')).toEqual({ ap_cd: 3, sec_cd: 9, idempotency_key: 'k-2' });
    // The class comes from the row, the date is today's, and 'Applied' is no choice of the decision.
    expect(workflowStartValues(admit, applied)).toEqual({ cls_cd: '4', sec_cd: null, doj: todayIso(), ap_sts: null });
    expect(workflowStartValues(admit, { ...applied, ap_sts: 'Rejected' }).ap_sts).toBe('Rejected');
    expect(workflowLinkLabels(admit, applied)).toEqual({ cls_cd: 'VI' });
    expect(workflowOpensPath(admit, { stud_cd: 55, stud_fs_nm: 'Kavin' })).toBe('/sms/student/profile/view/55');
    expect(workflowOpensPath(admit, { ok: true })).toBeNull();
    expect(workflowOpensPath(fill, { stud_cd: 55 })).toBeNull();
  });

  async function renderList(ent: AnyEntity, pg: PageDef, rows: EntityRow[], onPost: (body: Record<string, unknown>) => Response, options?: (url: string) => unknown) {
    stubFetch(async (url, init) => {
      if (init.method === 'POST') {
        const body = JSON.parse(String(init.body)) as Record<string, unknown>;
        posts.push({ url, body, headers: init.headers as Record<string, string> });
        return onPost(body);
      }
      if (url.includes('/options')) return jsonResponse(options?.(url) ?? []);
      lists += 1;
      return jsonResponse({ rows, total: rows.length });
    });
    const permission = buildPagePermission(pg.module, pg.page, { usr_prms_is_alw: 1, usr_prms_btns: pg.buttons.join(',') }, [], false);
    const route = `/sms/${pg.module}/${pg.page}/table`;
    const result = renderWithProviders(
      <PagePermissionContext.Provider value={permission}>
        <EntityListPage entity={ent} page={pg} searchMode={false} hasFormOverride={false} />
      </PagePermissionContext.Provider>,
      { route, i18n: await createTestI18n(), routes: [{ path: '/sms/student/profile/view/:id', element: <p>student opened</p> }] },
    );
    const id = String(rows[0][ent.key]);
    await waitFor(() => expect(result.container.querySelector(`.ag-row[row-id="${id}"]`)).not.toBeNull(), { timeout: 15_000 });
    fireEvent.click(result.container.querySelector(`.ag-row[row-id="${id}"] .ag-cell`) as HTMLElement);
    await waitFor(() => expect(result.container.querySelector(`.ag-row-selected[row-id="${id}"]`)).not.toBeNull());
    return result;
  }

  const input = (name: string) => document.getElementById(name) as HTMLInputElement;
  // The page learns of the grid's selection a moment after the row shows selected: press until the dialog opens.
  const openDialog = (id: string) =>
    waitFor(() => {
      if (!screen.queryByTestId('workflow-confirm')) fireEvent.click(button(id));
      expect(screen.queryByTestId('workflow-confirm')).not.toBeNull();
    });

  it("check inputs as the form does, keep the server's refusal in the dialog, and keep one key per attempt", async () => {
    const answers = [jsonResponse({ message: 'Purse no. 7 is closed.' }, 409), jsonResponse({ message: 'Database unavailable.' }, 503), jsonResponse({ pr_cd: 7, pr_amt: '60.00' })];
    const pg: PageDef = { module: 'fee', page: 'purse', label: 'Purses', entity: 'purse', buttons: ['view', 'fill'], menu: false };
    await renderList(purse, pg, [purseRow], () => answers.shift() ?? jsonResponse({}, 500));
    await openDialog('fill');
    expect(screen.getByTestId('workflow-confirm').textContent).toBe('Fill purse 7.');
    const ok = screen.getByTestId('workflow-ok');

    fireEvent.click(ok);
    await waitFor(() => expect(shown).toContain("Please fill the 'Amount'."));
    fireEvent.change(input('amount'), { target: { value: '50' } });
    fireEvent.click(ok);
    await waitFor(() => expect(shown).toContain("Please enter the 'Note'."));
    fireEvent.change(input('note'), { target: { value: 'pocket money' } });
    fireEvent.change(input('amount'), { target: { value: '5000' } });
    fireEvent.click(ok);
    expect(await screen.findByText("'Amount' is too large.")).toBeTruthy();
    expect(posts).toHaveLength(0);

    fireEvent.change(input('amount'), { target: { value: '50' } });
    fireEvent.click(ok);
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0].url).toBe('/api/purse/7/fill');
    expect(posts[0].body).toEqual({ amount: '50', note: 'pocket money', idempotency_key: expect.stringMatching(UUID) });
    expect((await screen.findByTestId('workflow-error')).textContent).toBe('Purse no. 7 is closed.');
    // What was typed stays for the next try; a refusal wrote nothing, so that try is a new attempt.
    expect(input('amount').value).toBe('50');
    fireEvent.click(ok);
    await waitFor(() => expect(posts).toHaveLength(2));
    expect(posts[1].body.idempotency_key).not.toBe(posts[0].body.idempotency_key);
    await waitFor(() => expect(screen.getByTestId('workflow-error').textContent).toBe('Database unavailable.'));
    // A failed server may have written: the retry is the same attempt.
    fireEvent.click(ok);
    await waitFor(() => expect(posts).toHaveLength(3));
    expect(posts[2].body.idempotency_key).toBe(posts[1].body.idempotency_key);
    await waitFor(() => expect(shown).toContain('Purse 7 filled.'));
    await waitFor(() => expect(screen.queryByTestId('workflow-confirm')).toBeNull());

    // The next opening is another attempt, with a fresh key and empty inputs.
    await openDialog('fill');
    expect(input('amount').value).toBe('');
  });

  it('narrow a section to the class taken from the row, and open the admitted student', async () => {
    const pg: PageDef = { module: 'student', page: 'application', label: 'Applications', entity: 'application', buttons: ['view', 'admit'], menu: false };
    const optionUrls: string[] = [];
    const { router } = await renderList(application, pg, [applied], () => jsonResponse({ stud_cd: 55, stud_fs_nm: 'Kavin' }), (url) => {
      optionUrls.push(url);
      return url.includes('/api/section/') ? [{ value: 9, label: 'A' }] : [{ value: 4, label: 'VI' }];
    });
    await openDialog('admit');
    expect(input('cls_cd').value).toBe('VI');
    expect(input('doj').value).not.toBe('');
    expect(input('sec_cd').disabled).toBe(false);
    fireEvent.click(screen.getByTestId('workflow-ok'));
    await waitFor(() => expect(shown).toContain("Please select the 'Section'."));

    fireEvent.click(input('sec_cd'));
    await waitFor(() => expect(optionUrls.some((u) => u.includes('/api/section/options'))).toBe(true));
    // The dropdown's option, found also while Mantine's opening transition still hides it in jsdom.
    fireEvent.click(await screen.findByRole('option', { name: 'A', hidden: true }));
    expect(optionUrls.find((u) => u.includes('/api/section/options'))).toContain('f_cls_cd=4');
    fireEvent.click(screen.getByTestId('workflow-ok'));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0].url).toBe('/api/application/admit');
    expect(posts[0].body).toEqual({ ap_cd: 3, cls_cd: 4, sec_cd: 9, doj: todayIso(), ap_sts: null, idempotency_key: expect.stringMatching(UUID) });
    await waitFor(() => expect(router.state.location.pathname).toBe('/sms/student/profile/view/55'));
  });

  it('disable a section until its class is chosen', async () => {
    const pg: PageDef = { module: 'student', page: 'application', label: 'Applications', entity: 'application', buttons: ['view', 'admit'], menu: false };
    await renderList(application, pg, [{ ...applied, cls_cd: null, cls_nm: null }], () => jsonResponse({}));
    await openDialog('admit');
    expect(input('sec_cd').disabled).toBe(true);
    expect(input('sec_cd').placeholder).toBe('Choose the Class first');
  });
});
