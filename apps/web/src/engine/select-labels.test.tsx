import { entity } from '@campus/entities/registry';
import { findPage, type PageDef } from '@campus/entities/pages';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import type { Row, Workbook, Worksheet } from 'exceljs';
import type { i18n } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RouteObject } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildPagePermission, PagePermissionContext } from '../app/page-permission-context';
import { signIn } from '../lib/session-store';
import { adminUser } from '../test-support/fixtures';
import { createTestI18n, jsonResponse, renderWithProviders, resetTestState, stubBrowser, stubFetch } from '../test-support/render-app';
import type { EntityRow, ListParams } from './entity-api';
import { deriveColumns, translateColumns } from './entity-columns';
import { EntityForm } from './entity-form';
import { EntityGrid } from './entity-grid';
import { exportToExcel } from './export-excel';
import { FieldInput } from './field-input';
import type { FormValue } from './form-values';

// The export's workbook is captured instead of written: the test reads the rows it was given.
const added: unknown[][] = [];
vi.mock('./excel-loader', () => ({
  newWorkbook: async () => {
    const sheet = { columns: [], getRow: () => ({}) as Row, addRows: (rows: unknown[][]) => void added.push(...rows) };
    return { addWorksheet: () => sheet as unknown as Worksheet } as unknown as Workbook;
  },
  downloadWorkbook: async () => undefined,
}));

const institute = entity('institute');
const docType = entity('document_type');
const institutePage = findPage('institute', 'profile') as PageDef;
const docTypePage = findPage('master', 'documenttype') as PageDef;

const schoolRow: EntityRow = { inst_cd: 1, inst_nm: 'North', inst_typ: 'school', is_active: true, row_ver: 1 };
const docRow: EntityRow = { doc_typ_cd: 5, doc_typ_nm: 'ID Card', doc_typ_for: 'Student,Institute', doc_typ_dscr: null, row_ver: 1 };

let lang: i18n;
let posted: Record<string, unknown>[] = [];

beforeEach(async () => {
  stubBrowser();
  // Mantine's open dropdown scrolls its selected option into view, which jsdom does not implement.
  if (!('scrollIntoView' in Element.prototype)) {
    Object.defineProperty(Element.prototype, 'scrollIntoView', { configurable: true, value: () => undefined });
  }
  posted = [];
  added.length = 0;
  stubFetch(async (url, init) => {
    if (init.method === 'POST') {
      posted.push(JSON.parse(String(init.body)) as Record<string, unknown>);
      return jsonResponse({ inst_cd: 2 });
    }
    return jsonResponse(url.includes('document_type') ? docRow : schoolRow);
  });
  signIn(adminUser);
  lang = await createTestI18n();
});

afterEach(resetTestState);

const toTamil = async (): Promise<void> => {
  await act(async () => {
    await lang.changeLanguage('tamil');
  });
};

const noop = (): void => undefined;

function Grid({ rows }: { rows: EntityRow[] }) {
  const { t } = useTranslation();
  const e = 'doc_typ_cd' in rows[0] ? docType : institute;
  return (
    <EntityGrid
      entity={e}
      columns={translateColumns(t, e, deriveColumns(e))}
      rows={rows}
      loading={false}
      sort={null}
      onSortChange={noop}
      onSelectionChange={noop}
      savedLayout={null}
      onVisibleColumnsChange={noop}
      userCode={1}
      height="300px"
      paging={{ page: 1, pageCount: 1, total: rows.length, size: 25, onPage: noop, onSize: noop }}
    />
  );
}

// AG Grid draws rows in animation frames, which take a while on a loaded machine.
const slow = { timeout: 10_000 };

const cell = (container: HTMLElement, colId: string): string | null | undefined =>
  container.querySelector(`.ag-row .ag-cell[col-id="${colId}"]`)?.textContent;

describe('select labels in the grid', () => {
  it("shows institute type as 'School', and in Tamil after a language switch", async () => {
    const { container } = renderWithProviders(<Grid rows={[schoolRow]} />, { i18n: lang });
    await waitFor(() => expect(cell(container, 'inst_typ')).toBe('School'), slow);
    expect(cell(container, 'is_active')).toBe('Yes');
    await toTamil();
    await waitFor(() => expect(cell(container, 'inst_typ')).toBe('பள்ளி'), slow);
    expect(cell(container, 'is_active')).toBe('ஆம்');
  });

  it("spaces a multiple select's labels", async () => {
    const { container } = renderWithProviders(<Grid rows={[docRow]} />, { i18n: lang });
    await waitFor(() => expect(cell(container, 'doc_typ_for')).toBe('Student, Institute'), slow);
    await toTamil();
    await waitFor(() => expect(cell(container, 'doc_typ_for')).toBe('மாணவர், நிறுவனம்'), slow);
  });
});

function renderForm(e: typeof institute, page: PageDef, mode: 'view' | 'create', id?: string) {
  const permission = buildPagePermission(page.module, page.page, { usr_prms_btns: 'view,edit,create' }, [], false);
  const path = `/sms/${page.module}/${page.page}/${mode}${id ? `/${id}` : ''}`;
  const routes: RouteObject[] = [{ path: `/sms/${page.module}/${page.page}/table`, element: <div>TABLE PAGE</div> }];
  return renderWithProviders(
    <PagePermissionContext.Provider value={permission}>
      <EntityForm entity={e} page={page} mode={mode} id={id} />
    </PagePermissionContext.Provider>,
    { route: path, routes, i18n: lang },
  );
}

describe('select labels in the view form', () => {
  it("reads 'School', then the Tamil label after a language switch", async () => {
    renderForm(institute, institutePage, 'view', '1');
    expect(await screen.findByText('School')).toBeTruthy();
    expect(screen.queryByText('school')).toBeNull();
    await toTamil();
    expect(await screen.findByText('பள்ளி')).toBeTruthy();
  });

  it("reads a multiple select as 'Student, Institute', then in Tamil", async () => {
    renderForm(docType, docTypePage, 'view', '5');
    expect(await screen.findByText('Student, Institute')).toBeTruthy();
    await toTamil();
    expect(await screen.findByText('மாணவர், நிறுவனம்')).toBeTruthy();
  });
});

describe('select labels in the inputs', () => {
  const typ = institute.fields.inst_typ;

  function Controlled({ onPick }: { onPick: (v: FormValue) => void }) {
    const [value, setValue] = useState<FormValue>('school');
    return (
      <FieldInput
        name="inst_typ"
        field={typ}
        value={value}
        onChange={(v) => {
          setValue(v);
          onPick(v);
        }}
      />
    );
  }

  it('shows the label but hands back the stored option', async () => {
    const onPick = vi.fn();
    renderWithProviders(<Controlled onPick={onPick} />, { i18n: lang });
    const input = document.getElementById('inst_typ') as HTMLInputElement;
    expect(input.value).toBe('School');
    fireEvent.click(input);
    fireEvent.click(await screen.findByRole('option', { name: 'College' }));
    expect(onPick).toHaveBeenCalledWith('college');
    await waitFor(() => expect(input.value).toBe('College'));
    await toTamil();
    await waitFor(() => expect(input.value).toBe('கல்லூரி'));
  });

  it("labels a multiple select's pills", () => {
    renderWithProviders(<FieldInput name="doc_typ_for" field={docType.fields.doc_typ_for} value="Student,Institute" onChange={noop} />, { i18n: lang });
    const pills = Array.from(document.querySelectorAll('.mantine-Pill-root')).map((p) => p.textContent);
    expect(pills).toEqual(['Student', 'Institute']);
  });

  it("sends the stored 'school' to the server while the form shows 'School'", async () => {
    renderForm(institute, institutePage, 'create');
    const input = (await waitFor(() => document.getElementById('inst_typ'))) as HTMLInputElement;
    expect(input.value).toBe('School');
    fireEvent.change(document.getElementById('inst_nm') as HTMLInputElement, { target: { value: 'South' } });
    fireEvent.click(screen.getByTestId('btn-save'));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toMatchObject({ inst_nm: 'South', inst_typ: 'school' });
  });
});

describe('select labels in the Excel export', () => {
  const columns = deriveColumns(institute).filter((c) => c.colId === 'inst_nm' || c.colId === 'inst_typ');
  const params: ListParams = { q: '', sort: undefined, dir: undefined, page: 1, size: 25 };
  const rows: EntityRow[] = [schoolRow, { ...schoolRow, inst_cd: 2, inst_nm: 'South', inst_typ: 'college' }];

  it('writes the labels the grid shows, in the language on screen', async () => {
    await exportToExcel({ entity: institute, columns, selection: rows, params });
    expect(added).toEqual([
      ['North', 'School'],
      ['South', 'College'],
    ]);
    added.length = 0;
    await lang.changeLanguage('tamil');
    await exportToExcel({ entity: institute, columns, selection: rows, params, t: lang.t });
    expect(added).toEqual([
      ['North', 'பள்ளி'],
      ['South', 'கல்லூரி'],
    ]);
  });
});
