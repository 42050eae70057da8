import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithRouter, requestBodyOf } from '../../../testing/render';
import { PASSWORD_CHANGED_MESSAGE } from '../../../components/weak-password-message';
import { NewPasswordForm } from './new-password-form';

describe('NewPasswordForm', () => {
  it('requires matching passwords', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    renderWithRouter(<NewPasswordForm token="reset-token-123" />);

    await user.type(screen.getByLabelText(/^New password/), 'Strong-Pass-1');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'Strong-Pass-2');
    await user.click(screen.getByRole('button', { name: 'Change password' }));

    expect(await screen.findByText('Passwords do not match!')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sets the new password with the token', async () => {
    const fetchMock = vi.fn(async () => jsonResponse({ ok: true }));
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    renderWithRouter(<NewPasswordForm token="reset-token-123" />);

    await user.type(screen.getByLabelText(/^New password/), 'Strong-Pass-1');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'Strong-Pass-1');
    await user.click(screen.getByRole('button', { name: 'Change password' }));

    expect(await screen.findByText(PASSWORD_CHANGED_MESSAGE)).toBeInTheDocument();
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(requestBodyOf(fetchMock)).toEqual({ token: 'reset-token-123', newPassword: 'Strong-Pass-1' });
  });

  it('shows the message of an invalid reset link', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        jsonResponse(
          { statusCode: 400, code: 'RESET_TOKEN_INVALID', message: 'The password reset link is invalid or has expired.' },
          400,
        ),
      ),
    );
    const user = userEvent.setup();
    renderWithRouter(<NewPasswordForm token="reset-token-123" />);

    await user.type(screen.getByLabelText(/^New password/), 'Strong-Pass-1');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'Strong-Pass-1');
    await user.click(screen.getByRole('button', { name: 'Change password' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('The password reset link is invalid or has expired.');
    expect(screen.getByRole('link', { name: 'Send a new reset email' })).toHaveAttribute('href', '/auth/reset-password');
  });
});
