import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { isAdmin, type Role } from '@patientsim/domain/roles/roles';
import { describe, expect, it } from 'vitest';
import { deriveCurrentUser } from '../../../lib/current-user';
import { writeLoginResult } from '../../../lib/session-store';
import { RIVERSIDE_ID, buildGroup, buildLoginResult } from '../../../testing/factories';
import { type FakeRoute, errorResponse, stubApi } from '../../../testing/fake-api';
import { jsonResponse, renderWithRouter } from '../../../testing/render';
import { GroupsPanel } from './groups-panel';

const prefixed = (name: string) => `${RIVERSIDE_ID.slice(0, 4)}::${name}`;
const COHORT = buildGroup(
  { _id: 'group-cohort', name: prefixed('Cohort A') },
  { parent: RIVERSIDE_ID, memberCount: 3, ownerId: 'user-2' },
);
const SANDBOX = buildGroup({ _id: 'group-sandbox', name: prefixed('QA Sandbox') }, { parent: RIVERSIDE_ID, testing: true });
const MINE = buildGroup({ _id: 'group-mine', name: prefixed('Mine') }, { parent: RIVERSIDE_ID, ownerId: 'user-1' });

// As the server answers: the group admin's e-mail only for the organisation's admins.
const groupAdminsFor = (role: Role): FakeRoute => ({
  method: 'GET',
  path: /^\/api\/users\/extension\/groups\/[^/]+\/key-owner$/,
  respond: () =>
    jsonResponse({
      user_id: 'user-2',
      given_name: 'Ada',
      family_name: 'Admin',
      ...(isAdmin(role) ? { email: 'ada@demo.test' } : {}),
    }),
});

function renderPanel(role: Role, routes: FakeRoute[]) {
  const result = buildLoginResult({ role });
  writeLoginResult(result);
  const api = stubApi([...routes, groupAdminsFor(role)]);
  renderWithRouter(<GroupsPanel user={deriveCurrentUser(result, [])} />);
  return { api, user: userEvent.setup() };
}

const nested = (groups = [COHORT, SANDBOX]): FakeRoute => ({
  method: 'GET',
  path: `/api/users/extension/groups/${RIVERSIDE_ID}/nested`,
  respond: () => jsonResponse(groups),
});

describe('GroupsPanel', () => {
  it("shows an admin the organisation's groups without the prefix, test groups only on request", async () => {
    const { user } = renderPanel('ADMIN', [nested()]);
    expect(await screen.findByRole('link', { name: 'Cohort A' })).toHaveAttribute('href', '/auth/groups/group-cohort');
    expect(screen.queryByText('QA Sandbox')).not.toBeInTheDocument();
    expect(await screen.findAllByText('Ada Admin')).not.toHaveLength(0);
    await user.click(screen.getByRole('checkbox', { name: 'Display Test Orgs' }));
    expect(screen.getByRole('link', { name: 'QA Sandbox' })).toBeInTheDocument();
    expect(window.localStorage.getItem('patientsim.groups.displayTestOrgs')).toBe('true');
  });

  it('creates a group: confirm disabled without a name, at most 40 characters, prefixed errors shown plain', async () => {
    let attempts = 0;
    const { api, user } = renderPanel('ADMIN', [
      nested(),
      {
        method: 'POST',
        path: '/api/users/extension/groups',
        respond: () => {
          attempts += 1;
          return attempts === 1
            ? errorResponse(409, 'GROUP_NAME_TAKEN', `A group named '${prefixed('Night')}' already exists in this organization.`)
            : jsonResponse(buildGroup({ _id: 'group-night', name: prefixed('Night Shift') }, { parent: RIVERSIDE_ID }));
        },
      },
    ]);
    await user.click(await screen.findByRole('button', { name: 'Create group' }));
    const dialog = screen.getByRole('dialog', { name: 'Create group' });
    const create = within(dialog).getByRole('button', { name: 'Create' });
    expect(create).toBeDisabled();
    const field = within(dialog).getByRole('textbox', { name: /Group name/ });
    expect(field).toHaveFocus();
    expect(field).toHaveAttribute('maxlength', '40');
    await user.type(field, 'Night');
    expect(within(dialog).getByText('5/40')).toBeInTheDocument();
    await user.keyboard('{Enter}');
    expect(await within(dialog).findByText("A group named 'Night' already exists in this organization.")).toBeInTheDocument();
    await user.type(field, ' Shift');
    await user.click(create);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.callsTo('POST', '/api/users/extension/groups').at(-1)?.body).toEqual({
      name: 'Night Shift',
      description: JSON.stringify({ parent: RIVERSIDE_ID }),
    });
    expect(await screen.findByText('Group Night Shift created')).toBeInTheDocument();
  });

  it('renames and removes a group after confirmation', async () => {
    const { api, user } = renderPanel('ADMIN', [
      nested(),
      {
        method: 'PATCH',
        path: '/api/users/extension/groups/group-cohort',
        respond: () => jsonResponse(buildGroup({ _id: 'group-cohort', name: prefixed('Cohort Z') }, { parent: RIVERSIDE_ID })),
      },
      { method: 'DELETE', path: '/api/users/extension/groups/group-cohort', respond: () => jsonResponse({ ok: true }) },
    ]);
    await user.click(await screen.findByRole('button', { name: 'Rename Cohort A' }));
    const rename = screen.getByRole('dialog', { name: 'Rename Cohort A' });
    const field = within(rename).getByRole('textbox', { name: /Group name/ });
    await user.clear(field);
    expect(within(rename).getByRole('button', { name: 'Save' })).toBeDisabled();
    await user.type(field, 'Cohort Z');
    await user.click(within(rename).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.callsTo('PATCH', '/api/users/extension/groups/group-cohort')).toHaveLength(1));
    expect(api.callsTo('PATCH', '/api/users/extension/groups/group-cohort')[0]?.body).toEqual({ name: 'Cohort Z' });

    await user.click(await screen.findByRole('button', { name: 'Remove Cohort A' }));
    const confirm = await screen.findByRole('dialog', { name: 'Remove group' });
    expect(confirm).toHaveTextContent('Remove the group Cohort A?');
    await user.click(within(confirm).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(api.callsTo('DELETE', '/api/users/extension/groups/group-cohort')).toHaveLength(1));
  });

  it('shows an instructor their own groups, editable only where they are the group admin, and no create', async () => {
    renderPanel('USER', [
      {
        method: 'GET',
        path: '/api/users/extension/users/user-1/groups',
        respond: () => jsonResponse([buildGroup(), COHORT, MINE]),
      },
    ]);
    expect(await screen.findByRole('link', { name: 'Mine' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Cohort A' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Riverside EMS Academy' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Rename Mine' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Rename Cohort A' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create group' })).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByText('Ada Admin')).toHaveLength(2));
  });

  it('shows the shared empty state when the organisation has no groups', async () => {
    renderPanel('ADMIN', [nested([SANDBOX])]);
    const empty = await screen.findByRole('status');
    expect(empty).toHaveTextContent('Nothing to show');
    expect(empty).toHaveTextContent('No groups to display');
  });

  it('shows a failed load with Retry', async () => {
    renderPanel('ADMIN', [
      {
        method: 'GET',
        path: `/api/users/extension/groups/${RIVERSIDE_ID}/nested`,
        respond: () => errorResponse(403, 'FORBIDDEN', 'You are not allowed to do this.'),
      },
    ]);
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('An error occurred')).toBeInTheDocument();
    expect(alert).toHaveTextContent('You are not allowed to do this.');
    expect(within(alert).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });
});
