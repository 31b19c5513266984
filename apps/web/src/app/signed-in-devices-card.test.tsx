import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { signIn } from '../lib/session-store';
import { adminUser } from '../test-support/fixtures';
import { createTestI18n, jsonResponse, renderWithProviders, resetTestState, stubBrowser, stubFetch } from '../test-support/render-app';
import { SignedInDevicesCard, type LiveSession } from './signed-in-devices-card';

let rows: LiveSession[];
const deleted: string[] = [];

const session = (sess_cd: number, sess_dev: string, is_current: boolean): LiveSession => ({
  sess_cd,
  sess_dev,
  sess_pfm: 'web',
  sess_ip: `10.0.0.${sess_cd}`,
  sess_crt_at: '2026-11-25T08:00:00.000Z',
  sess_seen_at: '2026-11-25T09:30:00.000Z',
  is_current,
});

beforeEach(() => {
  stubBrowser();
  rows = [session(7, 'Chrome on Windows', true), session(3, 'Safari on iPhone', false)];
  deleted.length = 0;
  stubFetch(async (url, init) => {
    if (init.method === 'DELETE') {
      deleted.push(url);
      rows = rows.filter((r) => !url.endsWith(`/${r.sess_cd}`));
      return jsonResponse({ ok: true });
    }
    return jsonResponse({ rows });
  });
  signIn(adminUser);
});

afterEach(resetTestState);

describe('SignedInDevicesCard', () => {
  it('marks this device, offers End only on the others, and ends one after the confirmation', async () => {
    renderWithProviders(<SignedInDevicesCard />, { i18n: await createTestI18n() });
    const card = await screen.findByTestId('signed-in-devices');
    await within(card).findByText('Safari on iPhone');
    const items = within(card).getAllByTestId('session-row');
    expect(items).toHaveLength(2);
    expect(within(items[0]).getByText('This device')).toBeTruthy();
    expect(within(items[0]).queryByRole('button')).toBeNull();
    fireEvent.click(within(items[1]).getByRole('button', { name: 'End Safari on iPhone' }));
    expect(await screen.findByText('Safari on iPhone (10.0.0.3) will be signed out at once.')).toBeTruthy();
    expect(deleted).toEqual([]);
    fireEvent.click(screen.getByTestId('confirm-end-session'));
    await waitFor(() => expect(within(card).getAllByTestId('session-row')).toHaveLength(1));
    expect(deleted).toHaveLength(1);
    expect(deleted[0]).toMatch(/\/api\/employee\/sessions\/3$/);
  });
});
