import { STORAGE_KEYS } from '@patientsim/domain/common/constants';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isLocalhost } from '../lib/browser';
import { readLoginResult, writeGroups, writeLoginResult } from '../lib/session-store';
import { buildGroup, buildGroupsDataEntry, buildLoginResult, buildPayload } from '../testing/factories';
import { type FakeRoute, errorResponse, stubApi } from '../testing/fake-api';
import { jsonResponse, renderRoutes } from '../testing/render';
import { routes } from './router';

vi.mock(import('../lib/browser'), async (importOriginal) => ({
  ...(await importOriginal()),
  isLocalhost: vi.fn(() => true),
}));

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  vi.mocked(isLocalhost).mockReturnValue(true);
});

afterEach(() => {
  vi.useRealTimers();
});

type Payload = ReturnType<typeof buildPayload>;

function signIn(overrides: Partial<Payload> = {}, extra: { fromSkeletonKey?: boolean } = {}) {
  const result = buildLoginResult({ role: 'ADMIN', ...overrides }, extra);
  writeLoginResult(result);
  writeGroups([buildGroup()], [buildGroup()]);
  window.localStorage.setItem(STORAGE_KEYS.productType, 'EMS');
  window.localStorage.setItem(STORAGE_KEYS.disablePopupNotifications, 'true');
  return result;
}

function tokenRoute(payload: () => Payload, idToken = 'renewed.token.value'): FakeRoute {
  return {
    method: 'POST',
    path: '/api/users/auth/token',
    respond: () => jsonResponse({ idToken, idTokenPayload: payload() }),
  };
}

const MINUTE = 60_000;

describe('signed-in tab', () => {
  it('follows a logout made in another tab at the next 3-second poll', async () => {
    signIn();
    const api = stubApi();
    const { router } = renderRoutes(routes, '/auth/account/profile');
    expect(await screen.findByRole('heading', { name: 'Profile' })).toBeInTheDocument();

    // Another tab logged out: the shared storage no longer holds the session.
    window.localStorage.removeItem(STORAGE_KEYS.result);
    await vi.advanceTimersByTimeAsync(3000);

    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'));
    // That tab ended the server session already.
    expect(api.callsTo('POST', '/api/users/auth/sign-out')).toHaveLength(0);
  });

  it('logs out from the org menu: clears the stored session, ends the server session, goes to login', async () => {
    vi.useRealTimers();
    signIn();
    const api = stubApi();
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, '/auth/account/profile');

    await user.click(await screen.findByRole('button', { name: 'Riverside EMS Academy' }));
    await user.click(screen.getByRole('menuitem', { name: 'Logout' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'));
    expect(api.callsTo('POST', '/api/users/auth/sign-out')).toHaveLength(1);
    for (const key of Object.values(STORAGE_KEYS)) expect(window.localStorage.getItem(key)).toBeNull();
  });
});

describe('renewal', () => {
  it('renews a minute before expiry; later calls carry the new bearer', async () => {
    const first = signIn();
    const api = stubApi([tokenRoute(() => buildPayload({ given_name: 'Bea' }))]);
    renderRoutes(routes, '/auth/account/profile');
    expect(await screen.findByText(/Signed in as Ada Admin/)).toBeInTheDocument();

    const untilRenewal = first.idTokenPayload.exp * 1000 - MINUTE - Date.now();
    await vi.advanceTimersByTimeAsync(untilRenewal - 1000);
    expect(api.callsTo('POST', '/api/users/auth/token')).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1000);

    await waitFor(() => expect(readLoginResult()?.idToken).toBe('renewed.token.value'));
    // The names changed: the page shows them without a reload, and refetched data uses the new token.
    expect(await screen.findByText(/Signed in as Bea Admin/)).toBeInTheDocument();
    await waitFor(() =>
      expect(api.callsTo('GET', '/api/users/notifications').at(-1)?.headers.get('Authorization')).toBe(
        'Bearer renewed.token.value',
      ),
    );
  });

  it('logs out when a silent renewal fails', async () => {
    vi.mocked(isLocalhost).mockReturnValue(false);
    const first = signIn();
    const api = stubApi([
      { method: 'POST', path: '/api/users/auth/token', respond: () => errorResponse(401, 'UNAUTHENTICATED', 'x') },
    ]);
    const { router } = renderRoutes(routes, '/auth/account/profile');
    await screen.findByRole('heading', { name: 'Profile' });

    await vi.advanceTimersByTimeAsync(first.idTokenPayload.exp * 1000 - MINUTE - Date.now());

    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'));
    expect(api.callsTo('POST', '/api/users/auth/sign-out')).toHaveLength(1);
    expect(readLoginResult()).toBeNull();
  });

  it('sends a person whose organisation came to require a second factor to set one up, keeping the session, then back to the page', async () => {
    const first = signIn();
    const api = stubApi([
      {
        method: 'POST',
        path: '/api/users/auth/token',
        respond: () => errorResponse(403, 'TWO_FACTOR_ENROLMENT_REQUIRED', 'Set one up.'),
      },
      {
        method: 'GET',
        path: '/api/users/account/two-factor',
        respond: () =>
          jsonResponse({ totp: { enabled: false, recoveryCodesLeft: 0 }, passkeys: [], requiredBy: ['Riverside EMS Academy'] }),
      },
    ]);
    const { router } = renderRoutes(routes, '/auth/account/profile');
    await screen.findByRole('heading', { name: 'Profile' });

    await vi.advanceTimersByTimeAsync(first.idTokenPayload.exp * 1000 - MINUTE - Date.now());

    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/two-factor/setup'));
    const next = new URLSearchParams(router.state.location.search).get('next') ?? '';
    expect(next.startsWith('/auth/callback?')).toBe(true);
    expect(new URLSearchParams(next.split('?')[1]).get('redirectUrl')).toBe('/auth/account/profile');
    // The server session stays: the set-up needs it, and the callback renews with it afterwards.
    expect(api.callsTo('POST', '/api/users/auth/sign-out')).toHaveLength(0);
    expect(readLoginResult()).toBeNull();
  });

  it('ignores a failed silent renewal on localhost', async () => {
    const first = signIn();
    const api = stubApi([
      { method: 'POST', path: '/api/users/auth/token', respond: () => errorResponse(401, 'UNAUTHENTICATED', 'x') },
    ]);
    const { router } = renderRoutes(routes, '/auth/account/profile');
    await screen.findByRole('heading', { name: 'Profile' });

    await vi.advanceTimersByTimeAsync(first.idTokenPayload.exp * 1000 - MINUTE - Date.now());

    await waitFor(() => expect(api.callsTo('POST', '/api/users/auth/token')).toHaveLength(1));
    expect(router.state.location.pathname).toBe('/auth/account/profile');
    expect(readLoginResult()).not.toBeNull();
  });

  it('never renews a View-As-User session: its end is recorded, and it ends when its token expires', async () => {
    const first = signIn({}, { fromSkeletonKey: true });
    const api = stubApi([{ method: 'POST', path: '/api/users/auth/loginAs/end', respond: () => jsonResponse({ ok: true }) }]);
    const { router } = renderRoutes(routes, '/auth/account/profile');
    await screen.findByRole('heading', { name: 'Profile' });

    await vi.advanceTimersByTimeAsync(first.idTokenPayload.exp * 1000 - Date.now() - 6000);
    expect(api.callsTo('POST', '/api/users/auth/loginAs/end')).toHaveLength(0);
    // A few seconds before expiry, while the token still works, the end is recorded on the server.
    await vi.advanceTimersByTimeAsync(1000);
    const ends = api.callsTo('POST', '/api/users/auth/loginAs/end');
    expect(ends).toHaveLength(1);
    expect(ends[0]?.body).toEqual({ expired: true });
    expect(ends[0]?.headers.get('authorization')).toBe(`Bearer ${first.idToken}`);
    await vi.advanceTimersByTimeAsync(4000);
    expect(router.state.location.pathname).toBe('/auth/account/profile');
    await vi.advanceTimersByTimeAsync(1000);

    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'));
    expect(api.callsTo('POST', '/api/users/auth/token')).toHaveLength(0);
    // The expired token is not sent again at logout.
    expect(api.callsTo('POST', '/api/users/auth/loginAs/end')).toHaveLength(1);
  });
});

describe('permissions changed by a renewal', () => {
  it('updates the side nav and runs the route guards again, without a reload', async () => {
    const instructor = buildGroupsDataEntry({ role: 'USER' });
    const first = signIn({ role: 'USER', groupsData: [instructor] });
    const demoted = () =>
      buildPayload({ role: 'STUDENT', groupsData: [buildGroupsDataEntry({ role: 'STUDENT' })], given_name: 'Ada' });
    // The groups page of an instructor lists their own sub-groups.
    stubApi([
      tokenRoute(demoted),
      { method: 'GET', path: /^\/api\/users\/extension\/users\/[^/]+\/groups$/, respond: () => jsonResponse([]) },
    ]);
    const { router } = renderRoutes(routes, '/auth/org/groups');
    const nav = within(await screen.findByRole('navigation', { name: 'Main' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Groups' })).toBeInTheDocument();
    expect(nav.getByRole('link', { name: 'ORG MANAGEMENT' })).toBeInTheDocument();

    await vi.advanceTimersByTimeAsync(first.idTokenPayload.exp * 1000 - MINUTE - Date.now());

    // A student may not open /org: the guard sends the page to the profile.
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/account/profile'));
    expect(nav.queryByRole('link', { name: 'ORG MANAGEMENT' })).not.toBeInTheDocument();
    expect(nav.queryByRole('link', { name: 'ASSIGNMENTS' })).not.toBeInTheDocument();
  });
});

describe('students', () => {
  const studentPayload = () => {
    const iat = Math.floor(Date.now() / 1000);
    return buildPayload({ role: 'STUDENT', iat, exp: iat + 1200, groupsData: [buildGroupsDataEntry({ role: 'STUDENT' })] });
  };

  it('logs a student out after 1200 seconds without activity; activity, counted once a second, postpones it', async () => {
    const first = studentPayload();
    signIn(first);
    const api = stubApi([tokenRoute(studentPayload)]);
    const { router } = renderRoutes(routes, '/auth/account/profile');
    await screen.findByRole('heading', { name: 'Profile' });

    await vi.advanceTimersByTimeAsync(600_000);
    window.dispatchEvent(new Event('keydown'));
    // Within the same second: not counted again.
    window.dispatchEvent(new Event('mousemove'));
    await vi.advanceTimersByTimeAsync(599_000);
    expect(router.state.location.pathname).toBe('/auth/account/profile');
    // While active the token is renewed before its 1200 seconds run out.
    expect(api.callsTo('POST', '/api/users/auth/token')).toHaveLength(1);

    await vi.advanceTimersByTimeAsync(600_000);
    expect(router.state.location.pathname).toBe('/auth/account/profile');
    await vi.advanceTimersByTimeAsync(1000);
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'));
    expect(readLoginResult()).toBeNull();
  });

  it('keeps an instructor signed in through 1200 seconds without activity', async () => {
    const instructor = () => {
      const iat = Math.floor(Date.now() / 1000);
      return buildPayload({ role: 'USER', iat, exp: iat + 3600, groupsData: [buildGroupsDataEntry({ role: 'USER' })] });
    };
    signIn(instructor());
    stubApi([tokenRoute(instructor)]);
    const { router } = renderRoutes(routes, '/auth/account/profile');
    await screen.findByRole('heading', { name: 'Profile' });

    await vi.advanceTimersByTimeAsync(1_500_000);
    expect(router.state.location.pathname).toBe('/auth/account/profile');
    expect(readLoginResult()).not.toBeNull();
  });
});
