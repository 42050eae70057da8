import type { AccountSession } from '@patientsim/domain/account/sessions.schemas';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { writeLoginResult } from '../../../lib/session-store';
import { buildLoginResult } from '../../../testing/factories';
import { type FakeRoute, errorResponse, ok, stubApi } from '../../../testing/fake-api';
import { jsonResponse, renderWithRouter } from '../../../testing/render';
import { SessionsList, UNKNOWN_DEVICE, VIEW_AS_SESSIONS_MESSAGE } from './sessions-list';

const PATH = '/api/users/account/sessions';
const SIGN_OUT_OTHERS = `${PATH}/sign-out-others`;

function buildSession(overrides: Partial<AccountSession> = {}): AccountSession {
  return {
    id: 'session-1',
    device: 'Chrome on macOS',
    ipAddress: '203.0.113.7',
    signedInAt: '2026-11-20T09:15:00.000Z',
    lastActiveAt: '2026-11-27T10:00:00.000Z',
    isCurrent: true,
    ...overrides,
  };
}

const THIS_DEVICE = buildSession();
const PHONE = buildSession({ id: 'session-2', device: 'Safari on iOS', ipAddress: '198.51.100.4', isCurrent: false });
const UNKNOWN = buildSession({ id: 'session-3', device: null, ipAddress: null, isCurrent: false });

/** The list the fake API answers, as it changes with the sign-outs. */
function renderList({
  sessions = [THIS_DEVICE, PHONE, UNKNOWN],
  routes = [],
  isViewAs = false,
}: {
  sessions?: AccountSession[];
  routes?: FakeRoute[];
  isViewAs?: boolean;
} = {}) {
  writeLoginResult(buildLoginResult(isViewAs ? { act: { sub: 'super-1' } } : {}));
  let current = sessions;
  const api = stubApi([
    ...routes,
    { method: 'GET', path: PATH, respond: () => jsonResponse({ sessions: current }) },
    {
      method: 'DELETE',
      path: /^\/api\/users\/account\/sessions\/[^/]+$/,
      respond: (request) => {
        current = current.filter((session) => !request.path.endsWith(`/${session.id}`));
        return ok();
      },
    },
    {
      method: 'POST',
      path: SIGN_OUT_OTHERS,
      respond: () => {
        const ended = current.filter((session) => !session.isCurrent).length;
        current = current.filter((session) => session.isCurrent);
        return jsonResponse({ ended });
      },
    },
  ]);
  renderWithRouter(<SessionsList />);
  return { api, user: userEvent.setup() };
}

describe('SessionsList', () => {
  it('shows a skeleton, then each session with its device, address and times, this device marked', async () => {
    renderList();
    expect(screen.getByRole('status')).toHaveTextContent('Loading sessions');
    const table = await screen.findByRole('table', { name: 'Signed-in devices' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(4);
    expect(rows[1]).toHaveTextContent('Chrome on macOS');
    expect(within(rows[1]!).getByText('This device')).toBeInTheDocument();
    expect(rows[1]).toHaveTextContent('203.0.113.7');
    expect(rows[1]).toHaveTextContent('Now');
    // This device is signed out with the app's Sign out: no button here.
    expect(within(rows[1]!).queryByRole('button')).not.toBeInTheDocument();
    expect(rows[2]).toHaveTextContent('Safari on iOS');
    expect(within(rows[2]!).queryByText('This device')).not.toBeInTheDocument();
    expect(rows[3]).toHaveTextContent(UNKNOWN_DEVICE);
    expect(within(rows[3]!).getByRole('button', { name: `Sign out ${UNKNOWN_DEVICE}` })).toBeInTheDocument();
  });

  it('signs out one other session, says so, and moves the focus to the next one', async () => {
    const { api, user } = renderList();
    await user.click(await screen.findByRole('button', { name: 'Sign out Safari on iOS, 198.51.100.4' }));
    expect(await screen.findByText('Signed out Safari on iOS.')).toBeInTheDocument();
    expect(api.callsTo('DELETE', `${PATH}/session-2`)).toHaveLength(1);
    await waitFor(() => expect(screen.queryByText('Safari on iOS')).not.toBeInTheDocument());
    await waitFor(() => expect(screen.getByRole('button', { name: `Sign out ${UNKNOWN_DEVICE}` })).toHaveFocus());
  });

  it('asks before signing out everywhere else, Cancel first, naming the consequence', async () => {
    const { api, user } = renderList();
    await user.click(await screen.findByRole('button', { name: 'Sign out everywhere else' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out everywhere else' });
    expect(dialog).toHaveTextContent(
      'Sign out of PatientSim on 2 other devices? Anyone using them will have to sign in again with your password. This device stays signed in.',
    );
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus());
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.callsTo('POST', SIGN_OUT_OTHERS)).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Sign out everywhere else' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByText('Signed out 2 other devices.')).toBeInTheDocument();
    expect(api.callsTo('POST', SIGN_OUT_OTHERS)).toHaveLength(1);
    await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(2));
    expect(screen.getByRole('button', { name: 'Sign out everywhere else' })).toBeDisabled();
  });

  it('keeps a refused sign-out everywhere else in its confirmation, with the server’s message', async () => {
    const { user } = renderList({
      routes: [{ method: 'POST', path: SIGN_OUT_OTHERS, respond: () => errorResponse(503, 'SERVICE_UNAVAILABLE', 'Try again.') }],
    });
    await user.click(await screen.findByRole('button', { name: 'Sign out everywhere else' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Sign out' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Try again.');
  });

  it('shows a failed load with Retry, and the list once it answers', async () => {
    let fails = true;
    const { user } = renderList({
      routes: [
        {
          method: 'GET',
          path: PATH,
          respond: () =>
            fails ? errorResponse(500, 'INTERNAL', 'An internal error occurred.') : jsonResponse({ sessions: [THIS_DEVICE] }),
        },
      ],
    });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('An error occurred');
    fails = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('This device')).toBeInTheDocument();
  });

  it('shows no sessions of the person viewed as', async () => {
    const { api } = renderList({ isViewAs: true });
    expect(screen.getByText(VIEW_AS_SESSIONS_MESSAGE)).toBeInTheDocument();
    expect(api.callsTo('GET', PATH)).toHaveLength(0);
  });
});
