import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { GroupMetadata } from '@patientsim/domain/groups/group.schemas';
import type { Role } from '@patientsim/domain/roles/roles';
import { describe, expect, it } from 'vitest';
import { writeLoginResult } from '../../../lib/session-store';
import { RIVERSIDE_ID, buildGroup, buildLoginResult, buildPayload } from '../../../testing/factories';
import { type FakeRoute, errorResponse, stubApi } from '../../../testing/fake-api';
import { jsonResponse, renderRoutes } from '../../../testing/render';
import { KEY_OWNER_CHANGE_CONFIRM } from '../components/key-owner-change';
import { OrgProfileRoute } from './org-profile';

const ORG_URL = `/api/users/extension/groups/${RIVERSIDE_ID}`;

function renderProfile(role: Role, metadata: Partial<GroupMetadata>, routes: FakeRoute[] = []) {
  writeLoginResult(buildLoginResult({ role }));
  let current = buildGroup({}, { ownerId: 'user-1', seats: 25, memberCount: 5, ...metadata });
  const api = stubApi([
    ...routes,
    { method: 'GET', path: ORG_URL, respond: () => jsonResponse(current) },
    {
      method: 'PATCH',
      path: ORG_URL,
      respond: (request) => {
        current = buildGroup({}, { ownerId: 'user-1', seats: 25, memberCount: 5, ...metadata, ...(request.body as object) });
        return jsonResponse(current);
      },
    },
    // Admins and the provider see (and set) the second factor requirement below the cards.
    { method: 'GET', path: `${ORG_URL}/two-factor-requirement`, respond: () => jsonResponse({ roles: [] }) },
    {
      method: 'GET',
      path: `${ORG_URL}/key-owner`,
      respond: () => jsonResponse({ user_id: 'user-1', email: 'owner@demo.test', given_name: 'Olive', family_name: 'Owner' }),
    },
    {
      method: 'POST',
      path: '/api/users/auth/token',
      respond: () => jsonResponse({ idToken: 'renewed.token.x', idTokenPayload: buildPayload({ role }) }),
    },
    { method: 'GET', path: '/api/users/extension/users/user-1/groups', respond: () => jsonResponse([current]) },
  ]);
  const view = renderRoutes(
    [
      { path: '/org/profile', element: <OrgProfileRoute /> },
      { path: '/org/invite', element: <p>Invite users page</p> },
    ],
    '/auth/org/profile',
  );
  return { api, router: view.router, user: userEvent.setup() };
}

describe('OrgProfileRoute', () => {
  it('shows the key owner the info and seats cards, without the provider controls', async () => {
    renderProfile('ADMIN', {});
    expect(await screen.findByRole('textbox', { name: /Name/ })).toHaveValue('Riverside EMS Academy');
    expect(screen.getByText('Emergency')).toBeInTheDocument();
    expect(screen.getByText('Active')).toBeInTheDocument();
    expect(await screen.findByText('Olive Owner (you)')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: '5 of 25 seats used' })).toBeInTheDocument();
    const seats = screen.getByRole('region', { name: 'Seats' });
    expect(within(seats).getByRole('list', { name: 'Seat use' })).toHaveTextContent(
      '5 members0 pending invitations20 open seats',
    );
    expect(screen.queryByRole('button', { name: 'Change Status' })).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Seats' })).not.toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Product type' })).not.toBeInTheDocument();
  });

  it('shows an admin the second factor requirement, and an instructor who owns the key not', async () => {
    renderProfile('ADMIN', {});
    const section = await screen.findByRole('region', { name: 'Second factor' });
    expect(await within(section).findByRole('checkbox', { name: 'Student' })).not.toBeChecked();
    cleanup();
    renderProfile('USER', {});
    expect(await screen.findByRole('textbox', { name: /Name/ })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Second factor' })).not.toBeInTheDocument();
  });

  it('counts subscribed members apart from the seats (decision 0035)', async () => {
    renderProfile('ADMIN', { memberCount: 9, seatHolders: 5 });
    expect(await screen.findByRole('img', { name: '5 of 25 seats used' })).toBeInTheDocument();
    const seats = screen.getByRole('region', { name: 'Seats' });
    expect(within(seats).getByText('4 subscribed members hold no seat.')).toBeInTheDocument();
    expect(within(seats).getByText('20 open seats')).toBeInTheDocument();
  });

  it('counts the pending invitations that keep a seat, as the server does, in the sentence, the meter and the legend', async () => {
    renderProfile('ADMIN', { memberCount: 12, pendingSeatInvitations: 6 });
    expect(await screen.findByRole('img', { name: '18 of 25 seats used' })).toBeInTheDocument();
    const seats = screen.getByRole('region', { name: 'Seats' });
    expect(within(seats).getByText('18 of 25 seats used')).toBeInTheDocument();
    const legend = within(within(seats).getByRole('list', { name: 'Seat use' })).getAllByRole('listitem');
    expect(legend.map((item) => item.textContent)).toEqual(['12 members', '6 pending invitations', '7 open seats']);
    expect(screen.queryByText(/All seats are taken/)).not.toBeInTheDocument();
  });

  it('renames the organisation and renews the session', async () => {
    const { api, user } = renderProfile('ADMIN', {});
    const name = await screen.findByRole('textbox', { name: /Name/ });
    await user.clear(name);
    await user.type(name, 'Riverside Academy');
    await user.click(screen.getByRole('button', { name: 'Save profile' }));
    await waitFor(() => expect(api.callsTo('PATCH', ORG_URL)[0]?.body).toEqual({ name: 'Riverside Academy' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/users/auth/token')).toHaveLength(1));
  });

  it('edits the description, sending only what changed, and refuses one that is too long', async () => {
    const { api, user } = renderProfile('ADMIN', {});
    const description = await screen.findByRole('textbox', { name: 'Description' });
    await user.click(description);
    await user.paste('x'.repeat(501));
    await user.click(screen.getByRole('button', { name: 'Save profile' }));
    expect(await screen.findByText('At most 500 characters')).toBeInTheDocument();
    expect(api.callsTo('PATCH', ORG_URL)).toHaveLength(0);
    await user.clear(description);
    await user.type(description, '  Paramedic programme, evening cohort  ');
    await user.click(screen.getByRole('button', { name: 'Save profile' }));
    await waitFor(() => expect(api.callsTo('PATCH', ORG_URL)[0]?.body).toEqual({ about: 'Paramedic programme, evening cohort' }));
  });

  it('warns at full seats, pending invitations included', async () => {
    renderProfile('ADMIN', { seats: 5, memberCount: 3, pendingSeatInvitations: 2 });
    expect(await screen.findByText(/All seats are taken/)).toBeInTheDocument();
    expect(screen.getByText('0 open seats')).toBeInTheDocument();
  });

  it('lets a super admin change the status after confirmation, and seats as integers only', async () => {
    const { api, user } = renderProfile('SUPER_ADMIN', {});
    await user.click(await screen.findByRole('button', { name: 'Change Status' }));
    const dialog = screen.getByRole('dialog', { name: 'Change Status' });
    expect(dialog).toHaveTextContent('Inactive organizations have no access to cases.');
    await user.click(within(dialog).getByRole('button', { name: 'Deactivate' }));
    await waitFor(() => expect(api.callsTo('PATCH', ORG_URL)[0]?.body).toEqual({ inactive: true }));
    expect(await screen.findByText('Inactive')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    const seats = screen.getByRole('textbox', { name: 'Seats' });
    await user.clear(seats);
    await user.type(seats, '2.5');
    expect(screen.getByText('Seats must be an integer')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save seats' })).toBeDisabled();
    await user.clear(seats);
    await user.type(seats, '30');
    await user.click(screen.getByRole('button', { name: 'Save seats' }));
    await waitFor(() => expect(api.callsTo('PATCH', ORG_URL)[1]?.body).toEqual({ seats: 30 }));
  });

  it('changes the key owner to another admin after the spec confirmation, then leaves for the invite page', async () => {
    const { api, router, user } = renderProfile('ADMIN', {}, [
      {
        method: 'GET',
        path: `${ORG_URL}/member-search`,
        respond: () =>
          jsonResponse({
            users: [
              { user_id: 'user-1', email: 'owner@demo.test', given_name: 'Olive', family_name: 'Owner', role: 'ADMIN' },
              { user_id: 'user-2', email: 'admin@demo.test', given_name: 'Ada', family_name: 'Admin', role: 'ADMIN' },
            ],
            total: 2,
          }),
      },
    ]);
    await user.click(await screen.findByRole('button', { name: 'Change Group Admin' }));
    const dialog = screen.getByRole('dialog', { name: 'Change Group Admin' });
    await user.type(within(dialog).getByRole('combobox'), 'demo');
    await user.click(await screen.findByRole('option', { name: 'Ada Admin (admin@demo.test)' }, { timeout: 2000 }));
    expect(screen.queryByRole('option', { name: /Olive Owner/ })).not.toBeInTheDocument();
    expect(api.callsTo('GET', `${ORG_URL}/member-search`)[0]?.url.searchParams.get('role')).toBe('ADMIN');
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    expect(dialog).toHaveTextContent(KEY_OWNER_CHANGE_CONFIRM);
    await user.click(within(dialog).getByRole('button', { name: 'Change Group Admin' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/org/invite'));
    expect(api.callsTo('PATCH', ORG_URL)[0]?.body).toEqual({ ownerId: 'user-2' });
    expect(api.callsTo('POST', '/api/users/auth/token')).toHaveLength(1);
  });

  it('goes no further and changes nothing before another admin is chosen', async () => {
    const { api, user } = renderProfile('ADMIN', {}, [
      {
        method: 'GET',
        path: `${ORG_URL}/member-search`,
        respond: () =>
          jsonResponse({
            users: [{ user_id: 'user-2', email: 'admin@demo.test', given_name: 'Ada', family_name: 'Admin', role: 'ADMIN' }],
            total: 1,
          }),
      },
    ]);
    await user.click(await screen.findByRole('button', { name: 'Change Group Admin' }));
    const dialog = screen.getByRole('dialog', { name: 'Change Group Admin' });
    const next = within(dialog).getByRole('button', { name: 'Next' });
    expect(next).toBeDisabled();
    fireEvent.submit(next.closest('form') as HTMLFormElement);

    // The refused submit did not reach the confirmation: choosing someone afterwards still asks for Next.
    await user.type(within(dialog).getByRole('combobox'), 'demo');
    await user.click(await screen.findByRole('option', { name: 'Ada Admin (admin@demo.test)' }, { timeout: 2000 }));
    expect(within(dialog).getByRole('button', { name: 'Next' })).toBeEnabled();
    expect(dialog).not.toHaveTextContent(KEY_OWNER_CHANGE_CONFIRM);
    expect(api.callsTo('PATCH', ORG_URL)).toHaveLength(0);
  });

  it('shows the server refusal inline', async () => {
    const { user } = renderProfile('ADMIN', {}, [
      { method: 'PATCH', path: ORG_URL, respond: () => errorResponse(403, 'FORBIDDEN', 'You are not allowed to do this.') },
    ]);
    const name = await screen.findByRole('textbox', { name: /Name/ });
    await user.type(name, ' 2');
    await user.click(screen.getByRole('button', { name: 'Save profile' }));
    expect(await screen.findByText('You are not allowed to do this.')).toBeInTheDocument();
  });
});
