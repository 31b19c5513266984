import { code, defineEntity, money, text } from '@campus/entities/define';
import type { PageDef } from '@campus/entities/pages';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildPagePermission, PagePermissionContext } from '../app/page-permission-context';
import { signIn } from '../lib/session-store';
import { adminUser } from '../test-support/fixtures';
import { createTestI18n, jsonResponse, renderWithProviders, resetTestState, stubBrowser, stubFetch, type FetchHandler } from '../test-support/render-app';
import type { EntityRow } from './entity-api';
import { EntityListPage } from './entity-list-page';

// Declared here, not taken from the registry: these tests are about the engine, not about fee mapping.
const tuition = defineEntity({
  name: 'tuition',
  table: 'tuition',
  key: 'tu_cd',
  scope: 'institute',
  label: 'Tuition',
  title: 'tu_nm',
  fields: { tu_cd: code(), tu_nm: text({ label: 'Name' }), tu_amt: money({ label: 'Amount', required: true }) },
  inlineEdit: ['tu_amt'],
});
const page: PageDef = { module: 'fee', page: 'tuition', label: 'Tuition', entity: 'tuition', buttons: ['create', 'edit', 'view'], menu: false };
const stored: EntityRow = { tu_cd: 7, tu_nm: 'Term 1', tu_amt: '1200.00', row_ver: 3 };

let shown: string[];
let gets: number;
let puts: { url: string; body: Record<string, unknown> }[];

beforeEach(() => {
  ({ shown } = stubBrowser());
  signIn(adminUser);
  gets = 0;
  puts = [];
});

afterEach(resetTestState);

/** Lists `stored`; a PUT is recorded and answered by `onPut`. */
function serve(onPut: (body: Record<string, unknown>) => Response): void {
  const handler: FetchHandler = async (url, init) => {
    if (init.method === 'PUT') {
      const body = JSON.parse(String(init.body)) as Record<string, unknown>;
      puts.push({ url, body });
      return onPut(body);
    }
    gets += 1;
    return jsonResponse({ rows: [stored], total: 1 });
  };
  stubFetch(handler);
}

async function renderPage(buttons: string) {
  const permission = buildPagePermission('fee', 'tuition', { usr_prms_is_alw: 1, usr_prms_btns: buttons }, [], false);
  const lang = await createTestI18n();
  const path = '/sms/fee/tuition/table';
  const result = renderWithProviders(
    <PagePermissionContext.Provider value={permission}>
      <EntityListPage entity={tuition} page={page} searchMode={false} hasFormOverride={false} />
    </PagePermissionContext.Provider>,
    { route: path, routes: [{ path: '/sms/fee/tuition/view/:id', element: <div>VIEW PAGE</div> }], i18n: lang },
  );
  const cell = (): HTMLElement => {
    const el = result.container.querySelector<HTMLElement>('.ag-row .ag-cell[col-id="tu_amt"]');
    if (!el) throw new Error('no amount cell');
    return el;
  };
  // The grid is loaded lazily and draws in animation frames: slow on a busy machine.
  await waitFor(() => expect(cell().textContent).toBe('1,200.00'), { timeout: 15_000 });
  return { ...result, cell };
}

/** Starts the in-place edit as a user does, by double-clicking the cell. */
async function edit(cell: HTMLElement): Promise<HTMLInputElement> {
  // The grid starts editing on a dblclick whose detail says two clicks, as a browser's does.
  fireEvent.doubleClick(cell, { detail: 2 });
  return (await screen.findByTestId('inline-amount-editor')) as HTMLInputElement;
}

function commit(input: HTMLInputElement, value: string): void {
  fireEvent.change(input, { target: { value } });
  fireEvent.keyDown(input, { key: 'Enter', code: 'Enter' });
}

describe('inline amount edit', () => {
  it("saves '1500' as the string '1500.00' with row_ver and shows the server's answer", async () => {
    serve((body) => jsonResponse({ ...stored, tu_amt: body.tu_amt, row_ver: 4 }));
    const { cell } = await renderPage('edit,view');
    commit(await edit(cell()), '1500');

    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0].url).toBe('/api/tuition/7');
    expect(puts[0].body).toEqual({ tu_amt: '1500.00', row_ver: 3 });
    await waitFor(() => expect(cell().textContent).toBe('1,500.00'));
    expect(shown).toContain('TUITION Updated Successfully.');
    // Double clicking the amount edited it; it did not open the row.
    expect(screen.queryByText('VIEW PAGE')).toBeNull();

    // The next edit carries the row_ver of the answer, not the one first listed.
    commit(await edit(cell()), '1600.5');
    await waitFor(() => expect(puts).toHaveLength(2));
    expect(puts[1].body).toEqual({ tu_amt: '1600.50', row_ver: 4 });
    await waitFor(() => expect(cell().textContent).toBe('1,600.50'));
  });

  it('ignores a non-numeric entry: the old value stays, nothing is sent, the user is told', async () => {
    serve(() => jsonResponse(stored));
    const { cell } = await renderPage('edit');
    commit(await edit(cell()), 'abc');

    await waitFor(() => expect(shown).toContain("'Amount' must be an amount with at most 2 decimals."));
    await waitFor(() => expect(screen.queryByTestId('inline-amount-editor')).toBeNull());
    expect(cell().textContent).toBe('1,200.00');
    expect(puts).toHaveLength(0);
  });

  it("cannot be given a '-': the keystroke is refused, digits are taken", async () => {
    serve(() => jsonResponse(stored));
    const { cell } = await renderPage('edit');
    const input = await edit(cell());
    fireEvent.change(input, { target: { value: '' } });
    // fireEvent returns false when the handler prevented the key's default (typing it).
    expect(fireEvent.keyDown(input, { key: '-' })).toBe(false);
    expect(fireEvent.keyDown(input, { key: '5' })).toBe(true);
    expect(fireEvent.keyDown(input, { key: 'e' })).toBe(false);
    fireEvent.change(input, { target: { value: '5' } });
    expect(fireEvent.keyDown(input, { key: '.' })).toBe(true);
    fireEvent.keyDown(input, { key: 'Escape', code: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('inline-amount-editor')).toBeNull());
    expect(cell().textContent).toBe('1,200.00');
    expect(puts).toHaveLength(0);
  });

  it('reloads the list when the row was changed meanwhile (409) and says so', async () => {
    serve(() => jsonResponse({ statusCode: 409, error: 'Conflict', message: 'This record was changed by someone else meanwhile. Reload it and try again.' }, 409));
    const { cell } = await renderPage('edit');
    expect(gets).toBe(1);
    commit(await edit(cell()), '1500');

    await waitFor(() => expect(gets).toBe(2));
    expect(shown).toContain('This record was changed by someone else meanwhile. Reload it and try again.');
    await waitFor(() => expect(cell().textContent).toBe('1,200.00'));
  });

  it('restores the old value when the server refuses otherwise', async () => {
    serve(() => jsonResponse({ statusCode: 400, error: 'Bad Request', message: "'Amount' is too large." }, 400));
    const { cell } = await renderPage('edit');
    commit(await edit(cell()), '1500');

    await waitFor(() => expect(shown).toContain("'Amount' is too large."));
    await waitFor(() => expect(cell().textContent).toBe('1,200.00'));
    expect(gets).toBe(1);
  });

  it("is not editable without the page's edit button", async () => {
    serve(() => jsonResponse(stored));
    const { cell } = await renderPage('create');
    fireEvent.doubleClick(cell(), { detail: 2 });
    fireEvent.keyDown(cell(), { key: 'Enter', code: 'Enter' });
    // Give the grid the frames in which an editor would appear.
    await new Promise((r) => setTimeout(r, 300));
    expect(screen.queryByTestId('inline-amount-editor')).toBeNull();
    expect(cell().classList.contains('ag-cell-inline-editing')).toBe(false);
  });
});
