import { COMMON_PASSWORD_TEXT, PASSWORD_POLICY_TEXT } from '@patientsim/domain/auth/password-policy';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { readLoginResult, writeLoginResult } from '../../../lib/session-store';
import { buildLoginResult, buildPayload } from '../../../testing/factories';
import { type FakeRoute, errorResponse, ok, stubApi } from '../../../testing/fake-api';
import { jsonResponse, renderWithRouter } from '../../../testing/render';
import { ChangePasswordForm, FIELDS_MISSING_MESSAGE, findChangePasswordProblem } from './change-password-form';

const PATH = '/api/users/account/change-password';

function renderForm(routes: FakeRoute[] = []) {
  writeLoginResult(buildLoginResult());
  const api = stubApi(routes);
  renderWithRouter(<ChangePasswordForm />);
  return { api, user: userEvent.setup() };
}

async function fill(user: ReturnType<typeof userEvent.setup>, values: [string, string, string]) {
  const [oldPassword, newPassword, confirmPassword] = values;
  if (oldPassword) await user.type(screen.getByLabelText(/^Old password/), oldPassword);
  if (newPassword) await user.type(screen.getByLabelText(/^New password/), newPassword);
  if (confirmPassword) await user.type(screen.getByLabelText(/^Confirm new password/), confirmPassword);
  await user.click(screen.getByRole('button', { name: 'Change password' }));
}

describe('findChangePasswordProblem', () => {
  it('wants all three fields, matching, and a strong new password', () => {
    expect(findChangePasswordProblem({ oldPassword: '', newPassword: 'Aa1aaaaa', confirmPassword: 'Aa1aaaaa' })).toBe('missing');
    expect(findChangePasswordProblem({ oldPassword: 'x', newPassword: 'Aa1aaaaa', confirmPassword: 'Aa1aaaab' })).toBe(
      'mismatch',
    );
    expect(findChangePasswordProblem({ oldPassword: 'x', newPassword: 'weakpass', confirmPassword: 'weakpass' })).toBe('weak');
    expect(findChangePasswordProblem({ oldPassword: 'x', newPassword: 'Aa1aaaaa', confirmPassword: 'Aa1aaaaa' })).toBeNull();
  });
});

describe('ChangePasswordForm', () => {
  it("says 'One or more fields is missing!' when a field is empty", async () => {
    const { api, user } = renderForm();
    await fill(user, ['Old-Pass-1', 'New-Pass-2026', '']);
    expect(await screen.findByRole('alert')).toHaveTextContent(FIELDS_MISSING_MESSAGE);
    expect(api.requests).toHaveLength(0);
  });

  it("says 'Passwords do not match!'", async () => {
    const { api, user } = renderForm();
    await fill(user, ['Old-Pass-1', 'New-Pass-2026', 'New-Pass-2027']);
    expect(await screen.findByRole('alert')).toHaveTextContent('Passwords do not match!');
    expect(api.requests).toHaveLength(0);
  });

  it('shows the weak-password rules before sending', async () => {
    const { api, user } = renderForm();
    await fill(user, ['Old-Pass-1', 'weakpassword', 'weakpassword']);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Password is too weak');
    expect(alert).toHaveTextContent(PASSWORD_POLICY_TEXT);
    expect(api.requests).toHaveLength(0);
  });

  it('shows the weak-password rules when the server answers invalid_password', async () => {
    const { user } = renderForm([
      { method: 'POST', path: PATH, respond: () => errorResponse(400, 'invalid_password', 'Password is too weak. x') },
    ]);
    await fill(user, ['Old-Pass-1', 'New-Pass-2026', 'New-Pass-2026']);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(PASSWORD_POLICY_TEXT);
  });

  it('says why when the server refuses a new password as too easy to guess', async () => {
    const { user } = renderForm([
      {
        method: 'POST',
        path: PATH,
        respond: () =>
          jsonResponse(
            { statusCode: 400, code: 'invalid_password', message: 'Password is too weak. x', details: { reason: 'common' } },
            400,
          ),
      },
    ]);
    await fill(user, ['Old-Pass-1', 'Password1', 'Password1']);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(PASSWORD_POLICY_TEXT);
    expect(alert).toHaveTextContent(COMMON_PASSWORD_TEXT);
  });

  it('shows the message of a wrong old password', async () => {
    const { user } = renderForm([
      { method: 'POST', path: PATH, respond: () => errorResponse(401, 'INVALID_CREDENTIALS', 'The old password is wrong.') },
    ]);
    await fill(user, ['Wrong-Pass-1', 'New-Pass-2026', 'New-Pass-2026']);
    expect(await screen.findByRole('alert')).toHaveTextContent('The old password is wrong.');
  });

  it('changes the password with the bearer and the session cookie, renews the token, then says so and clears the form', async () => {
    const { api, user } = renderForm([
      { method: 'POST', path: PATH, respond: ok },
      {
        method: 'POST',
        path: '/api/users/auth/token',
        respond: () => jsonResponse({ idToken: 'renewed.token', idTokenPayload: buildPayload() }),
      },
    ]);
    await fill(user, ['Old-Pass-1', 'New-Pass-2026', 'New-Pass-2026']);
    expect(await screen.findByText('Password changed successfully')).toBeInTheDocument();
    // Every session ended with the change: the token bound to the old one is replaced at once.
    expect(api.callsTo('POST', '/api/users/auth/token')).toHaveLength(1);
    expect(readLoginResult()?.idToken).toBe('renewed.token');
    const [request] = api.callsTo('POST', PATH);
    expect(request?.body).toEqual({ oldPassword: 'Old-Pass-1', newPassword: 'New-Pass-2026' });
    expect(request?.headers.get('Authorization')).toBe('Bearer header.payload.signature');
    expect(api.fetchMock.mock.calls[0]?.[1]?.credentials).toBe('same-origin');
    expect(screen.getByLabelText(/^Old password/)).toHaveValue('');
  });
});
