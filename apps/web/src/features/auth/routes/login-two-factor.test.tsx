import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { errorResponse, stubApi } from '../../../testing/fake-api';
import { jsonResponse, renderRoutes } from '../../../testing/render';
import { LoginRoute } from './login';
import { LoginTwoFactorRoute } from './login-two-factor';

/**
 * The browser's passkey ceremony. A plain function rather than `vi.fn`: a mock's rejected promise is
 * reported as unhandled by the test runner even once the page has handled it.
 */
const browser = vi.hoisted(() => ({
  calls: [] as unknown[],
  authenticate: (): Promise<unknown> => Promise.resolve({}),
}));
vi.mock('@simplewebauthn/browser', () => ({
  startAuthentication: (options: unknown) => {
    browser.calls.push(options);
    return browser.authenticate();
  },
  startRegistration: () => Promise.reject(new Error('not used')),
}));

const SIGNED_IN = { user: { id: 'user-1', email: 'two@example.test', emailVerified: true }, licenseToken: null };
const TWO_FACTOR = '/api/users/auth/sign-in/two-factor';

function renderStep(path: string) {
  return renderRoutes(
    [
      { path: '/login', element: <LoginRoute /> },
      { path: '/login/two-factor', element: <LoginTwoFactorRoute /> },
      { path: '/license', element: null },
      { path: '/callback', element: null },
    ],
    path,
  );
}

function pathOf(router: ReturnType<typeof renderRoutes>['router']) {
  const { pathname, search } = router.state.location;
  return `${pathname}${search}`;
}

beforeEach(() => {
  browser.calls = [];
});

describe('/login/two-factor', () => {
  it('signs in with the code of the app and goes on to the callback with the redirectUrl', async () => {
    const api = stubApi([{ method: 'POST', path: TWO_FACTOR, respond: () => jsonResponse(SIGNED_IN) }]);
    const { router } = renderStep('/auth/login/two-factor?methods=totp&redirectUrl=%2Fauth%2Forg%2Fgroups');
    expect(screen.getByRole('heading', { level: 1, name: 'Two-step verification' })).toBeInTheDocument();
    const field = screen.getByLabelText(/^6-digit code/);
    expect(field).toHaveAttribute('autocomplete', 'one-time-code');
    expect(field).toHaveAttribute('inputmode', 'numeric');
    // No passkey enrolled: no passkey button.
    expect(screen.queryByRole('button', { name: 'Use a passkey' })).not.toBeInTheDocument();

    const user = userEvent.setup();
    await user.type(field, '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(pathOf(router)).toBe('/auth/callback?redirectUrl=%2Fauth%2Forg%2Fgroups'));
    expect(api.callsTo('POST', TWO_FACTOR)[0]?.body).toEqual({ kind: 'totp', code: '123456' });
  });

  it('checks the code before sending it, and shows a wrong code on the field', async () => {
    const api = stubApi([
      {
        method: 'POST',
        path: TWO_FACTOR,
        respond: () => errorResponse(401, 'SECOND_FACTOR_INVALID', 'That code is not valid. Check it and try again.'),
      },
    ]);
    renderStep('/auth/login/two-factor?methods=totp');
    const user = userEvent.setup();
    const field = screen.getByLabelText(/^6-digit code/);
    await user.type(field, '12ab');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Enter the 6-digit code from your authenticator app')).toBeInTheDocument();
    expect(api.callsTo('POST', TWO_FACTOR)).toHaveLength(0);

    await user.clear(field);
    await user.type(field, '654321');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('That code is not valid. Check it and try again.')).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveFocus();
  });

  it('switches to a recovery code, then to the license screen when the license is still to accept', async () => {
    const api = stubApi([
      { method: 'POST', path: TWO_FACTOR, respond: () => jsonResponse({ ...SIGNED_IN, licenseToken: 'license-1' }) },
    ]);
    const { router } = renderStep('/auth/login/two-factor?methods=totp');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Use a recovery code instead' }));
    const field = screen.getByLabelText(/^Recovery code/);
    expect(field).toHaveFocus();
    await user.type(field, 'abcd-efgh');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/license'));
    expect(new URLSearchParams(router.state.location.search).get('next')).toBe('/auth/callback');
    expect(api.callsTo('POST', TWO_FACTOR)[0]?.body).toEqual({ kind: 'recovery', code: 'abcd-efgh' });
  });

  it('sends an expired sign-in back to the password step with a notice, keeping the authorization request', async () => {
    stubApi([
      {
        method: 'POST',
        path: TWO_FACTOR,
        respond: () => errorResponse(401, 'SECOND_FACTOR_EXPIRED', 'Your sign-in has expired. Please sign in again.'),
      },
    ]);
    const oauthQuery = 'client_id=app&state=s&sig=abc';
    const { router } = renderStep(`/auth/login/two-factor?${new URLSearchParams({ methods: 'totp', oauthQuery }).toString()}`);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/^6-digit code/), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(pathOf(router)).toBe(`/auth/login?${oauthQuery}`));
    expect(await screen.findByRole('status')).toHaveTextContent('Your sign-in has expired. Please sign in again.');
  });

  it('signs in with a passkey', async () => {
    browser.authenticate = () => Promise.resolve({ id: 'credential-1', type: 'public-key' });
    const api = stubApi([
      { method: 'POST', path: '/api/users/auth/sign-in/passkey/options', respond: () => jsonResponse({ challenge: 'c' }) },
      { method: 'POST', path: '/api/users/auth/sign-in/passkey', respond: () => jsonResponse(SIGNED_IN) },
    ]);
    const { router } = renderStep('/auth/login/two-factor?methods=passkey');
    // Only a passkey: no code to type.
    expect(screen.queryByLabelText(/^6-digit code/)).not.toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Use a passkey' }));
    await waitFor(() => expect(pathOf(router)).toBe('/auth/callback'));
    expect(browser.calls).toEqual([{ optionsJSON: { challenge: 'c' } }]);
    expect(api.callsTo('POST', '/api/users/auth/sign-in/passkey')[0]?.body).toEqual({
      response: { id: 'credential-1', type: 'public-key' },
    });
  });

  it('says so when the passkey was cancelled, and the code still works', async () => {
    browser.authenticate = () => Promise.reject(new DOMException('The operation was cancelled.', 'NotAllowedError'));
    stubApi([
      { method: 'POST', path: '/api/users/auth/sign-in/passkey/options', respond: () => jsonResponse({ challenge: 'c' }) },
    ]);
    renderStep('/auth/login/two-factor?methods=totp,passkey');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Use a passkey' }));
    expect(await screen.findByText(/The passkey was not used/)).toBeInTheDocument();
    expect(screen.getByLabelText(/^6-digit code/)).toBeEnabled();
  });

  it('says how long to wait when there were too many attempts', async () => {
    stubApi([
      {
        method: 'POST',
        path: TWO_FACTOR,
        respond: () =>
          jsonResponse({ statusCode: 429, code: 'RATE_LIMITED', message: 'Too many attempts. Please try again later.' }, 429, {
            'Retry-After': '120',
          }),
      },
    ]);
    renderStep('/auth/login/two-factor?methods=totp');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/^6-digit code/), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many attempts. Try again in 2 minutes.');
  });
});
