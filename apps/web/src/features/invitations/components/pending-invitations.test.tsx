import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { reloadPage } from '../../../lib/browser';
import { readLoginResult, writeLoginResult } from '../../../lib/session-store';
import { NORTHGATE_ID, buildGroupsDataEntry, buildLoginResult, buildPayload } from '../../../testing/factories';
import { type FakeRoute, errorResponse, ok, stubApi } from '../../../testing/fake-api';
import { jsonResponse, renderWithRouter } from '../../../testing/render';
import { DISMISS_INVITE_CONFIRM } from '../api/dismiss-invite';
import { PendingInvitations } from './pending-invitations';

vi.mock(import('../../../lib/browser'), async (importOriginal) => ({
  ...(await importOriginal()),
  reloadPage: vi.fn(),
}));

beforeEach(() => {
  vi.mocked(reloadPage).mockClear();
});

const INVITE = {
  _id: 'invite-1',
  org_id: NORTHGATE_ID,
  org_name: 'Northgate Nursing School',
  email: 'instructor@demo.test',
  role: 'USER',
  dismissed: false,
  declined: false,
  user_id: 'user-1',
  throughSubscription: false,
};

function renderList(routes: FakeRoute[]) {
  writeLoginResult(buildLoginResult({ role: 'USER', email: 'instructor@demo.test' }));
  const api = stubApi(routes, { withShell: false });
  renderWithRouter(<PendingInvitations userId="user-1" email="instructor@demo.test" />);
  return { api, user: userEvent.setup() };
}

const invites = (list: unknown[]): FakeRoute => ({
  method: 'GET',
  path: '/api/users/invites/user/user-1',
  respond: () => jsonResponse({ data: { invites: list } }),
});

describe('PendingInvitations', () => {
  it('says when there is none', async () => {
    renderList([invites([])]);
    expect(screen.getByText('Loading invitations...')).toBeInTheDocument();
    expect(await screen.findByText('You have no pending invitations.')).toBeInTheDocument();
  });

  it('hides dismissed and declined invitations', async () => {
    renderList([
      invites([
        { ...INVITE, dismissed: true },
        { ...INVITE, _id: 'invite-2', declined: true },
      ]),
    ]);
    expect(await screen.findByText('You have no pending invitations.')).toBeInTheDocument();
  });

  it('shows why the list could not be loaded', async () => {
    renderList([
      { method: 'GET', path: '/api/users/invites/user/user-1', respond: () => errorResponse(404, 'NOT_FOUND', 'Not found.') },
    ]);
    expect(await screen.findByRole('alert')).toHaveTextContent('Not found.');
  });

  it('accepts: finishes the invitation, changes organisation, renews the session, reloads', async () => {
    const joined = buildPayload({
      role: 'USER',
      email: 'instructor@demo.test',
      org: NORTHGATE_ID,
      groups: [NORTHGATE_ID],
      groupsData: [buildGroupsDataEntry({ _id: NORTHGATE_ID, name: 'Northgate Nursing School', role: 'USER' })],
    });
    const { api, user } = renderList([
      invites([INVITE]),
      {
        method: 'POST',
        path: '/api/users/invitations/finish-invite',
        respond: () => jsonResponse({ ok: true, orgId: NORTHGATE_ID }),
      },
      { method: 'POST', path: '/api/users/auth/changeOrg', respond: ok },
      {
        method: 'POST',
        path: '/api/users/auth/token',
        respond: () => jsonResponse({ idToken: 'joined', idTokenPayload: joined }),
      },
      { method: 'GET', path: '/api/users/extension/users/user-1/groups', respond: () => jsonResponse([]) },
    ]);
    await user.click(await screen.findByRole('button', { name: 'Accept' }));

    await waitFor(() => expect(reloadPage).toHaveBeenCalledTimes(1));
    expect(api.callsTo('POST', '/api/users/invitations/finish-invite')[0]?.body).toEqual({
      inviteId: 'invite-1',
      email: 'instructor@demo.test',
    });
    expect(api.callsTo('POST', '/api/users/auth/changeOrg')[0]?.body).toEqual({ orgId: NORTHGATE_ID });
    expect(readLoginResult()?.idTokenPayload.org).toBe(NORTHGATE_ID);
    const order = api.requests.map((request) => request.path);
    expect(order.indexOf('/api/users/auth/changeOrg')).toBeLessThan(order.indexOf('/api/users/auth/token'));
  });

  it("shows 'Unkown error when accepting invite' when the reply says nothing", async () => {
    const { user } = renderList([
      invites([INVITE]),
      { method: 'POST', path: '/api/users/invitations/finish-invite', respond: () => new Response('', { status: 500 }) },
    ]);
    await user.click(await screen.findByRole('button', { name: 'Accept' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Unkown error when accepting invite');
    expect(reloadPage).not.toHaveBeenCalled();
  });

  it('dismisses after the confirm, then reloads the list', async () => {
    let list = [INVITE];
    const { api, user } = renderList([
      { method: 'GET', path: '/api/users/invites/user/user-1', respond: () => jsonResponse({ data: { invites: list } }) },
      {
        method: 'POST',
        path: '/api/users/invites/dismiss/invite-1',
        respond: () => {
          list = [];
          return jsonResponse({ ok: true });
        },
      },
    ]);
    await user.click(await screen.findByRole('button', { name: 'Dismiss' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent(DISMISS_INVITE_CONFIRM);
    expect(api.callsTo('POST', '/api/users/invites/dismiss/invite-1')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Dismiss' }));

    expect(await screen.findByText('You have no pending invitations.')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/users/invites/dismiss/invite-1')).toHaveLength(1);
  });
});
