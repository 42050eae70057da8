import type { TwoFactorStatus } from '@patientsim/domain/auth/two-factor.schemas';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { readLoginResult, writeLoginResult } from '../../../lib/session-store';
import { buildLoginResult, buildPayload } from '../../../testing/factories';
import { type FakeRoute, errorResponse, ok, stubApi } from '../../../testing/fake-api';
import { jsonResponse, renderWithRouter } from '../../../testing/render';
import { SecuritySettings, VIEW_AS_SECURITY_MESSAGE } from './security-settings';

const STATUS = '/api/users/account/two-factor';

const LAPTOP = { id: 'passkey-1', name: 'Work laptop', createdAt: '2026-11-20T09:15:00.000Z' };
const PHONE = { id: 'passkey-2', name: 'Phone', createdAt: '2026-11-21T09:15:00.000Z' };

function renderSettings({
  status,
  routes = [],
  isViewAs = false,
}: {
  status: TwoFactorStatus;
  routes?: FakeRoute[];
  isViewAs?: boolean;
}) {
  writeLoginResult(buildLoginResult(isViewAs ? { act: { sub: 'super-1' } } : {}));
  let current = status;
  const api = stubApi([
    ...routes,
    { method: 'GET', path: STATUS, respond: () => jsonResponse(current) },
    {
      method: 'DELETE',
      path: /^\/api\/users\/account\/passkeys\/[^/]+$/,
      respond: (request) => {
        current = { ...current, passkeys: current.passkeys.filter((passkey) => !request.path.endsWith(`/${passkey.id}`)) };
        return ok();
      },
    },
  ]);
  renderWithRouter(<SecuritySettings />);
  return api;
}

describe('SecuritySettings', () => {
  it('shows the app, the recovery codes left, the passkeys and who requires a second factor', async () => {
    renderSettings({
      status: { totp: { enabled: true, recoveryCodesLeft: 8 }, passkeys: [LAPTOP], requiredBy: ['Riverside EMS'] },
    });
    const app = await screen.findByRole('region', { name: /Authenticator app/ });
    expect(within(app).getByText('On')).toBeInTheDocument();
    expect(within(app).getByText(/8 recovery codes left\./)).toBeInTheDocument();
    expect(screen.getByText(/Required by Riverside EMS\./)).toBeInTheDocument();
    const passkeys = screen.getByRole('list', { name: 'Your passkeys' });
    expect(within(passkeys).getByText('Work laptop')).toBeInTheDocument();
    expect(within(passkeys).getByText(/^Added /)).toBeInTheDocument();
  });

  it('sets up an app from a dialog, then renews the ID token: the server replaced the session', async () => {
    const api = renderSettings({
      status: { totp: { enabled: false, recoveryCodesLeft: 0 }, passkeys: [], requiredBy: [] },
      routes: [
        {
          method: 'POST',
          path: '/api/users/account/two-factor/totp',
          respond: () =>
            jsonResponse({
              totpUri: 'otpauth://totp/PatientSim:pat?secret=JBSWY3DPEHPK3PXPJBSWY3DP&issuer=PatientSim',
              recoveryCodes: ['aaaa-1111'],
            }),
        },
        { method: 'POST', path: '/api/users/account/two-factor/totp/verify', respond: () => ok() },
        {
          method: 'POST',
          path: '/api/users/auth/token',
          respond: () => jsonResponse({ idToken: 'renewed.token.value', idTokenPayload: buildPayload() }),
        },
        { method: 'GET', path: /^\/api\/users\/extension\/users\/[^/]+\/groups$/, respond: () => jsonResponse([]) },
      ],
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Set up' }));
    const dialog = screen.getByRole('dialog', { name: 'Set up an authenticator app' });
    await user.type(within(dialog).getByLabelText(/^Password/), 'Sim-Demo-2026');
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(await within(dialog).findByLabelText('Setup key')).toHaveTextContent('JBSWY3DPEHPK3PXPJBSWY3DP');
    await user.type(within(dialog).getByLabelText(/^6-digit code/), '123456');
    await user.click(within(dialog).getByRole('button', { name: 'Verify' }));
    await user.click(await within(dialog).findByLabelText('I have saved my recovery codes'));
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(await screen.findByText('Authenticator app set up.')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/users/auth/token')).toHaveLength(1);
    expect(readLoginResult()?.idToken).toBe('renewed.token.value');
  });

  it('shows the loading layout, then a failed read with Retry', async () => {
    let isDown = true;
    stubApi([
      {
        method: 'GET',
        path: STATUS,
        respond: () =>
          isDown
            ? errorResponse(403, 'FORBIDDEN', 'Not allowed.')
            : jsonResponse({ totp: { enabled: false, recoveryCodesLeft: 0 }, passkeys: [], requiredBy: [] }),
      },
    ]);
    writeLoginResult(buildLoginResult());
    renderWithRouter(<SecuritySettings />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading sign-in methods');
    expect(await screen.findByText(/An error occurred: Not allowed\./)).toBeInTheDocument();
    isDown = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('No passkeys yet.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Set up' })).toBeInTheDocument();
  });

  it('asks for the password before removing the app, and says clearly when it is the last required factor', async () => {
    const api = renderSettings({
      status: { totp: { enabled: true, recoveryCodesLeft: 10 }, passkeys: [], requiredBy: ['Riverside EMS'] },
      routes: [
        {
          method: 'POST',
          path: '/api/users/account/two-factor/totp/remove',
          respond: () =>
            errorResponse(
              422,
              'LAST_FACTOR_REQUIRED',
              'A second factor is required for your account, so your last one cannot be removed.',
            ),
        },
      ],
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Remove' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove the authenticator app' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await within(dialog).findByText('Enter your password')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText(/^Password/), 'Sim-Demo-2026');
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'A second factor is required for your account, so your last one cannot be removed.',
    );
    expect(api.callsTo('POST', '/api/users/account/two-factor/totp/remove')[0]?.body).toEqual({ password: 'Sim-Demo-2026' });
  });

  it('gets new recovery codes with the password and shows them once', async () => {
    renderSettings({
      status: { totp: { enabled: true, recoveryCodesLeft: 1 }, passkeys: [], requiredBy: [] },
      routes: [
        {
          method: 'POST',
          path: '/api/users/account/two-factor/recovery-codes',
          respond: () => jsonResponse({ recoveryCodes: ['new1-code', 'new2-code'] }),
        },
      ],
    });
    expect(await screen.findByText(/You are running out of recovery codes/)).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'New recovery codes' }));
    const dialog = screen.getByRole('dialog', { name: 'New recovery codes' });
    await user.type(within(dialog).getByLabelText(/^Password/), 'Sim-Demo-2026');
    await user.click(within(dialog).getByRole('button', { name: 'Get new codes' }));
    const codes = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(within(codes).getAllByRole('listitem')).toHaveLength(2);
    await user.click(screen.getByLabelText('I have saved my recovery codes'));
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(await screen.findByText('New recovery codes saved. The old ones no longer work.')).toBeInTheDocument();
  });

  it('removes a passkey after a confirmation naming it, and moves the focus to the next one', async () => {
    renderSettings({
      status: { totp: { enabled: true, recoveryCodesLeft: 10 }, passkeys: [LAPTOP, PHONE], requiredBy: [] },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Remove passkey Work laptop' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove passkey' });
    expect(dialog).toHaveTextContent('Remove the passkey “Work laptop”? You will no longer be able to sign in with it.');
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus());
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Passkey “Work laptop” removed.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Work laptop')).not.toBeInTheDocument());
    await waitFor(() => expect(screen.getByRole('button', { name: 'Remove passkey Phone' })).toHaveFocus());
  });

  it('shows nothing of the person while viewing PatientSim as them', () => {
    const api = renderSettings({
      status: { totp: { enabled: false, recoveryCodesLeft: 0 }, passkeys: [], requiredBy: [] },
      isViewAs: true,
    });
    expect(screen.getByText(VIEW_AS_SECURITY_MESSAGE)).toBeInTheDocument();
    expect(api.callsTo('GET', STATUS)).toHaveLength(0);
  });
});
