import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { signIn } from '../lib/session-store';
import { adminUser, clerkUser } from '../test-support/fixtures';
import { jsonResponse, renderWithProviders, resetTestState, stubBrowser, stubFetch } from '../test-support/render-app';
import { SideMenu } from './side-menu';

const allowed = (module: string, page: string) => ({
  usr_prms_mdl: module,
  usr_prms_page: page,
  usr_prms_pth_url: `sms/${module}/${page}`,
  usr_prms_is_alw: true,
  usr_prms_btns: 'view',
  usr_need_data_chk: false,
});

beforeEach(() => {
  stubBrowser();
  stubFetch(async () => jsonResponse({ user: adminUser, permissions: [allowed('master', 'religion'), allowed('institute', 'profile')] }));
  signIn(adminUser);
});

afterEach(resetTestState);

describe('side menu', () => {
  it('opens the group of the module the user arrives at, by any way, and keeps the others as they were', async () => {
    const { router } = renderWithProviders(<SideMenu />, { route: '/*' });
    await screen.findByText('Other Master');
    expect(screen.queryByRole('link', { name: 'Religion' })).toBeNull();

    await act(() => router.navigate('/sms/master/religion/table'));
    expect(await screen.findByRole('link', { name: 'Religion' })).toBeTruthy();

    // A landing tile or a typed URL to another module opens that group too; the first stays open.
    await act(() => router.navigate('/sms/institute/profile/table'));
    expect(await screen.findByRole('link', { name: 'Institute Profile' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Religion' })).toBeTruthy();
  });

  it('lists Background jobs under Other Master for an administrator, opened when he is on that page', async () => {
    const { router } = renderWithProviders(<SideMenu />, { route: '/*' });
    await screen.findByText('Other Master');
    await act(() => router.navigate('/sms/jobs'));
    const link = await screen.findByRole('link', { name: 'Background jobs' });
    expect(link.getAttribute('href')).toBe('/sms/jobs');
    expect(link.getAttribute('data-active')).toBe('true');
    expect(screen.getByRole('button', { name: 'Other Master' }).getAttribute('aria-expanded')).toBe('true');
  });

  it('shows no Background jobs to a user who is not an administrator', async () => {
    signIn(clerkUser);
    renderWithProviders(<SideMenu />, { route: '/*' });
    fireEvent.click(await screen.findByRole('button', { name: 'Other Master' }));
    expect(await screen.findByRole('link', { name: 'Religion' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Background jobs' })).toBeNull();
  });

  it('makes each group a button the keyboard reaches, which says whether it is open and opens with Enter', async () => {
    renderWithProviders(<SideMenu />, { route: '/*' });
    const group = await screen.findByRole('button', { name: 'Other Master' });
    expect(group.tabIndex).toBe(0);
    expect(group.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('link', { name: 'Religion' })).toBeNull();
    fireEvent.keyDown(group, { key: 'Enter', code: 'Enter' });
    expect(group.getAttribute('aria-expanded')).toBe('true');
    expect(await screen.findByRole('link', { name: 'Religion' })).toBeTruthy();
    fireEvent.keyDown(group, { key: ' ', code: 'Space' });
    expect(group.getAttribute('aria-expanded')).toBe('false');
  });
});
