import { entity } from '@campus/entities/registry';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import type { i18n } from 'i18next';
import { useTranslation } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestI18n, renderWithProviders, resetTestState, stubBrowser } from '../test-support/render-app';
import { deriveColumns, translateColumns } from './entity-columns';
import { EntityGrid } from './entity-grid';

let lang: i18n;

beforeEach(async () => {
  stubBrowser();
  lang = await createTestI18n();
});

afterEach(resetTestState);

const religion = entity('religion');
const noop = (): void => undefined;

/** The list page's part: columns labelled in the current language. */
function Grid() {
  const { t } = useTranslation();
  return (
    <EntityGrid
      entity={religion}
      columns={translateColumns(t, religion, deriveColumns(religion))}
      rows={[]}
      loading={false}
      sort={null}
      onSortChange={noop}
      onSelectionChange={noop}
      savedLayout={null}
      onVisibleColumnsChange={noop}
      userCode={1}
      height="300px"
      paging={{ page: 1, pageCount: 1, total: 0, size: 25, onPage: noop, onSize: noop }}
    />
  );
}

describe('EntityGrid language', () => {
  it("switches AG Grid's own texts, the headers and the buttons without a reload", async () => {
    renderWithProviders(<Grid />, { i18n: lang });
    await waitFor(() => {
      expect(screen.getAllByText('No Rows To Show').length).toBeGreaterThan(0);
      expect(screen.getByText('Religion Name')).toBeTruthy();
    });
    expect(screen.getByText('Columns')).toBeTruthy();

    await act(async () => {
      await lang.changeLanguage('tamil');
    });
    // The restarted grid draws its header and overlay in animation frames.
    await waitFor(() => {
      expect(screen.getAllByText('காட்ட பதிவுகள் இல்லை').length).toBeGreaterThan(0);
      expect(screen.getByText('மதத்தின் பெயர்')).toBeTruthy();
    });
    expect(screen.getByText('நெடுவரிசைகள்')).toBeTruthy();
    expect(screen.queryByText('No Rows To Show')).toBeNull();
  });

  it('keeps the unsaved column layout when the switch restarts the grid', async () => {
    const { container } = renderWithProviders(<Grid />, { i18n: lang });
    const header = (colId: string) => container.querySelector(`.ag-header-cell[col-id="${colId}"]`);
    await waitFor(() => expect(header('rgn_desc')).not.toBeNull());
    fireEvent.click(screen.getByText('Columns'));
    const item = (await screen.findAllByRole('menuitem', { hidden: true })).find((m) => m.textContent === 'Description');
    if (!item) throw new Error('no Description item in the Columns menu');
    fireEvent.click(item);
    await screen.findByText('Column layout changed');
    await waitFor(() => expect(header('rgn_desc')).toBeNull());

    await act(async () => {
      await lang.changeLanguage('tamil');
    });
    await waitFor(() => {
      expect(screen.getAllByText('காட்ட பதிவுகள் இல்லை').length).toBeGreaterThan(0);
      expect(header('rgn_nm')).not.toBeNull();
    });
    expect(header('rgn_desc')).toBeNull();
    expect(screen.getByText('நெடுவரிசை அமைப்பு மாறியுள்ளது')).toBeTruthy();
  });
});
