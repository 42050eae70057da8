import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../../testing/fake-api';
import { jsonResponse, renderRoutes } from '../../../testing/render';
import { LoginRoute } from './login';

const SIGNED_IN_USER = { id: 'user-1', email: 'new@example.test', emailVerified: true };

/** Signs in through the form, the server answering `answer`; returns the router and the fake API. */
async function signInAnswered(answer: unknown, start = '/auth/login') {
  const api = stubApi([{ method: 'POST', path: '/api/users/auth/sign-in', respond: () => jsonResponse(answer) }]);
  const { router } = renderRoutes(
    [
      { path: '/login', element: <LoginRoute /> },
      { path: '/license', element: null },
      { path: '/callback', element: null },
      { path: '/login/two-factor', element: null },
    ],
    start,
  );
  const user = userEvent.setup();
  await user.type(screen.getByLabelText(/^Email/), 'new@example.test');
  await user.type(screen.getByLabelText(/^Password/), 'Sim-Demo-2026');
  await user.click(screen.getByRole('button', { name: 'Log In' }));
  return { router, api };
}

describe('/login', () => {
  it('shows the notice a logout left for it (an e-mail change)', async () => {
    const { router } = renderRoutes(
      [
        { path: '/login', element: <LoginRoute /> },
        { path: '/x', element: null },
      ],
      '/auth/x',
    );
    await router.navigate('/auth/login', { state: { notice: 'Verification email sent to new address' } });
    expect(await screen.findByRole('status')).toHaveTextContent('Verification email sent to new address');
  });

  it('shows no notice otherwise', () => {
    renderRoutes([{ path: '/login', element: <LoginRoute /> }], '/auth/login');
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('goes to the license screen at once when the license is still to accept, then on to the callback', async () => {
    const { router, api } = await signInAnswered(
      { user: SIGNED_IN_USER, licenseToken: 'license-token-value' },
      '/auth/login?redirectUrl=%2Fauth%2Forg%2Fgroups',
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/license'));
    const query = new URLSearchParams(router.state.location.search);
    expect(query.get('token')).toBe('license-token-value');
    expect(query.get('next')).toBe('/auth/callback?redirectUrl=%2Fauth%2Forg%2Fgroups');
    // The ID token is not asked for: it would be refused until the license is accepted.
    expect(api.callsTo('POST', '/api/users/auth/token')).toHaveLength(0);
  });

  it('goes to the callback when the license is accepted', async () => {
    const { router } = await signInAnswered({ user: SIGNED_IN_USER, licenseToken: null });
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/callback'));
  });

  it('asks for the second factor when the account has one, carrying the redirectUrl (no session yet)', async () => {
    const { router, api } = await signInAnswered(
      { secondFactor: { methods: ['totp', 'passkey'] } },
      '/auth/login?redirectUrl=%2Fauth%2Forg%2Fgroups',
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login/two-factor'));
    const query = new URLSearchParams(router.state.location.search);
    expect(query.get('methods')).toBe('totp,passkey');
    expect(query.get('redirectUrl')).toBe('/auth/org/groups');
    expect(api.callsTo('POST', '/api/users/auth/token')).toHaveLength(0);
  });
});
