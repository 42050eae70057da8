import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Organisation } from '../../../lib/current-user';
import { readLoginResult, writeLoginResult } from '../../../lib/session-store';
import { NORTHGATE_ID, RIVERSIDE_ID, buildLoginResult, buildPayload } from '../../../testing/factories';
import { type FakeRoute, errorResponse, stubApi } from '../../../testing/fake-api';
import { jsonResponse, renderWithRouter } from '../../../testing/render';
import { KEY_OWNER_CANNOT_LEAVE_TOOLTIP, LEAVE_CONFIRM, OrganisationMemberships } from './organisation-memberships';

const ORGS: Organisation[] = [
  { id: RIVERSIDE_ID, name: 'Riverside EMS Academy', role: 'USER', isInactive: false },
  { id: NORTHGATE_ID, name: 'Northgate Nursing School', role: 'USER', isInactive: false },
];

// As the server answers a member who is not an admin there: the key owner without the e-mail.
const keyOwnerOf = (orgId: string, userId: string): FakeRoute => ({
  method: 'GET',
  path: `/api/users/extension/groups/${orgId}/key-owner`,
  respond: () => jsonResponse({ user_id: userId, given_name: 'X', family_name: 'Y' }),
});

function renderList(routes: FakeRoute[], organisations = ORGS) {
  writeLoginResult(buildLoginResult({ role: 'USER' }));
  const api = stubApi(routes);
  renderWithRouter(<OrganisationMemberships userId="user-1" organisations={organisations} activeOrgId={RIVERSIDE_ID} />);
  return { api, user: userEvent.setup() };
}

function leaveButtonOf(name: string) {
  const item = screen.getByText(name).closest('li');
  if (!item) throw new Error(`No list item for ${name}`);
  return within(item).getByRole('button', { name: 'Leave' });
}

describe('OrganisationMemberships', () => {
  it('counts and lists the organisations', () => {
    renderList([]);
    expect(screen.getByRole('heading', { name: 'You are currently a member of 2 organization(s)' })).toBeInTheDocument();
    expect(screen.getByText('Riverside EMS Academy')).toBeInTheDocument();
    expect(screen.getByText('Northgate Nursing School')).toBeInTheDocument();
    expect(screen.getByText('Current')).toBeInTheDocument();
  });

  it('disables Leave for the key owner, with the tooltip', async () => {
    const { user } = renderList([keyOwnerOf(RIVERSIDE_ID, 'user-1'), keyOwnerOf(NORTHGATE_ID, 'someone-else')]);
    // Until the key owner is known, Leave waits, and says it is busy.
    expect(leaveButtonOf('Northgate Nursing School')).toBeDisabled();
    expect(leaveButtonOf('Northgate Nursing School')).toHaveAttribute('aria-busy', 'true');
    await waitFor(() => expect(leaveButtonOf('Northgate Nursing School')).toBeEnabled());
    expect(leaveButtonOf('Northgate Nursing School')).toHaveAttribute('aria-busy', 'false');
    expect(leaveButtonOf('Riverside EMS Academy')).toBeDisabled();
    expect(leaveButtonOf('Riverside EMS Academy')).toHaveAttribute('aria-busy', 'false');

    const wrapper = leaveButtonOf('Riverside EMS Academy').parentElement;
    if (!wrapper) throw new Error('The disabled button has no wrapper');
    await user.hover(wrapper);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(KEY_OWNER_CANNOT_LEAVE_TOOLTIP);
  });

  it('asks before leaving, sends the user id, then renews the token without the organisation', async () => {
    const left = buildPayload({ role: 'USER', groups: [RIVERSIDE_ID], groupsData: [] });
    const { api, user } = renderList([
      keyOwnerOf(NORTHGATE_ID, 'someone-else'),
      {
        method: 'DELETE',
        path: `/api/users/extension/groups/${NORTHGATE_ID}/members`,
        respond: () => jsonResponse({ ok: true }),
      },
      {
        method: 'POST',
        path: '/api/users/auth/token',
        respond: () => jsonResponse({ idToken: 'after.leave', idTokenPayload: left }),
      },
      { method: 'GET', path: '/api/users/extension/users/user-1/groups', respond: () => jsonResponse([]) },
    ]);
    await waitFor(() => expect(leaveButtonOf('Northgate Nursing School')).toBeEnabled());
    await user.click(leaveButtonOf('Northgate Nursing School'));

    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent(LEAVE_CONFIRM);
    expect(api.callsTo('DELETE', /members$/)).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Leave' }));

    await waitFor(() => expect(readLoginResult()?.idToken).toBe('after.leave'));
    expect(api.callsTo('DELETE', `/api/users/extension/groups/${NORTHGATE_ID}/members`)[0]?.body).toEqual(['user-1']);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it("shows the server's refusal", async () => {
    const { user } = renderList(
      [
        {
          method: 'DELETE',
          path: `/api/users/extension/groups/${RIVERSIDE_ID}/members`,
          respond: () => errorResponse(422, 'KEY_OWNER_CANNOT_LEAVE', KEY_OWNER_CANNOT_LEAVE_TOOLTIP),
        },
      ],
      [ORGS[0] as Organisation],
    );
    await waitFor(() => expect(leaveButtonOf('Riverside EMS Academy')).toBeEnabled());
    await user.click(leaveButtonOf('Riverside EMS Academy'));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Leave' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(KEY_OWNER_CANNOT_LEAVE_TOOLTIP);
  });
});
