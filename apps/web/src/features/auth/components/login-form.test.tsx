import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithRouter, requestBodyOf, requestUrlOf } from '../../../testing/render';
import { LoginForm } from './login-form';

function renderForm() {
  const onSignedIn = vi.fn();
  renderWithRouter(<LoginForm onSignedIn={onSignedIn} />);
  return { onSignedIn, user: userEvent.setup() };
}

describe('LoginForm', () => {
  it('requires a password', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    const { user } = renderForm();

    await user.type(screen.getByLabelText(/^Email/), 'owner@demo.test');
    await user.click(screen.getByRole('button', { name: 'Log In' }));

    const message = await screen.findByText('Must specify a password.');
    expect(message).toHaveClass('Mui-error');
    expect(screen.getByLabelText(/^Password/)).toHaveAttribute('aria-invalid', 'true');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('focuses the first invalid field, then checks each change once the form was submitted', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    const { user } = renderForm();

    await user.click(screen.getByRole('button', { name: 'Log In' }));

    expect(await screen.findByText('Invalid email address')).toHaveClass('Mui-error');
    expect(screen.getByText('Must specify a password.')).toHaveClass('Mui-error');
    expect(screen.getByLabelText(/^Email/)).toHaveFocus();

    await user.type(screen.getByLabelText(/^Email/), 'owner@demo.test');
    await waitFor(() => expect(screen.queryByText('Invalid email address')).not.toBeInTheDocument());
    expect(screen.getByLabelText(/^Email/)).toHaveAttribute('aria-invalid', 'false');
    // The other field keeps its message until it changes.
    expect(screen.getByText('Must specify a password.')).toBeInTheDocument();
    await user.type(screen.getByLabelText(/^Password/), 'x');
    await waitFor(() => expect(screen.queryByText('Must specify a password.')).not.toBeInTheDocument());
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('signs in with the trimmed e-mail and reports success', async () => {
    const fetchMock = vi.fn(async () =>
      jsonResponse({ user: { id: 'u1', email: 'owner@demo.test', emailVerified: true }, licenseToken: null }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const { user, onSignedIn } = renderForm();

    await user.type(screen.getByLabelText(/^Email/), '  owner@demo.test ');
    await user.type(screen.getByLabelText(/^Password/), 'Sim-Demo-2026');
    await user.click(screen.getByRole('button', { name: 'Log In' }));

    await waitFor(() => expect(onSignedIn).toHaveBeenCalledTimes(1));
    expect(requestUrlOf(fetchMock)).toBe('/api/users/auth/sign-in');
    expect(requestBodyOf(fetchMock)).toEqual({ email: 'owner@demo.test', password: 'Sim-Demo-2026' });
  });

  it('shows the server message in red on wrong credentials', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse({ statusCode: 401, code: 'INVALID_CREDENTIALS', message: 'Wrong email or password.' }, 401)),
    );
    const { user, onSignedIn } = renderForm();

    await user.type(screen.getByLabelText(/^Email/), 'owner@demo.test');
    await user.type(screen.getByLabelText(/^Password/), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Log In' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Wrong email or password.');
    expect(alert).toHaveClass('MuiAlert-colorError');
    expect(onSignedIn).not.toHaveBeenCalled();
  });

  it('asks to try later when rate limited', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse({ statusCode: 429, code: 'RATE_LIMITED', message: 'x' }, 429, { 'Retry-After': '60' })),
    );
    const { user } = renderForm();

    await user.type(screen.getByLabelText(/^Email/), 'owner@demo.test');
    await user.type(screen.getByLabelText(/^Password/), 'whatever');
    await user.click(screen.getByRole('button', { name: 'Log In' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Too many attempts. Please try again later.');
  });

  it('asks to try again shortly when the server is too busy to check the password', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse({ statusCode: 503, code: 'SERVER_BUSY', message: 'x' }, 503, { 'Retry-After': '2' })),
    );
    const { user, onSignedIn } = renderForm();

    await user.type(screen.getByLabelText(/^Email/), 'owner@demo.test');
    await user.type(screen.getByLabelText(/^Password/), 'Sim-Demo-2026');
    await user.click(screen.getByRole('button', { name: 'Log In' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The server is busy. Please try again shortly.');
    expect(alert).toHaveClass('MuiAlert-colorError');
    expect(onSignedIn).not.toHaveBeenCalled();
  });

  it.each([
    ['429 with Retry-After', new Response('<html>Too Many Requests</html>', { status: 429, headers: { 'Retry-After': '5' } })],
    ['503', new Response('<html>Service Unavailable</html>', { status: 503 })],
  ])('says the same when a proxy in front of the server answers %s', async (_status, response) => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => response),
    );
    const { user } = renderForm();

    await user.type(screen.getByLabelText(/^Email/), 'owner@demo.test');
    await user.type(screen.getByLabelText(/^Password/), 'Sim-Demo-2026');
    await user.click(screen.getByRole('button', { name: 'Log In' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('The server is busy. Please try again shortly.');
  });

  it('shows and hides the password', async () => {
    const { user } = renderForm();
    const password = screen.getByLabelText(/^Password/);
    expect(password).toHaveAttribute('type', 'password');
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password).toHaveAttribute('type', 'text');
    expect(screen.getByRole('button', { name: 'Hide password' })).toBeInTheDocument();
  });
});
