import { entity } from '@campus/entities/registry';
import { findPage, type PageDef } from '@campus/entities/pages';
import { QueryClient } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EntityForm } from '../engine/entity-form';
import { signIn } from '../lib/session-store';
import { clerkUser } from '../test-support/fixtures';
import { jsonResponse, renderWithProviders, resetTestState, stubBrowser, stubFetch } from '../test-support/render-app';
import { buildPagePermission, PagePermissionContext } from './page-permission-context';
import { queryDefaults } from './query-client';

const religion = entity('religion');
const page = findPage('master', 'religion') as PageDef;
let shown: string[] = [];

beforeEach(() => {
  ({ shown } = stubBrowser());
  stubFetch(async () => jsonResponse({ statusCode: 404, error: 'Not Found', message: 'Religion 77 not found.' }, 404));
  window.history.pushState({}, '', '/sms/master/religion/view/77');
  signIn(clerkUser);
});

afterEach(resetTestState);

describe('a view URL of a record that does not exist', () => {
  it('toasts the server sentence once and shows the not-found state', async () => {
    const permission = buildPagePermission('master', 'religion', { usr_prms_btns: 'view,edit' }, [], false);
    // The app's own retry policy: a 404 is not asked again, so it is not toasted again.
    renderWithProviders(
      <PagePermissionContext.Provider value={permission}>
        <EntityForm entity={religion} page={page} mode="view" id="77" />
      </PagePermissionContext.Provider>,
      { route: '/sms/master/religion/view/77', queryClient: new QueryClient({ defaultOptions: queryDefaults }) },
    );
    expect(await screen.findByText('Record not found')).toBeTruthy();
    expect(shown).toEqual(['Religion 77 not found.']);
    expect(vi.mocked(fetch)).toHaveBeenCalledTimes(1);
  });
});
