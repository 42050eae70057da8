import { STORAGE_KEYS } from '@patientsim/domain/common/constants';
import { PASSWORD_POLICY_TEXT } from '@patientsim/domain/auth/password-policy';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { readActiveGroups, readGroups, readLoginResult } from '../../../lib/session-store';
import { RIVERSIDE_ID, buildGroup, buildPayload } from '../../../testing/factories';
import { type FakeRoute, errorResponse, stubApi } from '../../../testing/fake-api';
import { jsonResponse, renderRoutes } from '../../../testing/render';
import { ChoosePasswordRoute, MISSING_TOKEN_MESSAGE } from './choose-password';

const TOKEN = 'provision-token-123';
const PERSON = { email: 'new.student@example.test', given_name: 'Nia', family_name: 'New' };

const describeRoute: FakeRoute = {
  method: 'GET',
  path: '/api/users/integrations/provisioning',
  respond: () => jsonResponse(PERSON),
};

function renderPage(routes: FakeRoute[], path = `/auth/choose-password?token=${TOKEN}`) {
  const api = stubApi(routes, { withShell: false });
  const view = renderRoutes(
    [
      { path: '/choose-password', element: <ChoosePasswordRoute /> },
      { path: '/callback', element: <p>Callback</p> },
    ],
    path,
  );
  return { ...view, api, user: userEvent.setup() };
}

async function choose(user: ReturnType<typeof userEvent.setup>, password: string, confirm = password) {
  await user.type(await screen.findByLabelText(/^Password/), password);
  await user.type(screen.getByLabelText(/^Confirm password/), confirm);
  await user.click(screen.getByRole('button', { name: 'Set password' }));
}

describe('/choose-password', () => {
  it("says 'Error: Missing token' without a token", () => {
    const { api } = renderPage([], '/auth/choose-password');
    expect(screen.getByRole('alert')).toHaveTextContent(MISSING_TOKEN_MESSAGE);
    expect(api.requests).toHaveLength(0);
  });

  it('shows e-mail and names read-only, from the token', async () => {
    const { api } = renderPage([describeRoute]);
    expect(await screen.findByLabelText('Email')).toHaveValue(PERSON.email);
    for (const [label, value] of [
      ['Email', PERSON.email],
      ['First name', PERSON.given_name],
      ['Last name', PERSON.family_name],
    ] as const) {
      const field = screen.getByLabelText(label);
      expect(field).toHaveValue(value);
      expect(field).toHaveAttribute('readonly');
    }
    expect(api.callsTo('GET', '/api/users/integrations/provisioning')[0]?.url.searchParams.get('token')).toBe(TOKEN);
  });

  it('shows why a link cannot be used', async () => {
    renderPage([
      {
        method: 'GET',
        path: '/api/users/integrations/provisioning',
        respond: () => errorResponse(400, 'INVITATION_INVALID', 'This link is invalid, expired or already used.'),
      },
    ]);
    expect(await screen.findByRole('alert')).toHaveTextContent('This link is invalid, expired or already used.');
  });

  it('refuses a weak password and a mismatch before sending', async () => {
    const { api, user } = renderPage([describeRoute]);
    await choose(user, 'weakpassword');
    expect(await screen.findByText('Password is too weak')).toBeInTheDocument();
    expect(screen.getAllByText(PASSWORD_POLICY_TEXT).length).toBeGreaterThan(0);
    await user.clear(screen.getByLabelText(/^Password/));
    await user.clear(screen.getByLabelText(/^Confirm password/));
    await choose(user, 'Strong-Pass-1', 'Strong-Pass-2');
    expect(await screen.findByText('Passwords do not match!')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/users/integrations/add-user')).toHaveLength(0);
  });

  it('creates the account, stores the login result and groups, then goes to the callback', async () => {
    const riverside = buildGroup({ _id: RIVERSIDE_ID });
    const payload = buildPayload({ role: 'STUDENT', email: PERSON.email });
    const { api, user } = renderPage([
      describeRoute,
      {
        method: 'POST',
        path: '/api/users/integrations/add-user',
        respond: () =>
          jsonResponse({
            idToken: 'new.account.token',
            idTokenPayload: payload,
            groupData: { groups: [riverside], activeGroups: [riverside] },
          }),
      },
    ]);
    await choose(user, 'Strong-Pass-1');

    expect(await screen.findByText('Callback')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/users/integrations/add-user')[0]?.body).toEqual({ password: 'Strong-Pass-1', token: TOKEN });
    expect(readLoginResult()?.idToken).toBe('new.account.token');
    expect(window.localStorage.getItem(STORAGE_KEYS.productType)).toBe('EMS');
    expect(readGroups().map((group) => group._id)).toEqual([RIVERSIDE_ID]);
    expect(readActiveGroups().map((group) => group._id)).toEqual([RIVERSIDE_ID]);
  });

  it.each([
    [
      'the reply message',
      () => errorResponse(409, 'EMAIL_TAKEN', 'An account with this email already exists.'),
      'An account with this email already exists.',
    ],
    ['the weak-password rules on invalid_password', () => errorResponse(400, 'invalid_password', 'weak'), PASSWORD_POLICY_TEXT],
    [
      'the fallback when the reply says nothing',
      () => new Response('Bad gateway', { status: 502 }),
      'An error occurred during provisioning.',
    ],
  ])('shows %s when the server refuses', async (_case, respond, expected) => {
    const { user } = renderPage([describeRoute, { method: 'POST', path: '/api/users/integrations/add-user', respond }]);
    await choose(user, 'Strong-Pass-1');
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(expected));
    expect(readLoginResult()).toBeNull();
  });
});
