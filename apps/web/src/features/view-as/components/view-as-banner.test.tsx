import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { routes } from '../../../app/router';
import { apiFetch } from '../../../lib/api-client';
import { readLoginResult, writeGroups, writeLoginResult } from '../../../lib/session-store';
import { buildGroup, buildGroupsDataEntry, buildLoginResult, buildPayload } from '../../../testing/factories';
import { errorResponse, stubApi } from '../../../testing/fake-api';
import { jsonResponse, renderRoutes } from '../../../testing/render';

/** The stored session of a super admin viewing the product as an instructor of Riverside. */
function viewAsInstructor() {
  const result = buildLoginResult(
    {
      sub: 'instructor-1',
      email: 'ina@example.test',
      given_name: 'Ina',
      family_name: 'Structor',
      role: 'USER',
      groupsData: [buildGroupsDataEntry({ role: 'USER' })],
      act: { sub: 'super-1' },
    },
    { fromSkeletonKey: true },
  );
  writeLoginResult(result);
  writeGroups([buildGroup()], [buildGroup()]);
  return result;
}

const superAdmin = () =>
  buildPayload({
    sub: 'super-1',
    email: 'sam@example.test',
    role: 'SUPER_ADMIN',
    groupsData: [buildGroupsDataEntry({ _id: 'provider', role: 'SUPER_ADMIN' })],
  });

describe('the View As User banner', () => {
  it('says whose view this is, and the way back ends the view and returns to the super admin', async () => {
    const viewed = viewAsInstructor();
    const api = stubApi([
      { method: 'POST', path: '/api/users/auth/loginAs/end', respond: () => jsonResponse({ ok: true }) },
      {
        method: 'POST',
        path: '/api/users/auth/token',
        respond: () => jsonResponse({ idToken: 'own.token.value', idTokenPayload: superAdmin() }),
      },
      { method: 'GET', path: /^\/api\/users\/extension\/users\/[^/]+\/groups$/, respond: () => jsonResponse([]) },
    ]);
    const { router } = renderRoutes(routes, '/auth/account/profile');
    const text = await screen.findByText(/You are viewing PatientSim as/);
    expect(text).toHaveTextContent('You are viewing PatientSim as Ina Structor (ina@example.test) in Riverside EMS Academy.');
    expect(text.closest('[role="status"]')).not.toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'End session' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/access/skeleton'));
    const ends = api.callsTo('POST', '/api/users/auth/loginAs/end');
    expect(ends).toHaveLength(1);
    expect(ends[0]?.headers.get('authorization')).toBe(`Bearer ${viewed.idToken}`);
    expect(readLoginResult()).toMatchObject({ idToken: 'own.token.value', idTokenPayload: { sub: 'super-1' } });
    expect(readLoginResult()?.fromSkeletonKey).toBeUndefined();
    expect(screen.queryByText(/You are viewing PatientSim as/)).not.toBeInTheDocument();
  });

  it('keeps the super admin signed in when a request of the view is answered while the session comes back', async () => {
    const viewed = viewAsInstructor();
    let hasViewEnded = false;
    // A request the view's screen sent before the click, answered at the moment `respond` runs.
    const staleRequestOfTheView = () =>
      apiFetch('/api/users/invites/user/instructor-1', { token: viewed.idToken }).catch(() => undefined);
    stubApi([
      {
        method: 'POST',
        path: '/api/users/auth/loginAs/end',
        respond: () => {
          hasViewEnded = true;
          return jsonResponse({ ok: true });
        },
      },
      {
        method: 'GET',
        path: '/api/users/invites/user/instructor-1',
        respond: () =>
          hasViewEnded
            ? errorResponse(401, 'SESSION_ENDED', 'Your session has ended. Please sign in again.')
            : jsonResponse({ data: { invites: [] } }),
      },
      {
        method: 'POST',
        path: '/api/users/auth/token',
        respond: async () => {
          await staleRequestOfTheView();
          return jsonResponse({ idToken: 'own.token.value', idTokenPayload: superAdmin() });
        },
      },
      { method: 'GET', path: /^\/api\/users\/extension\/users\/[^/]+\/groups$/, respond: () => jsonResponse([]) },
    ]);
    const { router } = renderRoutes(routes, '/auth/account/profile');
    await userEvent.click(await screen.findByRole('button', { name: 'End session' }));
    await waitFor(() => expect(hasViewEnded).toBe(true));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/access/skeleton'));
    expect(readLoginResult()).toMatchObject({ idToken: 'own.token.value', idTokenPayload: { sub: 'super-1' } });
  });

  it('logs out when there is no session of the super admin to return to', async () => {
    viewAsInstructor();
    stubApi([
      { method: 'POST', path: '/api/users/auth/loginAs/end', respond: () => jsonResponse({ ok: true }) },
      {
        method: 'POST',
        path: '/api/users/auth/token',
        respond: () => errorResponse(401, 'UNAUTHENTICATED', 'You must be signed in.'),
      },
    ]);
    const { router } = renderRoutes(routes, '/auth/account/profile');
    await userEvent.click(await screen.findByRole('button', { name: 'End session' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'));
    expect(readLoginResult()).toBeNull();
  });
});
