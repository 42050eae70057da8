import { STORAGE_KEYS } from '@patientsim/domain/common/constants';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeGroups, writeLoginResult } from '../lib/session-store';
import { buildGroup, buildLoginResult } from '../testing/factories';
import { jsonResponse, renderRoutes } from '../testing/render';
import { routes } from './router';

afterEach(() => {
  vi.useRealTimers();
});

function signIn() {
  writeLoginResult(buildLoginResult({ role: 'ADMIN' }));
  writeGroups([buildGroup()], [buildGroup()]);
  window.localStorage.setItem(STORAGE_KEYS.productType, 'EMS');
  window.localStorage.setItem(STORAGE_KEYS.disablePopupNotifications, 'true');
}

describe('signed-in tab', () => {
  it('follows a logout made in another tab at the next 3-second poll', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    signIn();
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    const { router } = renderRoutes(routes, '/auth/account/profile');
    expect(await screen.findByRole('heading', { name: 'Profile' })).toBeInTheDocument();

    // Another tab logged out: the shared storage no longer holds the session.
    window.localStorage.removeItem(STORAGE_KEYS.result);
    await vi.advanceTimersByTimeAsync(3000);

    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'));
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('logs out from the org menu: clears the stored session, ends the server session, goes to login', async () => {
    signIn();
    const fetchMock = vi.fn(async () => jsonResponse({ ok: true }));
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, '/auth/account/profile');

    await user.click(await screen.findByRole('button', { name: 'Riverside EMS Academy' }));
    await user.click(screen.getByRole('menuitem', { name: 'Logout' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'));
    expect(fetchMock).toHaveBeenCalledWith('/api/users/auth/sign-out', expect.objectContaining({ method: 'POST' }));
    for (const key of Object.values(STORAGE_KEYS)) expect(window.localStorage.getItem(key)).toBeNull();
  });
});
