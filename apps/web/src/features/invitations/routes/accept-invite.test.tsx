import { STORAGE_KEYS } from '@patientsim/domain/common/constants';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { routes } from '../../../app/router';
import { readLoginResult, writeLoginResult } from '../../../lib/session-store';
import { NORTHGATE_ID, buildGroupsDataEntry, buildLoginResult, buildPayload } from '../../../testing/factories';
import { type FakeRoute, errorResponse, ok, stubApi } from '../../../testing/fake-api';
import { jsonResponse, renderRoutes } from '../../../testing/render';

const TOKEN = 'invite-token-123';
const URL_WITH_TOKEN = `/auth/accept-invite?token=${TOKEN}`;

const describeAs = (body: { email: string; orgName: string | null; hasAccount: boolean }): FakeRoute => ({
  method: 'GET',
  path: '/api/users/invitations/describe',
  respond: () => jsonResponse(body),
});

const INSTRUCTOR_INVITE = { email: 'instructor@demo.test', orgName: 'Northgate Nursing School', hasAccount: true };

function pathOf(router: ReturnType<typeof renderRoutes>['router']) {
  const { pathname, search } = router.state.location;
  return `${pathname}${search}`;
}

function signInAs(email: string) {
  writeLoginResult(buildLoginResult({ role: 'USER', email }));
  window.localStorage.setItem(STORAGE_KEYS.disablePopupNotifications, 'true');
}

describe('/accept-invite', () => {
  it("says 'Missing invite token' without a token", async () => {
    renderRoutes(routes, '/auth/accept-invite');
    expect(await screen.findByRole('alert')).toHaveTextContent('Missing invite token');
  });

  it('shows why the invitation cannot be used', async () => {
    const api = stubApi([
      {
        method: 'GET',
        path: '/api/users/invitations/describe',
        respond: () => errorResponse(400, 'INVITATION_INVALID', 'The invitation is invalid or has expired.'),
      },
    ]);
    renderRoutes(routes, URL_WITH_TOKEN);
    expect(await screen.findByRole('alert')).toHaveTextContent('The invitation is invalid or has expired.');
    expect(screen.getByRole('link', { name: 'Back to login' })).toBeInTheDocument();
    expect(api.callsTo('GET', '/api/users/invitations/describe')[0]?.url.searchParams.get('token')).toBe(TOKEN);
  });

  it("shows 'Unkown error when accepting invite' when the reply says nothing", async () => {
    stubApi([{ method: 'GET', path: '/api/users/invitations/describe', respond: () => new Response('', { status: 502 }) }]);
    renderRoutes(routes, URL_WITH_TOKEN);
    expect(await screen.findByRole('alert')).toHaveTextContent('Unkown error when accepting invite');
  });

  it('sends an address without an account to the invite variant of sign-up', async () => {
    stubApi([
      describeAs({ email: 'invitee@demo.test', orgName: 'Northgate Nursing School', hasAccount: false }),
      {
        method: 'GET',
        path: '/api/users/auth/signup-invitation',
        respond: () => jsonResponse({ email: 'invitee@demo.test', orgName: 'Northgate Nursing School' }),
      },
    ]);
    const { router } = renderRoutes(routes, URL_WITH_TOKEN);
    await waitFor(() => expect(pathOf(router)).toBe(`/auth/signup?email=invitee%40demo.test&token=${TOKEN}`));
    expect(await screen.findByLabelText(/^First name/)).toBeInTheDocument();
  });

  it('sends a visitor to login with a redirect back here', async () => {
    stubApi([describeAs(INSTRUCTOR_INVITE)]);
    const { router } = renderRoutes(routes, URL_WITH_TOKEN);
    await waitFor(() =>
      expect(pathOf(router)).toBe(`/auth/login?redirectUrl=${encodeURIComponent(`/auth/accept-invite?token=${TOKEN}`)}`),
    );
  });

  it('logs out someone signed in as another address, then sends them to login with a redirect back', async () => {
    signInAs('owner@demo.test');
    const api = stubApi([describeAs(INSTRUCTOR_INVITE)]);
    const { router } = renderRoutes(routes, URL_WITH_TOKEN);
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'));
    expect(new URLSearchParams(router.state.location.search).get('redirectUrl')).toBe(`/auth/accept-invite?token=${TOKEN}`);
    expect(api.callsTo('POST', '/api/users/auth/sign-out')).toHaveLength(1);
    expect(readLoginResult()).toBeNull();
    expect(api.callsTo('POST', '/api/users/invitations/finish')).toHaveLength(0);
  });

  it('accepts for the invited user: finish with the invitation token, change organisation, renew, go to profile', async () => {
    signInAs('instructor@demo.test');
    const joined = buildPayload({
      role: 'USER',
      email: 'instructor@demo.test',
      org: NORTHGATE_ID,
      groups: [NORTHGATE_ID],
      groupsData: [buildGroupsDataEntry({ _id: NORTHGATE_ID, name: 'Northgate Nursing School', role: 'USER' })],
    });
    const api = stubApi([
      describeAs(INSTRUCTOR_INVITE),
      { method: 'POST', path: '/api/users/invitations/finish', respond: () => jsonResponse({ ok: true, orgId: NORTHGATE_ID }) },
      { method: 'POST', path: '/api/users/auth/changeOrg', respond: ok },
      {
        method: 'POST',
        path: '/api/users/auth/token',
        respond: () => jsonResponse({ idToken: 'joined', idTokenPayload: joined }),
      },
      { method: 'GET', path: '/api/users/extension/users/user-1/groups', respond: () => jsonResponse([]) },
    ]);
    const { router } = renderRoutes(routes, URL_WITH_TOKEN);

    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/account/profile'));
    const [finish] = api.callsTo('POST', '/api/users/invitations/finish');
    expect(finish?.headers.get('Authorization')).toBe(`Bearer ${TOKEN}`);
    expect(finish?.body).toEqual({ email: 'instructor@demo.test' });
    expect(api.callsTo('POST', '/api/users/auth/changeOrg')[0]?.body).toEqual({ orgId: NORTHGATE_ID });
    expect(readLoginResult()?.idTokenPayload.org).toBe(NORTHGATE_ID);
    expect(await screen.findByRole('heading', { name: 'Profile' })).toBeInTheDocument();
  });

  it('shows why finishing failed', async () => {
    signInAs('instructor@demo.test');
    stubApi([
      describeAs(INSTRUCTOR_INVITE),
      {
        method: 'POST',
        path: '/api/users/invitations/finish',
        respond: () => errorResponse(403, 'INVITATION_EMAIL_MISMATCH', 'This invitation was sent to another email address.'),
      },
    ]);
    renderRoutes(routes, URL_WITH_TOKEN);
    expect(await screen.findByRole('alert')).toHaveTextContent('This invitation was sent to another email address.');
  });
});
