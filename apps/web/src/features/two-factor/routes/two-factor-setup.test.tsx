import type { TwoFactorStatus } from '@patientsim/domain/auth/two-factor.schemas';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeRoute, errorResponse, ok, stubApi } from '../../../testing/fake-api';
import { jsonResponse, renderRoutes } from '../../../testing/render';
import { TwoFactorSetupRoute } from './two-factor-setup';

/** The browser's passkey ceremony: a plain function (a `vi.fn`'s rejected promise is reported as unhandled). */
const browser = vi.hoisted(() => ({ calls: [] as unknown[] }));
vi.mock('@simplewebauthn/browser', () => ({
  startRegistration: (options: unknown) => {
    browser.calls.push(options);
    return Promise.resolve({ id: 'credential-1', type: 'public-key' });
  },
  startAuthentication: () => Promise.reject(new Error('not used')),
}));

const STATUS = '/api/users/account/two-factor';
const NEXT = '/auth/callback?redirectUrl=%2Fauth%2Forg%2Fgroups';
const URI = 'otpauth://totp/PatientSim:pat%40example.test?secret=JBSWY3DPEHPK3PXP&issuer=PatientSim';

const NONE: TwoFactorStatus = {
  totp: { enabled: false, recoveryCodesLeft: 0 },
  passkeys: [],
  requiredBy: ['Riverside EMS'],
};

function renderSetup(routes: FakeRoute[]) {
  let status = NONE;
  const api = stubApi([
    ...routes,
    { method: 'GET', path: STATUS, respond: () => jsonResponse(status) },
    {
      method: 'POST',
      path: '/api/users/account/two-factor/totp/verify',
      respond: () => {
        status = { ...status, totp: { enabled: true, recoveryCodesLeft: 2 } };
        return ok();
      },
    },
    {
      method: 'POST',
      path: '/api/users/account/passkeys',
      respond: (request) => {
        const passkey = { id: 'passkey-1', name: (request.body as { name: string }).name, createdAt: '2026-11-28T08:00:00.000Z' };
        status = { ...status, passkeys: [passkey] };
        return jsonResponse(passkey);
      },
    },
  ]);
  const view = renderRoutes(
    [
      { path: '/two-factor/setup', element: <TwoFactorSetupRoute /> },
      { path: '/callback', element: <p>Callback</p> },
      { path: '/login', element: null },
    ],
    `/auth/two-factor/setup?${new URLSearchParams({ next: NEXT }).toString()}`,
  );
  return { ...view, api };
}

beforeEach(() => {
  browser.calls = [];
});

describe('/two-factor/setup', () => {
  it('says who requires it, sets up an app with its QR code and key, shows the recovery codes once, then goes back', async () => {
    const { router, api } = renderSetup([
      {
        method: 'POST',
        path: '/api/users/account/two-factor/totp',
        respond: (request) =>
          (request.body as { password: string }).password === 'right-password'
            ? jsonResponse({ totpUri: URI, recoveryCodes: ['aaaa-1111', 'bbbb-2222'] })
            : errorResponse(403, 'CURRENT_PASSWORD_WRONG', 'The current password is wrong.'),
      },
    ]);
    expect(await screen.findByText(/Riverside EMS requires a second step when you sign in/)).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Set up two-step verification' })).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Use an authenticator app' }));

    const password = screen.getByLabelText(/^Password/);
    await user.type(password, 'wrong');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('The current password is wrong.')).toBeInTheDocument();
    expect(password).toHaveAttribute('aria-invalid', 'true');
    await user.clear(password);
    await user.type(password, 'right-password');
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    expect(await screen.findByRole('img', { name: /QR code to scan with your authenticator app/ })).toHaveAttribute(
      'src',
      expect.stringMatching(/^data:image\/svg\+xml/),
    );
    expect(screen.getByLabelText('Setup key')).toHaveTextContent('JBSWY3DPEHPK3PXP');
    const code = screen.getByLabelText(/^6-digit code/);
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    await user.type(code, '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));

    const codes = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(
      within(codes)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['aaaa-1111', 'bbbb-2222']);
    expect(screen.getByRole('button', { name: 'Download' })).toBeInTheDocument();
    // No way round the codes: nothing else to choose, and Continue waits for the checkbox.
    expect(screen.queryByRole('button', { name: 'Choose another method' })).not.toBeInTheDocument();
    const next = screen.getByRole('button', { name: 'Continue' });
    expect(next).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(await screen.findByRole('button', { name: 'Copied' })).toBeInTheDocument();
    await user.click(screen.getByLabelText('I have saved my recovery codes'));
    await user.click(next);

    await waitFor(() => expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(NEXT));
    expect(api.callsTo('POST', '/api/users/account/two-factor/totp/verify')[0]?.body).toEqual({ code: '123456' });
  });

  it('adds a passkey with a name, then goes back', async () => {
    const { router, api } = renderSetup([
      { method: 'POST', path: '/api/users/account/passkeys/options', respond: () => jsonResponse({ challenge: 'r' }) },
    ]);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Use a passkey' }));
    await user.click(screen.getByRole('button', { name: 'Add passkey' }));
    expect(await screen.findByText('Name the passkey')).toBeInTheDocument();
    await user.type(screen.getByLabelText(/^Passkey name/), 'Work laptop');
    await user.click(screen.getByRole('button', { name: 'Add passkey' }));

    expect(await screen.findByText(/Your passkey is added/)).toBeInTheDocument();
    expect(browser.calls).toEqual([{ optionsJSON: { challenge: 'r' } }]);
    expect(api.callsTo('POST', '/api/users/account/passkeys')[0]?.body).toEqual({
      name: 'Work laptop',
      response: { id: 'credential-1', type: 'public-key' },
    });
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/callback'));
  });

  it('shows a failed read with Retry', async () => {
    let isDown = true;
    stubApi([
      {
        method: 'GET',
        path: STATUS,
        respond: () => (isDown ? errorResponse(503, 'SERVER_BUSY', 'The server is busy.') : jsonResponse(NONE)),
      },
    ]);
    renderRoutes([{ path: '/two-factor/setup', element: <TwoFactorSetupRoute /> }], '/auth/two-factor/setup');
    expect(await screen.findByText('The server is busy.', {}, { timeout: 15_000 })).toBeInTheDocument();
    isDown = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('button', { name: 'Use an authenticator app' })).toBeInTheDocument();
  });
});
