import { code, select, text, type AnyEntity } from '@campus/entities/define';
import { entity } from '@campus/entities/registry';
import { findPage, type PageDef } from '@campus/entities/pages';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { i18n } from 'i18next';
import type { ReactNode } from 'react';
import type { RouteObject } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildPagePermission, PagePermissionContext } from '../app/page-permission-context';
import { signIn } from '../lib/session-store';
import { clerkUser } from '../test-support/fixtures';
import { createTestI18n, jsonResponse, renderWithProviders, resetTestState, stubBrowser, stubFetch } from '../test-support/render-app';
import { EntityForm, firstMissingEditable } from './entity-form';
import { FieldInput } from './field-input';
import { formFields, type FormField } from './form-values';

const docType = entity('document_type');
const page = findPage('master', 'documenttype') as PageDef;
const base = '/sms/master/documenttype';

let lang: i18n;
let shown: string[] = [];

beforeEach(async () => {
  ({ shown } = stubBrowser());
  stubFetch(async () => jsonResponse({ doc_typ_cd: 5, doc_typ_nm: 'ID Card', doc_typ_for: 'Student,Institute', doc_typ_dscr: null, row_ver: 1 }));
  signIn(clerkUser);
  lang = await createTestI18n();
});

afterEach(resetTestState);

function renderInput(input: ReactNode) {
  renderWithProviders(input, { i18n: lang });
}

function renderForm(mode: 'view' | 'create' | 'update', buttons: string[], initial: string) {
  const permission = buildPagePermission('master', 'documenttype', { usr_prms_btns: buttons.join(',') }, [], false);
  const form = (m: typeof mode) => (
    <PagePermissionContext.Provider value={permission}>
      <EntityForm entity={docType} page={page} mode={m} id={m === 'create' ? undefined : '5'} />
    </PagePermissionContext.Provider>
  );
  const routes: RouteObject[] = [
    { path: `${base}/view/5`, element: form('view') },
    { path: `${base}/create`, element: mode === 'create' ? form('create') : <div>CREATE PAGE</div> },
    { path: `${base}/update/5`, element: mode === 'update' ? form('update') : <div>UPDATE PAGE</div> },
    { path: `${base}/table`, element: <div>TABLE PAGE</div> },
  ];
  // The form starts on the route of its own mode; the others are where its buttons and shortcuts lead.
  return renderWithProviders(form(mode), { route: initial, routes: routes.filter((r) => r.path !== initial), i18n: lang }).router;
}

/** The pills in the input, in order (the dropdown renders the options' labels too). */
const pills = (): HTMLElement[] => Array.from(document.querySelectorAll<HTMLElement>('.mantine-Pill-root'));
const pillTexts = (): string[] => pills().map((p) => p.textContent ?? '');

const press = (init: KeyboardEventInit): KeyboardEvent => {
  const ev = new KeyboardEvent('keydown', { bubbles: true, cancelable: true, ...init });
  document.body.dispatchEvent(ev);
  return ev;
};

describe('multiple select input', () => {
  const field = select({ label: 'Collected From', options: ['A', 'B', 'C', 'D', 'E'], multiple: true });

  it('shows the first three chosen items and one "+N more" pill', () => {
    renderInput(<FieldInput name="frm" field={field} value="A,B,C,D,E" onChange={() => undefined} />);
    expect(pillTexts()).toEqual(['A', 'B', 'C', '+2 more']);
    expect(screen.getByTestId('frm-more').textContent).toBe('+2 more');
    expect(screen.getByTestId('frm-more').getAttribute('title')).toBe('D, E');
  });

  it('shows no "more" pill up to three items, and is searchable with the field name as input id', () => {
    renderInput(<FieldInput name="frm" field={field} value="B,A" onChange={() => undefined} />);
    expect(pillTexts()).toEqual(['B', 'A']);
    expect(screen.queryByTestId('frm-more')).toBeNull();
    const input = document.getElementById('frm') as HTMLInputElement;
    expect(input.tagName).toBe('INPUT');
    expect(input.readOnly).toBe(false);
  });

  it('removes an item and hands back the canonical comma string', () => {
    const onChange = vi.fn();
    renderInput(<FieldInput name="frm" field={field} value="A,C,E" onChange={onChange} />);
    const pillC = pills()[1];
    expect(pillC.textContent).toBe('C');
    fireEvent.click(pillC.querySelector('button') as HTMLElement);
    expect(onChange).toHaveBeenCalledWith('A,E');
  });
});

describe('required fields (spec section 5)', () => {
  const thing: AnyEntity = {
    name: 'thing',
    table: 'thing',
    key: 'cd',
    scope: 'global',
    label: 'Thing',
    title: 'nm',
    fields: {
      cd: code(),
      fixed: text({ label: 'Fixed', required: true, immutable: true }),
      on: { kind: 'bool', label: 'On', required: true, defaultValue: false },
      frm: select({ label: 'Collected From', options: ['A', 'B'], multiple: true, required: true }),
      nm: text({ label: 'Name', required: true }),
    },
  };

  it('passes over an empty field the user cannot change and reports the first one they can fill', () => {
    const fields = formFields(thing, 'update');
    expect(fields.find((f) => f.name === 'fixed')?.editable).toBe(false);
    const missing = firstMissingEditable(fields, { fixed: '', on: false, frm: '', nm: '' });
    expect(missing).toEqual({ fieldName: 'frm', message: "Please select the 'Collected From'." });
    expect(firstMissingEditable(fields, { fixed: '', on: false, frm: 'A', nm: ' ' })?.fieldName).toBe('nm');
    expect(firstMissingEditable(fields, { fixed: '', on: false, frm: 'A', nm: 'x' })).toBeNull();
  });

  it('names the field by its shown label', () => {
    const fields: FormField[] = formFields(thing, 'create');
    const missing = firstMissingEditable(fields, { fixed: 'x', frm: '', nm: '' }, { labelOf: (f) => `«${f.field.label}»` });
    expect(missing?.message).toBe("Please select the '«Collected From»'.");
  });

  it('toasts the first empty field on save and focuses it', async () => {
    renderForm('create', ['create'], `${base}/create`);
    fireEvent.click(await screen.findByTestId('btn-save'));
    await waitFor(() => expect(shown).toEqual(["Please enter the 'Document Type Name'."]));
    expect(document.activeElement?.id).toBe('doc_typ_nm');
  });
});

describe('required-field toast in Tamil', () => {
  it('words the toast and the label in Tamil', async () => {
    await lang.changeLanguage('tamil');
    renderForm('create', ['create'], `${base}/create`);
    fireEvent.click(await screen.findByTestId('btn-save'));
    const label = lang.t('field.document_type.doc_typ_nm');
    expect(label).not.toBe('Document Type Name');
    await waitFor(() => expect(shown).toEqual([`'${label}' ஐ உள்ளிடவும்.`]));
  });
});

describe('view of a row nobody can change', () => {
  it('offers no Edit where the entity has no update route, even with the edit button', async () => {
    const issues = entity('book_checkout');
    const issuePage = findPage('library', 'book_checkout') as PageDef;
    stubFetch(async () => jsonResponse({ bk_chk_cd: 9, bk_chk_usr_typ: 'Student', bk_chk_usr_cd: 3, bk_chk_usr_nm: 'Asha', bk_chk_bk_cnt: 1, bk_chk_tot_qty: 1, row_ver: 1 }));
    const permission = buildPagePermission('library', 'book_checkout', { usr_prms_btns: 'view,edit,create' }, [], false);
    renderWithProviders(
      <PagePermissionContext.Provider value={permission}>
        <EntityForm entity={issues} page={issuePage} mode="view" id="9" />
      </PagePermissionContext.Provider>,
      { i18n: lang, route: '/sms/library/book_checkout/view/9' },
    );
    expect(await screen.findByText('Asha')).toBeTruthy();
    expect(screen.queryByTestId('btn-edit')).toBeNull();
  });
});

describe('view form', () => {
  it('translates the heading and buttons and lists a multiple select with commas', async () => {
    // Field and entity labels come through entity-labels, falling back to the declaration.
    lang.addResource('english', 'translation', 'field.document_type.doc_typ_for', 'Collected from (translated)');
    renderForm('view', ['view', 'edit'], `${base}/view/5`);
    expect(await screen.findByText('Student, Institute')).toBeTruthy();
    expect(screen.getByText('Collected from (translated)')).toBeTruthy();
    expect(screen.getByText('Document Type Name')).toBeTruthy();
    expect(screen.getByRole('heading').textContent).toBe('View Document Type');
    expect(screen.getByTestId('btn-edit').textContent).toBe('Edit');
    expect(screen.getByText('Back')).toBeTruthy();
  });

  it('opens update with Ctrl+E and Ctrl+U for a user with the edit button, keeping the browser out', async () => {
    const router = renderForm('view', ['view', 'edit'], `${base}/view/5`);
    await screen.findByText('Student, Institute');
    const ev = press({ key: 'u', ctrlKey: true });
    expect(ev.defaultPrevented).toBe(true);
    await screen.findByText('UPDATE PAGE');
    expect(router.state.location.pathname).toBe(`${base}/update/5`);
  });

  it('Ctrl+E also edits; Alt+N opens create only with the create button', async () => {
    const router = renderForm('view', ['view', 'edit'], `${base}/view/5`);
    await screen.findByText('Student, Institute');
    expect(press({ key: 'n', altKey: true }).defaultPrevented).toBe(true);
    expect(router.state.location.pathname).toBe(`${base}/view/5`);
    press({ key: 'e', ctrlKey: true });
    await screen.findByText('UPDATE PAGE');
  });

  it('does nothing but block the browser default without the buttons, and Alt+N creates with create', async () => {
    const router = renderForm('view', ['view', 'create'], `${base}/view/5`);
    await screen.findByText('Student, Institute');
    expect(press({ key: 'u', ctrlKey: true }).defaultPrevented).toBe(true);
    expect(press({ key: 'e', ctrlKey: true }).defaultPrevented).toBe(true);
    expect(router.state.location.pathname).toBe(`${base}/view/5`);
    expect(screen.queryByTestId('btn-edit')).toBeNull();
    press({ key: 'n', altKey: true });
    await screen.findByText('CREATE PAGE');
  });

  it('registers no shortcut on an update form, where typing matters', async () => {
    const router = renderForm('update', ['view', 'edit', 'create'], `${base}/update/5`);
    await screen.findByTestId('btn-save');
    expect(press({ key: 'n', altKey: true }).defaultPrevented).toBe(false);
    expect(router.state.location.pathname).toBe(`${base}/update/5`);
    expect(screen.getByRole('heading').textContent).toBe('Update Document Type');
    expect(screen.getByTestId('btn-save').textContent).toBe('Update');
    expect(screen.getByText('Cancel')).toBeTruthy();
  });
});

describe('toggle and status fields in the form', () => {
  const inst = entity('institute');
  const instPage = findPage('institute', 'profile') as PageDef;

  function renderInstitute(buttons: string[]) {
    stubFetch(async () => jsonResponse({ inst_cd: 1, inst_nm: 'Sunrise', inst_typ: 'school', is_active: true, row_ver: 1 }));
    const permission = buildPagePermission('institute', 'profile', { usr_prms_btns: buttons.join(',') }, [], false);
    renderWithProviders(
      <PagePermissionContext.Provider value={permission}>
        <EntityForm entity={inst} page={instPage} mode="update" id="1" />
      </PagePermissionContext.Provider>,
      { route: '/sms/institute/profile/update/1', i18n: lang },
    );
  }

  it("offers the 'Active' switch only to someone holding its button, as the server insists", async () => {
    renderInstitute(['edit']);
    const name = (await screen.findByDisplayValue('Sunrise')) as HTMLInputElement;
    expect(name.disabled).toBe(false);
    expect((document.querySelector('input[name="is_active"]') as HTMLInputElement).disabled).toBe(true);
  });

  it('lets the holder of the button change it in the form too', async () => {
    renderInstitute(['edit', 'active']);
    await screen.findByDisplayValue('Sunrise');
    expect((document.querySelector('input[name="is_active"]') as HTMLInputElement).disabled).toBe(false);
  });
});
