import { code, defineEntity, select, text } from '@campus/entities/define';
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
import { permittedWorkflowButtons, workflowButtonBody, workflowButtonEnabled, workflowButtonUrl } from './workflow-buttons';

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
