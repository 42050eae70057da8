import { PASSWORD_POLICY_TEXT } from '@patientsim/domain/auth/password-policy';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithRouter, requestBodyOf, requestUrlOf } from '../../../testing/render';
import { InviteSignupForm, VERIFICATION_EMAIL_SENT_MESSAGE } from './invite-signup-form';

function renderForm() {
  const onSignedUp = vi.fn();
  renderWithRouter(<InviteSignupForm token="invite-token-123" email="new@demo.test" onSignedUp={onSignedUp} />);
  return { onSignedUp, user: userEvent.setup() };
}

async function fill(user: ReturnType<typeof userEvent.setup>, password: string) {
  await user.type(screen.getByLabelText(/^First name/), 'Nia');
  await user.type(screen.getByLabelText(/^Last name/), 'Newcomer');
  await user.type(screen.getByLabelText(/^Password/), password);
  await user.click(screen.getByRole('button', { name: 'Sign Up' }));
}

describe('InviteSignupForm', () => {
  it('shows the e-mail of the invitation read-only and no account-type choice', () => {
    renderForm();
    expect(screen.getByLabelText('Email')).toHaveValue('new@demo.test');
    expect(screen.getByLabelText('Email')).toHaveAttribute('readonly');
    expect(screen.queryByLabelText(/Account type/)).not.toBeInTheDocument();
  });

  it('refuses a weak password with the policy text, before calling the server', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    const { user } = renderForm();

    await fill(user, 'alllowercase');

    const message = await screen.findByText('Password is too weak');
    expect(message.closest('p')).toHaveTextContent(PASSWORD_POLICY_TEXT);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows the weak password text when the server answers invalid_password', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse({ statusCode: 400, code: 'invalid_password', message: 'Password is too weak' }, 400)),
    );
    const { user, onSignedUp } = renderForm();

    await fill(user, 'Strong-Pass-1');

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Password is too weak');
    expect(alert).toHaveTextContent(PASSWORD_POLICY_TEXT);
    expect(onSignedUp).not.toHaveBeenCalled();
  });

  it('signs up with the token, the invited e-mail and trimmed names', async () => {
    const fetchMock = vi.fn(async () => jsonResponse({ user: { id: 'u9', email: 'new@demo.test', emailVerified: true } }));
    vi.stubGlobal('fetch', fetchMock);
    const { user, onSignedUp } = renderForm();

    await fill(user, 'Strong-Pass-1');

    await waitFor(() => expect(onSignedUp).toHaveBeenCalledTimes(1));
    expect(requestUrlOf(fetchMock)).toBe('/api/users/auth/sign-up');
    expect(requestBodyOf(fetchMock)).toEqual({
      token: 'invite-token-123',
      email: 'new@demo.test',
      given_name: 'Nia',
      family_name: 'Newcomer',
      password: 'Strong-Pass-1',
    });
  });

  it('without an invitation token registers the account and says a verification e-mail was sent', async () => {
    const fetchMock = vi.fn(async () => jsonResponse({ ok: true }));
    vi.stubGlobal('fetch', fetchMock);
    const onSignedUp = vi.fn();
    renderWithRouter(<InviteSignupForm token={null} email="new@demo.test" onSignedUp={onSignedUp} />);
    await fill(userEvent.setup(), 'Fresh-Pass-2026');
    expect(await screen.findByRole('status')).toHaveTextContent(VERIFICATION_EMAIL_SENT_MESSAGE);
    expect(requestUrlOf(fetchMock)).toBe('/api/users/auth/register');
    expect(requestBodyOf(fetchMock)).toEqual({
      email: 'new@demo.test',
      given_name: 'Nia',
      family_name: 'Newcomer',
      password: 'Fresh-Pass-2026',
    });
    expect(onSignedUp).not.toHaveBeenCalled();
  });
});
