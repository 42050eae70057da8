import { ERROR_CODES } from '@patientsim/domain/errors/error-codes';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { type FakeRoute, errorResponse, stubApi } from '../../../testing/fake-api';
import { jsonResponse, renderRoutes } from '../../../testing/render';
import { RECLAIM_INTRO, RECLAIM_MISSING_TOKEN_MESSAGE, ReclaimEmailRoute, reclaimedMessage } from './reclaim-email';

const TOKEN = 'reclaim-token-123';
const EMAIL = 'old.address@example.test';

function renderPage(routes: FakeRoute[], path = `/auth/reclaim-email?token=${TOKEN}`) {
  const api = stubApi(routes, { withShell: false });
  const view = renderRoutes([{ path: '/reclaim-email', element: <ReclaimEmailRoute /> }], path);
  return { ...view, api, user: userEvent.setup() };
}

const reclaimRoute = (respond: FakeRoute['respond']): FakeRoute => ({
  method: 'POST',
  path: '/api/users/account/reclaim-email',
  respond,
});

describe('/reclaim-email', () => {
  it('says the link is incomplete without a token, and sends nothing', () => {
    const { api } = renderPage([], '/auth/reclaim-email');
    expect(screen.getByRole('alert')).toHaveTextContent(RECLAIM_MISSING_TOKEN_MESSAGE);
    expect(api.requests).toHaveLength(0);
  });

  it('takes nothing back until the button is pressed (a mail scanner opening the link uses nothing up)', async () => {
    const { api } = renderPage([reclaimRoute(() => jsonResponse({ email: EMAIL, resetToken: 'reset-token-1' }))]);
    expect(await screen.findByText(RECLAIM_INTRO)).toBeInTheDocument();
    expect(api.requests).toHaveLength(0);
  });

  it('takes the account back, then asks for a new password with the reset token it was given', async () => {
    const { api, user } = renderPage([
      reclaimRoute(() => jsonResponse({ email: EMAIL, resetToken: 'reset-token-1' })),
      { method: 'POST', path: '/api/users/auth/reset-password', respond: () => jsonResponse({ ok: true }) },
    ]);
    await user.click(await screen.findByRole('button', { name: 'Take my account back' }));
    expect(await screen.findByRole('status')).toHaveTextContent(reclaimedMessage(EMAIL));
    expect(api.callsTo('POST', '/api/users/account/reclaim-email')[0]?.body).toEqual({ token: TOKEN });

    await user.type(screen.getByLabelText(/^New password/), 'Taken-Back-2026');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'Taken-Back-2026');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Password changed successfully')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/users/auth/reset-password')[0]?.body).toEqual({
      token: 'reset-token-1',
      newPassword: 'Taken-Back-2026',
    });
  });

  it('says why a used or expired link cannot take the account back', async () => {
    const { message } = ERROR_CODES.RECLAIM_TOKEN_INVALID;
    const { user } = renderPage([reclaimRoute(() => errorResponse(400, 'RECLAIM_TOKEN_INVALID', message))]);
    await user.click(await screen.findByRole('button', { name: 'Take my account back' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.queryByLabelText(/^New password/)).not.toBeInTheDocument();
  });
});
