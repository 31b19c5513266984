import { act, screen } from '@testing-library/react';
import type { i18n } from 'i18next';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestI18n, renderWithProviders, resetTestState, stubBrowser } from '../test-support/render-app';
import { ConfirmDeleteDialog, TableInfoDialog } from './list-dialogs';
import { PagingBar } from './paging-bar';

let lang: i18n;

beforeEach(async () => {
  stubBrowser();
  lang = await createTestI18n();
});

afterEach(resetTestState);

const renderSwitchable = (node: ReactNode) => renderWithProviders(node, { i18n: lang });

const noop = (): void => undefined;

describe('engine screens follow a language switch without a reload', () => {
  it('re-labels the paging bar', async () => {
    renderSwitchable(<PagingBar page={2} pageCount={5} total={1} size={25} onPage={noop} onSize={noop} />);
    expect(screen.getByTestId('page-of').textContent).toBe('Page 2 of 5');
    expect(screen.getByTestId('row-total').textContent).toBe('1 row');
    expect(screen.getByLabelText('Rows per page')).toBeTruthy();

    await act(async () => {
      await lang.changeLanguage('tamil');
    });
    expect(screen.getByTestId('page-of').textContent).toBe('பக்கம் 2 / 5');
    expect(screen.getByTestId('row-total').textContent).toBe('1 வரிசை');
    expect(screen.getByLabelText('ஒரு பக்கத்தில் வரிசைகள்')).toBeTruthy();
    expect(screen.getByLabelText('அடுத்த')).toBeTruthy();
  });

  it('re-words the delete confirmation, keeping the English the browser tests read', async () => {
    renderSwitchable(<ConfirmDeleteDialog opened count={1} tableName="Religion" busy={false} onCancel={noop} onConfirm={noop} />);
    expect(screen.getByText('Delete 1 Religion record? This cannot be undone.')).toBeTruthy();
    expect(screen.getByText('Delete records')).toBeTruthy();

    await act(async () => {
      await lang.changeLanguage('tamil');
    });
    expect(screen.getByText('1 Religion பதிவை நீக்கவா? இதைத் திரும்பப் பெற முடியாது.')).toBeTruthy();
    expect(screen.getByText('பதிவுகளை நீக்கு')).toBeTruthy();
    expect(screen.getByTestId('confirm-delete').textContent).toBe('நீக்கு');
  });

  it('translates the table info dialog', async () => {
    await act(async () => {
      await lang.changeLanguage('tamil');
    });
    renderSwitchable(<TableInfoDialog opened onClose={noop} label="மதம்" total={3} searchable={['மதத்தின் பெயர்']} />);
    expect(screen.getByText('மதம்: அட்டவணை விவரம்')).toBeTruthy();
    expect(screen.getByText('மதத்தின் பெயர்', { exact: false })).toBeTruthy();
    expect(screen.getByText('தேர்ந்தெடுத்த பதிவுகளை நீக்கு')).toBeTruthy();
  });
});
