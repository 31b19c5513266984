import { code, defineEntity, text } from '@campus/entities/define';
import type { PageDef } from '@campus/entities/pages';
import { entity } from '@campus/entities/registry';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildPagePermission, PagePermissionContext } from '../app/page-permission-context';
import { signIn } from '../lib/session-store';
import { adminUser } from '../test-support/fixtures';
import { createTestI18n, jsonResponse, renderWithProviders, resetTestState, stubBrowser, stubFetch } from '../test-support/render-app';
import { documentUrl, permittedDocuments } from './document-buttons';
import type { EntityRow } from './entity-api';
import { EntityListPage } from './entity-list-page';

// Declared here, not taken from the registry: these tests are about the engine, not about certificates.
const pass = defineEntity({
  name: 'gate_pass',
  api: '/api/desk/Pass',
  table: 'gate_pass',
  key: 'gp_cd',
  scope: 'institute',
  label: 'Gate Pass',
  title: 'gp_no',
  fields: { gp_cd: code(), gp_no: text({ label: 'Pass No' }) },
  routes: ['list', 'get'],
  documents: [{ button: 'print_pass', label: 'Print Pass', path: 'pdf' }],
});
const page: PageDef = { module: 'student', page: 'gate_pass', label: 'Gate Passes', entity: 'gate_pass', buttons: ['view', 'print_pass'], menu: false };
const rowsShown: EntityRow[] = [
  { gp_cd: 7, gp_no: 'G-7', row_ver: 1 },
  { gp_cd: 8, gp_no: 'G-8', row_ver: 1 },
];

let shown: string[];
let pdfGets: string[];
let refuse: boolean;

beforeEach(() => {
  ({ shown } = stubBrowser());
  signIn(adminUser);
  pdfGets = [];
  refuse = false;
  // jsdom has no blob: URLs; the frame only needs one to point at.
  URL.createObjectURL = vi.fn(() => 'blob:campus-test');
  URL.revokeObjectURL = vi.fn();
  stubFetch(async (url) => {
    if (url.includes('/pdf')) {
      pdfGets.push(url);
      if (refuse) return jsonResponse({ message: 'You are not allowed to print this pass.' }, 403);
      // The bytes do not matter here: the frame is handed whatever the server sent, as a blob: URL.
      return jsonResponse({ pdf: true });
    }
    return jsonResponse({ rows: rowsShown, total: 2 });
  });
});
afterEach(() => {
  document.getElementById('campus-print-frame')?.remove();
  resetTestState();
});

async function renderPage(buttons: string) {
  const permission = buildPagePermission('student', 'gate_pass', { usr_prms_is_alw: 1, usr_prms_btns: buttons }, [], false);
  const result = renderWithProviders(
    <PagePermissionContext.Provider value={permission}>
      <EntityListPage entity={pass} page={page} searchMode={false} hasFormOverride={false} />
    </PagePermissionContext.Provider>,
    { route: '/sms/student/gate_pass/table', i18n: await createTestI18n() },
  );
  const cellOf = (id: number): HTMLElement => {
    const el = result.container.querySelector<HTMLElement>(`.ag-row[row-id="${id}"] .ag-cell[col-id="gp_no"]`);
    if (!el) throw new Error(`no row ${id}`);
    return el;
  };
  // The grid is loaded lazily and draws in animation frames: slow on a busy machine.
  await waitFor(() => expect(cellOf(7).textContent).toBe('G-7'), { timeout: 15_000 });
  return { ...result, cellOf };
}

describe('document buttons of the grid toolbar', () => {
  it("are the page's own buttons, and print the row's PDF under the row's URL", () => {
    expect(permittedDocuments(pass, (b) => b === 'view')).toEqual([]);
    expect(permittedDocuments(pass, (b) => b === 'print_pass').map((d) => d.path)).toEqual(['pdf']);
    const [print] = pass.documents ?? [];
    expect(documentUrl(pass, print, { gp_cd: 12 })).toBe('/api/desk/Pass/12/pdf');
    const [certificate] = entity('certificate').documents ?? [];
    expect(documentUrl(entity('certificate'), certificate, { cert_fct_cd: 3 })).toBe('/api/certificate/3/pdf');
  });

  it('render only with their button', async () => {
    await renderPage('view');
    expect(screen.getByTestId('btn-view')).toBeTruthy();
    expect(screen.queryByTestId('btn-print_pass')).toBeNull();
  });

  it('ask for a row when none is selected, and fetch nothing', async () => {
    await renderPage('view,print_pass');
    fireEvent.click(screen.getByTestId('btn-print_pass'));
    expect(shown).toContain('Please select the Gate Pass records');
    await new Promise((r) => setTimeout(r, 50));
    expect(pdfGets).toEqual([]);
  });

  it('print the selected row from a hidden frame, never the app page', async () => {
    const { cellOf } = await renderPage('view,print_pass');
    const print = screen.getByTestId('btn-print_pass');
    expect(print.textContent).toBe('Print Pass');
    const printSpy = vi.spyOn(window, 'print').mockImplementation(() => undefined);

    fireEvent.click(cellOf(8));
    await waitFor(() => expect(cellOf(8).closest('.ag-row')?.classList.contains('ag-row-selected')).toBe(true), { timeout: 5000 });
    // The list may still be settling (its first reads can reset the selection the toolbar sees): click again
    // as a person would after 'Please select...', until one print starts; while it runs, clicks are ignored.
    await waitFor(() => {
      if (pdfGets.length === 0) {
        if (!cellOf(8).closest('.ag-row')?.classList.contains('ag-row-selected')) fireEvent.click(cellOf(8));
        fireEvent.click(print);
      }
      expect(pdfGets).toHaveLength(1);
    }, { timeout: 5000 });
    expect(pdfGets[0]).toMatch(/^\/api\/desk\/Pass\/8\/pdf\?lang=english$/);
    const frame = await waitFor(() => {
      const f = document.getElementById('campus-print-frame') as HTMLIFrameElement | null;
      expect(f).not.toBeNull();
      return f as HTMLIFrameElement;
    }, { timeout: 5000 });
    expect(frame.src).toBe('blob:campus-test');
    // The app's own window is never what goes to the printer.
    expect(printSpy).not.toHaveBeenCalled();
  });

  it("shows the server's refusal and prints nothing", async () => {
    refuse = true;
    const { cellOf } = await renderPage('print_pass');
    fireEvent.click(cellOf(8));
    await waitFor(() => expect(cellOf(8).closest('.ag-row')?.classList.contains('ag-row-selected')).toBe(true), { timeout: 5000 });
    await waitFor(() => {
      if (pdfGets.length === 0) fireEvent.click(screen.getByTestId('btn-print_pass'));
      expect(pdfGets).toHaveLength(1);
    }, { timeout: 5000 });
    await waitFor(() => expect(shown).toContain('You are not allowed to print this pass.'), { timeout: 5000 });
    expect(document.getElementById('campus-print-frame')).toBeNull();
  });
});
