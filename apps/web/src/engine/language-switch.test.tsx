import { MantineProvider } from '@mantine/core';
import { act, cleanup, render, screen } from '@testing-library/react';
import { createInstance, type i18n } from 'i18next';
import type { ReactNode } from 'react';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import english from '../../public/assets/language/english.json';
import tamil from '../../public/assets/language/tamil.json';
import { ConfirmDeleteDialog, TableInfoDialog } from './list-dialogs';
import { PagingBar } from './paging-bar';

let lang: i18n;

beforeEach(async () => {
  // jsdom has no matchMedia; Mantine and the paging bar's phone layout ask it.
  vi.stubGlobal('matchMedia', vi.fn(() => ({ matches: false, addEventListener: () => undefined, removeEventListener: () => undefined })));
  lang = createInstance();
  await lang.use(initReactI18next).init({
    lng: 'english',
    fallbackLng: false,
    resources: { english: { translation: english }, tamil: { translation: tamil } },
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const wrap = (node: ReactNode) => (
  <I18nextProvider i18n={lang}>
    <MantineProvider>{node}</MantineProvider>
  </I18nextProvider>
);

const noop = (): void => undefined;

describe('engine screens follow a language switch without a reload', () => {
  it('re-labels the paging bar', async () => {
    render(wrap(<PagingBar page={2} pageCount={5} total={1} size={25} onPage={noop} onSize={noop} />));
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
    render(wrap(<ConfirmDeleteDialog opened count={1} tableName="Religion" busy={false} onCancel={noop} onConfirm={noop} />));
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
    render(wrap(<TableInfoDialog opened onClose={noop} label="மதம்" total={3} searchable={['மதத்தின் பெயர்']} />));
    expect(screen.getByText('மதம்: அட்டவணை விவரம்')).toBeTruthy();
    expect(screen.getByText('மதத்தின் பெயர்', { exact: false })).toBeTruthy();
    expect(screen.getByText('தேர்ந்தெடுத்த பதிவுகளை நீக்கு')).toBeTruthy();
  });
});
