import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { writeLoginResult } from '../../../lib/session-store';
import { RIVERSIDE_ID, buildGroup, buildLoginResult, buildPayload } from '../../../testing/factories';
import { type FakeRoute, stubApi } from '../../../testing/fake-api';
import { jsonResponse, renderRoutes } from '../../../testing/render';
import { ViewAsForm } from './view-as-form';

const SAM = { user_id: 'user-3', email: 'sam@demo.test', given_name: 'Sam', family_name: 'Student', role: 'STUDENT' };

const SEARCHES: FakeRoute[] = [
  { method: 'GET', path: '/api/users/search/groups', respond: () => jsonResponse([buildGroup()]) },
  { method: 'GET', path: '/api/users/search/users', respond: () => jsonResponse({ users: [SAM], total: 1 }) },
];

function renderForm(routes: FakeRoute[] = []) {
  writeLoginResult(buildLoginResult({ role: 'SUPER_ADMIN' }));
  const api = stubApi([...routes, ...SEARCHES]);
  const { router } = renderRoutes(
    [
      { path: '/auth/access/view-as', element: <ViewAsForm /> },
      { path: '/auth/account/profile', element: <p>Profile page</p> },
    ],
    '/auth/access/view-as',
  );
  return { api, router, user: userEvent.setup() };
}

async function choosePerson(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByRole('combobox', { name: 'Organization' }), 'Riv');
  await user.click(await screen.findByRole('option', { name: 'Riverside EMS Academy' }, { timeout: 2000 }));
  await user.type(screen.getByRole('combobox', { name: 'User' }), 'sam');
  await user.click(await screen.findByRole('option', { name: 'Sam Student (sam@demo.test)' }, { timeout: 2000 }));
}

describe('ViewAsForm', () => {
  it('views the product as the person chosen in the organisation chosen, with the reason, then opens the profile', async () => {
    const { api, router, user } = renderForm([
      {
        method: 'POST',
        path: '/api/users/auth/loginAs',
        respond: () =>
          jsonResponse({
            data: { idToken: 'view.as.token', idTokenPayload: buildPayload({ sub: SAM.user_id, email: SAM.email }) },
          }),
      },
      { method: 'GET', path: /^\/api\/users\/extension\/users\/[^/]+\/groups$/, respond: () => jsonResponse([buildGroup()]) },
    ]);
    const loginAs = screen.getByRole('button', { name: 'Login As' });
    expect(loginAs).toBeDisabled();
    await choosePerson(user);
    await user.type(screen.getByRole('textbox', { name: 'Reason (optional)' }), '  Support ticket 42  ');
    await user.click(loginAs);

    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/account/profile'));
    expect(api.callsTo('POST', '/api/users/auth/loginAs').map((call) => call.body)).toEqual([
      { orgId: RIVERSIDE_ID, email: SAM.email, reason: 'Support ticket 42' },
    ]);
  });

  it('refuses a reason the server would refuse, and sends nothing', async () => {
    const { api, user } = renderForm();
    await choosePerson(user);
    fireEvent.change(screen.getByRole('textbox', { name: 'Reason (optional)' }), { target: { value: 'Ticket\u000042' } });
    await user.click(screen.getByRole('button', { name: 'Login As' }));

    expect(await screen.findByText('Must not contain NUL characters')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Reason (optional)' })).toHaveAttribute('aria-invalid', 'true');
    expect(api.callsTo('POST', '/api/users/auth/loginAs')).toHaveLength(0);
  });
});
