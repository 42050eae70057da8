import type { Role } from '@patientsim/domain/roles/roles';
import type { OrgUser, OrgUsersPage } from '@patientsim/domain/users/org-users.schemas';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { writeLoginResult } from '../../../lib/session-store';
import { RIVERSIDE_ID, buildLoginResult } from '../../../testing/factories';
import { type FakeRoute, errorResponse, ok, stubApi } from '../../../testing/fake-api';
import { jsonResponse, renderWithRouter } from '../../../testing/render';
import { OrgUsersTable } from './org-users-table';

const MEMBERS_URL = `/api/users/extension/groups/${RIVERSIDE_ID}/members`;
const signOutUrl = (userId: string) => `${MEMBERS_URL}/${userId}/sign-out`;

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
  buildOrgUser(),
  buildOrgUser({ user_id: 'u-instructor', given_name: 'Ian', family_name: 'Instructor', email: 'ian@demo.test', role: 'USER' }),
  // The signed-in admin's own row (buildLoginResult's `sub`).
  buildOrgUser({ user_id: 'user-1', given_name: 'Ada', family_name: 'Admin', email: 'admin@demo.test', role: 'ADMIN' }),
  buildOrgUser({
    user_id: 'u-provider',
    given_name: 'Pat',
    family_name: 'Provider',
    email: 'pat@demo.test',
    role: 'SUPER_ADMIN',
  }),
];

function renderTable(role: Role, routes: FakeRoute[] = []) {
  writeLoginResult(buildLoginResult({ role }));
  const api = stubApi([
    ...routes,
    { method: 'POST', path: /\/sign-out$/, respond: ok },
    {
      method: 'GET',
      path: MEMBERS_URL,
      respond: () => jsonResponse({ total: USERS.length, page: 0, pageSize: 50, items: USERS } satisfies OrgUsersPage),
    },
  ]);
  renderWithRouter(<OrgUsersTable orgId={RIVERSIDE_ID} variant="all" actorRole={role} />);
  return { api, user: userEvent.setup() };
}

async function openMenu(user: ReturnType<typeof userEvent.setup>, name: string) {
  await user.click(await screen.findByRole('button', { name: `Actions for ${name}` }));
  return screen.findByRole('menu');
}

describe('Sign out everywhere (org users table)', () => {
  it('signs a member out after a confirmation naming them, Cancel first, and says so', async () => {
    const { api, user } = renderTable('ADMIN');
    await user.click(within(await openMenu(user, 'Sam Student')).getByRole('menuitem', { name: 'Sign out everywhere' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out everywhere' });
    expect(dialog).toHaveTextContent(
      'Sign Sam Student out of PatientSim on every device? They will have to sign in again with their password.',
    );
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus());
    expect(api.callsTo('POST', signOutUrl('u-student'))).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByText('Sam Student was signed out everywhere.')).toBeInTheDocument();
    expect(api.callsTo('POST', signOutUrl('u-student'))).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('keeps a refusal in the confirmation, with the server’s message', async () => {
    const { user } = renderTable('ADMIN', [
      {
        method: 'POST',
        path: signOutUrl('u-instructor'),
        respond: () => errorResponse(403, 'MEMBER_SIGN_OUT_LOCKED', 'You cannot sign out this user.'),
      },
    ]);
    await user.click(within(await openMenu(user, 'Ian Instructor')).getByRole('menuitem', { name: 'Sign out everywhere' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Sign out' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('You cannot sign out this user.');
  });

  it('is not offered for the admin themself or a provider account', async () => {
    const { user } = renderTable('ADMIN');
    const own = await openMenu(user, 'Ada Admin');
    expect(within(own).queryByRole('menuitem', { name: 'Sign out everywhere' })).not.toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
    const provider = await openMenu(user, 'Pat Provider');
    expect(within(provider).queryByRole('menuitem', { name: 'Sign out everywhere' })).not.toBeInTheDocument();
  });

  it('is not offered to instructors', async () => {
    const { user } = renderTable('USER');
    const menu = await openMenu(user, 'Sam Student');
    expect(within(menu).getByRole('menuitem', { name: 'Edit' })).toBeInTheDocument();
    expect(within(menu).queryByRole('menuitem', { name: 'Sign out everywhere' })).not.toBeInTheDocument();
  });
});
