import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { readLoginResult, writeLoginResult } from '../../../lib/session-store';
import { readLoginNotice } from '../../../lib/logout';
import { buildLoginResult, buildPayload } from '../../../testing/factories';
import { type FakeRoute, errorResponse, stubApi } from '../../../testing/fake-api';
import { jsonResponse, renderRoutes } from '../../../testing/render';
import {
  EMAIL_CHANGE_TITLE,
  EMAIL_CHANGE_WARNING,
  NOTHING_TO_SAVE_MESSAGE,
  PROFILE_SAVED_MESSAGE,
  ProfileForm,
  VERIFICATION_SENT_TO_NEW_ADDRESS_MESSAGE,
  profileChanges,
} from './profile-form';

const SAVED = { given_name: 'Ada', family_name: 'Admin', email: 'admin@demo.test' };
const PATCH_PATH = '/api/users/users/user-1';

function profileAnswer(overrides: Record<string, unknown> = {}): FakeRoute {
  return {
    method: 'PATCH',
    path: PATCH_PATH,
    respond: ({ body }) =>
      jsonResponse({ user_id: 'user-1', email_verified: true, emailChanged: false, ...SAVED, ...(body as object), ...overrides }),
  };
}

function renderForm(routes: FakeRoute[]) {
  writeLoginResult(buildLoginResult());
  const api = stubApi(routes);
  const view = renderRoutes(
    [
      { path: '/account/profile', element: <ProfileForm userId="user-1" saved={SAVED} /> },
      { path: '/login', element: <p>Login page</p> },
    ],
    '/auth/account/profile',
  );
  return { ...view, api, user: userEvent.setup() };
}

describe('profileChanges', () => {
  it('keeps only the fields that differ; the e-mail compared case-insensitively', () => {
    expect(profileChanges(SAVED, SAVED)).toEqual({});
    expect(profileChanges(SAVED, { ...SAVED, given_name: 'Bea' })).toEqual({ given_name: 'Bea' });
    expect(profileChanges({ ...SAVED, email: 'Admin@Demo.test' }, SAVED)).toEqual({});
    expect(profileChanges(SAVED, { ...SAVED, email: 'new@demo.test' })).toEqual({ email: 'new@demo.test' });
  });
});

describe('ProfileForm', () => {
  it('sends nothing when nothing changed (spaces trimmed)', async () => {
    const { api, user } = renderForm([profileAnswer()]);
    await user.type(screen.getByLabelText(/^First name/), '  ');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(NOTHING_TO_SAVE_MESSAGE)).toBeInTheDocument();
    expect(api.requests).toHaveLength(0);
  });

  it('sends only the changed names, trimmed, then renews the token so the app shows them', async () => {
    const { api, user } = renderForm([
      profileAnswer(),
      {
        method: 'POST',
        path: '/api/users/auth/token',
        respond: () => jsonResponse({ idToken: 'renewed.token', idTokenPayload: buildPayload({ given_name: 'Bea' }) }),
      },
    ]);
    const first = screen.getByLabelText(/^First name/);
    await user.clear(first);
    await user.type(first, '  Bea ');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText(PROFILE_SAVED_MESSAGE)).toBeInTheDocument();
    const [patch] = api.callsTo('PATCH', PATCH_PATH);
    expect(patch?.body).toEqual({ given_name: 'Bea' });
    expect(patch?.headers.get('Authorization')).toBe('Bearer header.payload.signature');
    expect(api.callsTo('POST', '/api/users/auth/token')).toHaveLength(1);
    expect(readLoginResult()?.idTokenPayload.given_name).toBe('Bea');
  });

  it('asks before changing the e-mail; on accept saves, logs out and says a verification e-mail was sent', async () => {
    const { api, user, router } = renderForm([profileAnswer({ emailChanged: true, email_verified: false })]);
    const email = screen.getByLabelText(/^Email/);
    await user.clear(email);
    await user.type(email, ' New.Address@Demo.test ');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    const dialog = await screen.findByRole('dialog', { name: EMAIL_CHANGE_TITLE });
    expect(dialog).toHaveTextContent(EMAIL_CHANGE_WARNING);
    expect(api.callsTo('PATCH', PATCH_PATH)).toHaveLength(0);
    // The change needs the current password: Accept stays disabled until it is typed.
    expect(within(dialog).getByRole('button', { name: 'Accept' })).toBeDisabled();
    await user.type(within(dialog).getByLabelText(/^Current password/), 'Sim-Demo-2026');
    await user.click(within(dialog).getByRole('button', { name: 'Accept' }));

    expect(await screen.findByText('Login page')).toBeInTheDocument();
    expect(api.callsTo('PATCH', PATCH_PATH)[0]?.body).toEqual({
      email: 'new.address@demo.test',
      currentPassword: 'Sim-Demo-2026',
    });
    expect(api.callsTo('POST', '/api/users/auth/token')).toHaveLength(0);
    expect(readLoginResult()).toBeNull();
    expect(readLoginNotice(router.state.location.state)).toBe(VERIFICATION_SENT_TO_NEW_ADDRESS_MESSAGE);
  });

  it('sends nothing when the e-mail change is cancelled', async () => {
    const { api, user } = renderForm([profileAnswer()]);
    const email = screen.getByLabelText(/^Email/);
    await user.clear(email);
    await user.type(email, 'new@demo.test');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.requests).toHaveLength(0);
  });

  it('keeps the dialog open and says so when the current password is wrong, and stays signed in', async () => {
    const { api, user } = renderForm([
      {
        method: 'PATCH',
        path: PATCH_PATH,
        respond: () => errorResponse(403, 'CURRENT_PASSWORD_WRONG', 'The current password is wrong.'),
      },
    ]);
    const email = screen.getByLabelText(/^Email/);
    await user.clear(email);
    await user.type(email, 'owner@demo.test');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('dialog', { name: EMAIL_CHANGE_TITLE });
    await user.type(within(dialog).getByLabelText(/^Current password/), 'Wrong-Pass-1');
    await user.click(within(dialog).getByRole('button', { name: 'Accept' }));

    expect(await within(dialog).findByText('The current password is wrong.')).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/^Current password/)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('dialog', { name: EMAIL_CHANGE_TITLE })).toBeInTheDocument();
    expect(api.callsTo('PATCH', PATCH_PATH)).toHaveLength(1);
    expect(readLoginResult()).not.toBeNull();
  });

  it('refuses an empty name and an invalid address before sending', async () => {
    const { api, user } = renderForm([]);
    await user.clear(screen.getByLabelText(/^Last name/));
    const email = screen.getByLabelText(/^Email/);
    await user.clear(email);
    await user.type(email, 'not-an-address');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Must specify a last name.')).toBeInTheDocument();
    expect(screen.getByText('Invalid email address')).toBeInTheDocument();
    expect(api.requests).toHaveLength(0);
  });
});
