import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Role } from '@patientsim/domain/roles/roles';
import type { OrgUser, OrgUsersPage } from '@patientsim/domain/users/org-users.schemas';
import { describe, expect, it } from 'vitest';
import { writeLoginResult } from '../../../lib/session-store';
import { RIVERSIDE_ID, buildLoginResult } from '../../../testing/factories';
import { type FakeRoute, ok, stubApi } from '../../../testing/fake-api';
import { jsonResponse, renderRoutes } from '../../../testing/render';
import { ArchivedUsersRoute, OrgUsersRoute } from './org-users';

const MEMBERS_URL = `/api/users/extension/groups/${RIVERSIDE_ID}/members`;
const INVITES_URL = `/api/users/invites/org/${RIVERSIDE_ID}`;

function buildOrgUser(overrides: Partial<OrgUser> = {}): OrgUser {
  return {
    user_id: 'u-student',
    given_name: 'Sam',
    family_name: 'Student',
    email: 'sam@demo.test',
    role: 'STUDENT',
    deleted: false,
    pending: false,
    declined: false,
    subscribed: false,
    key_owner: false,
    ...overrides,
  };
}

const USERS: OrgUser[] = [
  buildOrgUser({
    user_id: 'u-owner',
    given_name: 'Olive',
    family_name: 'Owner',
    email: 'owner@demo.test',
    role: 'ADMIN',
    key_owner: true,
  }),
  buildOrgUser({ user_id: 'u-instructor', given_name: 'Ian', family_name: 'Instructor', email: 'ian@demo.test', role: 'USER' }),
  buildOrgUser(),
  buildOrgUser({ user_id: null, given_name: '', family_name: '', email: 'pending@demo.test', pending: true }),
  buildOrgUser({ user_id: null, given_name: '', family_name: '', email: 'declined@demo.test', declined: true }),
];

type RenderOptions = {
  path?: string;
  routes?: FakeRoute[];
  /** The rows the server answers, or a function of the moment (a write changed them). */
  items?: OrgUser[] | (() => OrgUser[]);
  total?: number;
};

function renderUsers(role: Role, { path = '/auth/org/invite', routes = [], items = USERS, total = 120 }: RenderOptions = {}) {
  writeLoginResult(buildLoginResult({ role }));
  const api = stubApi([
    ...routes,
    // The invite buttons read the organisation (for its seats) and its pending invitations.
    { method: 'GET', path: /^\/api\/users\/extension\/users\/[^/]+\/groups$/, respond: () => jsonResponse([]) },
    { method: 'GET', path: INVITES_URL, respond: () => jsonResponse({ invites: [] }) },
    {
      method: 'GET',
      path: MEMBERS_URL,
      respond: (request) => {
        const page = Number(request.url.searchParams.get('page') ?? 0);
        return jsonResponse({
          total,
          page,
          pageSize: 50,
          items: typeof items === 'function' ? items() : items,
        } satisfies OrgUsersPage);
      },
    },
  ]);
  renderRoutes(
    [
      { path: '/org/invite', element: <OrgUsersRoute /> },
      { path: '/org/archived-users', element: <ArchivedUsersRoute /> },
    ],
    path,
  );
  const memberCalls = () => api.requests.filter((request) => request.path === MEMBERS_URL);
  return { api, memberCalls, user: userEvent.setup() };
}

describe('OrgUsersRoute', () => {
  it('lists members and invitees with their status, paged', async () => {
    const { memberCalls, user } = renderUsers('ADMIN');
    const table = await screen.findByRole('table', { name: 'Users' });
    await within(table).findByText('owner@demo.test');
    expect(within(table).getByText('Key Owner')).toBeInTheDocument();
    expect(within(table).getByText('Instructor')).toBeInTheDocument();
    expect(within(table).getByText('Pending Invite')).toBeInTheDocument();
    expect(within(table).getByText('Declined')).toBeInTheDocument();
    expect(screen.getByText('page 1 of 3')).toBeInTheDocument();
    expect(memberCalls()[0]?.url.searchParams.get('variant')).toBe('all');
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('page 2 of 3')).toBeInTheDocument();
    expect(memberCalls().at(-1)?.url.searchParams.get('page')).toBe('1');
    // The key owner and declined invitees have no actions here.
    expect(screen.queryByRole('button', { name: 'Actions for Olive Owner' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Actions for declined/ })).not.toBeInTheDocument();
  });

  it('names a pending invitee by address and resends their invitation from the row menu', async () => {
    const { api, user } = renderUsers('ADMIN', { routes: [{ method: 'POST', path: `${INVITES_URL}/resend`, respond: ok }] });
    const row = await screen.findByRole('row', { name: /pending@demo\.test/ });
    expect(within(row).getAllByRole('cell')[0]).toHaveTextContent('pending@demo.test');
    await user.click(within(row).getByRole('button', { name: 'Actions for pending@demo.test' }));
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Resend', 'Revoke']);
    await user.click(screen.getByRole('menuitem', { name: 'Resend' }));
    expect(await screen.findByText('The invitation to pending@demo.test was sent again.')).toBeInTheDocument();
    expect(api.callsTo('POST', `${INVITES_URL}/resend`)[0]?.url.searchParams.get('email')).toBe('pending@demo.test');
  });

  it('revokes a pending invitation after a confirmation that names it, with Cancel focused, and drops the row', async () => {
    let isRevoked = false;
    const { api, memberCalls, user } = renderUsers('ADMIN', {
      routes: [
        {
          method: 'DELETE',
          path: INVITES_URL,
          respond: () => {
            isRevoked = true;
            return ok();
          },
        },
      ],
      items: () => (isRevoked ? USERS.filter((item) => !item.pending) : USERS),
    });
    await user.click(await screen.findByRole('button', { name: 'Actions for pending@demo.test' }));
    await user.click(screen.getByRole('menuitem', { name: 'Revoke' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke invitation' });
    expect(dialog).toHaveAccessibleDescription(
      'Revoke the invitation to pending@demo.test? The link in their invitation email will stop working.',
    );
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus());
    const loadsBefore = memberCalls().length;
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('The invitation to pending@demo.test was revoked.')).toBeInTheDocument();
    expect(api.callsTo('DELETE', INVITES_URL)[0]?.url.searchParams.get('email')).toBe('pending@demo.test');
    await waitFor(() => expect(screen.queryByRole('row', { name: /pending@demo\.test/ })).not.toBeInTheDocument());
    expect(memberCalls().length).toBeGreaterThan(loadsBefore);
  });

  it('gives those who may not invite no actions on invitations', async () => {
    renderUsers('USER');
    await screen.findByRole('row', { name: /pending@demo\.test/ });
    expect(screen.getByRole('button', { name: 'Actions for Sam Student' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Actions for pending@demo.test' })).not.toBeInTheDocument();
  });

  it('edits a member, sending only the changed fields', async () => {
    const { api, user } = renderUsers('ADMIN', {
      routes: [{ method: 'PATCH', path: '/api/users/users/u-student', respond: ok }],
    });
    await user.click(await screen.findByRole('button', { name: 'Actions for Sam Student' }));
    await user.click(screen.getByRole('menuitem', { name: 'Edit' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit user' });
    const first = within(dialog).getByRole('textbox', { name: /First name/ });
    await user.clear(first);
    await user.type(first, 'Samantha');
    await user.click(within(dialog).getByRole('combobox', { name: 'Role' }));
    expect(screen.queryByRole('option', { name: 'Super Administrator' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('option', { name: 'Instructor' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit user' })).not.toBeInTheDocument());
    const patch = api.requests.find((request) => request.method === 'PATCH');
    expect(patch?.url.searchParams.get('orgId')).toBe(RIVERSIDE_ID);
    expect(patch?.body).toEqual({ given_name: 'Samantha', role: 'USER' });
  });

  it('opens Edit user with the focus in First name', async () => {
    const { user } = renderUsers('ADMIN');
    await user.click(await screen.findByRole('button', { name: 'Actions for Sam Student' }));
    await user.click(screen.getByRole('menuitem', { name: 'Edit' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit user' });
    await waitFor(() => expect(within(dialog).getByRole('textbox', { name: /First name/ })).toHaveFocus());
  });

  it('removes a member after confirmation', async () => {
    const { api, user } = renderUsers('ADMIN', { routes: [{ method: 'DELETE', path: MEMBERS_URL, respond: ok }] });
    await user.click(await screen.findByRole('button', { name: 'Actions for Sam Student' }));
    await user.click(screen.getByRole('menuitem', { name: 'Remove' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Remove user' })).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(api.requests.some((request) => request.method === 'DELETE')).toBe(true));
    expect(api.requests.find((request) => request.method === 'DELETE')?.body).toEqual(['u-student']);
  });

  it('gives instructors the menu without Remove, and no role in Edit (decision 3)', async () => {
    const { user } = renderUsers('USER');
    await user.click(await screen.findByRole('button', { name: 'Actions for Sam Student' }));
    expect(screen.queryByRole('menuitem', { name: 'Remove' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('menuitem', { name: 'Edit' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit user' });
    expect(within(dialog).queryByRole('combobox', { name: 'Role' })).not.toBeInTheDocument();
  });

  it('offers Invite User and Bulk Invite to an admin, and no invitation to an instructor', async () => {
    renderUsers('ADMIN');
    expect(await screen.findByRole('button', { name: 'Invite User' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Bulk Invite' })).toBeInTheDocument();
  });

  it('gives an instructor no invite buttons', async () => {
    renderUsers('USER');
    await within(await screen.findByRole('table', { name: 'Users' })).findByText('owner@demo.test');
    expect(screen.queryByRole('button', { name: 'Invite User' })).not.toBeInTheDocument();
  });

  it('shows the empty state', async () => {
    renderUsers('ADMIN', { items: [], total: 0 });
    expect(await screen.findByText('No users to display')).toBeInTheDocument();
    expect(screen.getByText('Nothing to show')).toBeInTheDocument();
  });

  it('says "No users to display" when a search matches nothing, never to use the search bar', async () => {
    const { memberCalls, user } = renderUsers('ADMIN', {
      routes: [
        {
          method: 'GET',
          path: MEMBERS_URL,
          respond: (request) =>
            jsonResponse({
              total: request.url.searchParams.has('search') ? 0 : USERS.length,
              page: 0,
              pageSize: 50,
              items: request.url.searchParams.has('search') ? [] : USERS,
            } satisfies OrgUsersPage),
        },
      ],
    });
    await screen.findByRole('row', { name: /owner@demo\.test/ });
    await user.type(screen.getByRole('searchbox', { name: 'Search users' }), 'nobody');
    const empty = await screen.findByRole('status');
    expect(empty).toHaveTextContent('Nothing to show');
    expect(empty).toHaveTextContent('No users to display');
    expect(screen.queryByText('Use the search bar to search for a user')).not.toBeInTheDocument();
    expect(memberCalls().at(-1)?.url.searchParams.get('search')).toBe('nobody');
  });
});

describe('ArchivedUsersRoute', () => {
  it('links each removed user to their grades and offers nothing else', async () => {
    const removed = buildOrgUser({ user_id: 'u-gone', given_name: 'Rhea', family_name: 'Sullivan', deleted: true });
    const { memberCalls } = renderUsers('USER', { path: '/auth/org/archived-users', items: [removed], total: 1 });
    const link = await screen.findByRole('link', { name: 'Go to Grading' });
    expect(link).toHaveAttribute('href', '/authoring/cases/grades?userId=u-gone');
    expect(screen.getByText('Student Removed')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Actions for/ })).not.toBeInTheDocument();
    expect(memberCalls()[0]?.url.searchParams.get('variant')).toBe('archived');
  });
});
