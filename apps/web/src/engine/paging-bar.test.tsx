import { entity } from '@campus/entities/registry';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import type { i18n } from 'i18next';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { signIn } from '../lib/session-store';
import { adminUser } from '../test-support/fixtures';
import { createTestI18n, jsonResponse, renderWithProviders, resetTestState, stubBrowser, stubFetch } from '../test-support/render-app';
import { pagesFor, type EntityRow } from './entity-api';
import { TableInfoDialog } from './list-dialogs';
import { PagingBar } from './paging-bar';
import { useEntityList } from './use-entity-list';

let lang: i18n;

beforeEach(async () => {
  stubBrowser();
  lang = await createTestI18n();
});

afterEach(resetTestState);

const noop = (): void => undefined;
const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;

describe('an estimated total (total_exact false: at least this many rows)', () => {
  it("reads '10,000+ rows', offers the next page and no last page", () => {
    renderWithProviders(<PagingBar page={1} pageCount={400} total={10000} totalExact={false} size={25} onPage={noop} onSize={noop} />, { i18n: lang });
    expect(screen.getByTestId('row-total').textContent).toBe('10,000+ rows');
    expect(screen.getByTestId('page-of').textContent).toBe('Page 1 of 400+');
    expect(button('Next').disabled).toBe(false);
    // The end is not known: a jump to 'the last page' would land on a guess.
    expect(button('Last').disabled).toBe(true);
  });

  it('formats the count in the language on screen, with the plus', async () => {
    renderWithProviders(<PagingBar page={1} pageCount={400} total={10000} totalExact={false} size={25} onPage={noop} onSize={noop} />, { i18n: lang });
    await act(async () => {
      await lang.changeLanguage('tamil');
    });
    expect(screen.getByTestId('row-total').textContent).toBe('10,000+ வரிசைகள்');
  });

  it('says an exact total as before', () => {
    renderWithProviders(<PagingBar page={2} pageCount={5} total={120} size={25} onPage={noop} onSize={noop} />, { i18n: lang });
    expect(screen.getByTestId('row-total').textContent).toBe('120 rows');
    expect(screen.getByTestId('page-of').textContent).toBe('Page 2 of 5');
    expect(button('Last').disabled).toBe(false);
  });

  it('shows the lower bound in the table info', () => {
    renderWithProviders(<TableInfoDialog opened onClose={noop} label="Student" total={10000} totalExact={false} searchable={[]} />, { i18n: lang });
    expect(screen.getByText('10,000+')).toBeTruthy();
  });

  it('counts one page more while the page on screen is full, and only then', () => {
    expect(pagesFor(10000, false, 1, 25, 25)).toBe(400);
    // Past the estimate, a full page means there may be more.
    expect(pagesFor(10000, false, 400, 25, 25)).toBe(401);
    expect(pagesFor(10000, false, 401, 25, 7)).toBe(401);
    expect(pagesFor(10000, true, 400, 25, 25)).toBe(400);
    expect(pagesFor(0, true, 1, 25, 0)).toBe(1);
  });
});

const religion = entity('religion');
const rowsOf = (from: number, n: number): EntityRow[] => Array.from({ length: n }, (_, i) => ({ rgn_cd: from + i, rgn_nm: `R${from + i}`, row_ver: 1 }));

function ReligionPager() {
  const list = useEntityList(religion);
  return (
    <PagingBar
      page={list.page}
      pageCount={list.pageCount}
      total={list.total}
      totalExact={list.totalExact}
      size={list.size}
      onPage={list.setPage}
      onSize={list.setSize}
    />
  );
}

describe('the list controller with an estimated total', () => {
  it('goes to the next page while the current page is full, and stops at the first short page', async () => {
    signIn(adminUser);
    const asked: string[] = [];
    stubFetch(async (url) => {
      const page = new URL(url, 'http://x').searchParams.get('page');
      asked.push(page ?? '');
      // The server stopped counting at 50 on the first (full, default size 50) page; the second is short.
      if (page === '2') return jsonResponse({ rows: rowsOf(51, 10), total: 60, total_exact: true });
      return jsonResponse({ rows: rowsOf(1, 50), total: 50, total_exact: false });
    });
    renderWithProviders(<ReligionPager />, { route: '/sms/master/religion/table', i18n: lang });
    await waitFor(() => expect(screen.getByTestId('row-total').textContent).toBe('50+ rows'));
    expect(screen.getByTestId('page-of').textContent).toBe('Page 1 of 2+');
    expect(button('Next').disabled).toBe(false);

    fireEvent.click(button('Next'));
    await waitFor(() => expect(screen.getByTestId('row-total').textContent).toBe('60 rows'));
    expect(asked).toContain('2');
    expect(screen.getByTestId('page-of').textContent).toBe('Page 2 of 2');
    expect(button('Next').disabled).toBe(true);
  });

  it('keeps Next off on the last page when the total is exact (no total_exact: exact, as servers send today)', async () => {
    signIn(adminUser);
    stubFetch(async () => jsonResponse({ rows: rowsOf(1, 50), total: 50 }));
    renderWithProviders(<ReligionPager />, { route: '/sms/master/religion/table', i18n: lang });
    await waitFor(() => expect(screen.getByTestId('row-total').textContent).toBe('50 rows'));
    expect(screen.getByTestId('page-of').textContent).toBe('Page 1 of 1');
    expect(button('Next').disabled).toBe(true);
  });
});
