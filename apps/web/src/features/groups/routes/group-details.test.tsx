import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Role } from '@patientsim/domain/roles/roles';
import { describe, expect, it } from 'vitest';
import { writeLoginResult } from '../../../lib/session-store';
import { RIVERSIDE_ID, buildGroup, buildLoginResult } from '../../../testing/factories';
import { type FakeRoute, stubApi } from '../../../testing/fake-api';
import { jsonResponse, renderRoutes } from '../../../testing/render';
import { GroupDetailsRoute } from './group-details';

const GROUP_ID = 'group-cohort';
const COHORT = buildGroup({ _id: GROUP_ID, name: 'org-::Cohort A' }, { parent: RIVERSIDE_ID, memberCount: 1, ownerId: 'user-2' });
const ADA = { user_id: 'user-2', email: 'ada@demo.test', given_name: 'Ada', family_name: 'Admin', role: 'ADMIN' };
const SAM = { user_id: 'user-3', email: 'sam@demo.test', given_name: 'Sam', family_name: 'Student', role: 'STUDENT' };

function renderDetails(role: Role, routes: FakeRoute[] = []) {
  writeLoginResult(buildLoginResult({ role }));
  const api = stubApi([
    ...routes,
    { method: 'GET', path: `/api/users/extension/groups/${GROUP_ID}`, respond: () => jsonResponse(COHORT) },
    {
      method: 'GET',
      path: `/api/users/extension/groups/${GROUP_ID}/key-owner`,
      respond: () => jsonResponse({ user_id: 'user-2', email: ADA.email, given_name: 'Ada', family_name: 'Admin' }),
    },
  ]);
  renderRoutes([{ path: '/groups/:orgId', element: <GroupDetailsRoute /> }], `/auth/groups/${GROUP_ID}`);
  return { api, user: userEvent.setup() };
}

const memberSearch = (respond: (url: URL) => unknown): FakeRoute => ({
  method: 'GET',
  path: `/api/users/extension/groups/${GROUP_ID}/member-search`,
  respond: (request) => {
    const users = respond(request.url) as unknown[];
    return jsonResponse({ users, total: users.length });
  },
});

describe('GroupDetailsRoute', () => {
  it('shows the group without its prefix, its admin and members, read-only for an instructor', async () => {
    renderDetails('USER', [memberSearch(() => [ADA])]);
    expect(await screen.findByText('Cohort A')).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Members of Cohort A' });
    expect(within(table).getByText('ada@demo.test')).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Add a member of the organization' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Remove / })).not.toBeInTheDocument();
  });

  it('pages a group of 55 members by 50: page 1 of 2, then the last 5', async () => {
    const pupils = Array.from({ length: 55 }, (_item, index) => {
      const nn = String(index + 1).padStart(2, '0');
      return { user_id: `p${nn}`, email: `pupil${nn}@demo.test`, given_name: 'Pupil', family_name: nn, role: 'STUDENT' };
    });
    const { api, user } = renderDetails('USER', [
      {
        method: 'GET',
        path: `/api/users/extension/groups/${GROUP_ID}/member-search`,
        respond: (request) => {
          const offset = Number(request.url.searchParams.get('offset') ?? 0);
          const count = Number(request.url.searchParams.get('count') ?? 50);
          return jsonResponse({ users: pupils.slice(offset, offset + count), total: pupils.length });
        },
      },
    ]);
    const table = await screen.findByRole('table', { name: 'Members of Cohort A' });
    expect(await screen.findByText('page 1 of 2')).toBeInTheDocument();
    expect(within(table).getAllByRole('row')).toHaveLength(51);
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('page 2 of 2')).toBeInTheDocument();
    expect(await within(table).findByText('pupil55@demo.test')).toBeInTheDocument();
    expect(within(table).getAllByRole('row')).toHaveLength(6);
    const offsets = api
      .callsTo('GET', `/api/users/extension/groups/${GROUP_ID}/member-search`)
      .map((request) => request.url.searchParams.get('offset'));
    expect(offsets).toEqual([null, '50']);
  });

  it('shows the shared empty state for a group without members', async () => {
    renderDetails('ADMIN', [memberSearch(() => [])]);
    const empty = await screen.findByRole('status');
    expect(empty).toHaveTextContent('Nothing to show');
    expect(empty).toHaveTextContent('No users to display');
  });

  it('lets an admin add a member found by e-mail (3 characters or more) and remove one after confirmation', async () => {
    const { api, user } = renderDetails('ADMIN', [
      memberSearch((url) => (url.searchParams.get('inGroup') === 'true' ? [ADA] : [SAM])),
      { method: 'PATCH', path: `/api/users/extension/groups/${GROUP_ID}/members`, respond: () => jsonResponse({ ok: true }) },
      { method: 'DELETE', path: `/api/users/extension/groups/${GROUP_ID}/members`, respond: () => jsonResponse({ ok: true }) },
    ]);
    const search = await screen.findByRole('combobox', { name: 'Add a member of the organization' });
    await user.type(search, 'sa');
    expect(screen.getByText('Type at least 3 characters to search')).toBeInTheDocument();
    await user.type(search, 'm');
    await user.click(await screen.findByRole('option', { name: 'Sam Student (sam@demo.test)' }, { timeout: 2000 }));
    const searches = api.callsTo('GET', `/api/users/extension/groups/${GROUP_ID}/member-search`);
    expect(searches.some((r) => r.url.searchParams.get('term') === 'sa')).toBe(false);
    expect(searches.some((r) => r.url.searchParams.get('term') === 'sam' && r.url.searchParams.get('inGroup') === 'false')).toBe(
      true,
    );
    await user.click(screen.getByRole('button', { name: 'Add member' }));
    await waitFor(() => expect(api.callsTo('PATCH', `/api/users/extension/groups/${GROUP_ID}/members`)).toHaveLength(1));
    expect(api.callsTo('PATCH', `/api/users/extension/groups/${GROUP_ID}/members`)[0]?.body).toEqual(['user-3']);
    expect(await screen.findByText('Sam Student added to Cohort A')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Remove Ada Admin from the group' }));
    const confirm = await screen.findByRole('dialog', { name: 'Remove member' });
    await user.click(within(confirm).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(api.callsTo('DELETE', `/api/users/extension/groups/${GROUP_ID}/members`)).toHaveLength(1));
    expect(api.callsTo('DELETE', `/api/users/extension/groups/${GROUP_ID}/members`)[0]?.body).toEqual(['user-2']);
  });

  it('sends no addition before a member is chosen', async () => {
    const { api, user } = renderDetails('ADMIN', [
      memberSearch((url) => (url.searchParams.get('inGroup') === 'true' ? [ADA] : [SAM])),
      { method: 'PATCH', path: `/api/users/extension/groups/${GROUP_ID}/members`, respond: () => jsonResponse({ ok: true }) },
    ]);
    const add = await screen.findByRole('button', { name: 'Add member' });
    expect(add).toBeDisabled();
    fireEvent.submit(add.closest('form') as HTMLFormElement);

    // Choosing someone afterwards sends one addition, theirs: the empty one before went nowhere.
    await user.type(screen.getByRole('combobox', { name: 'Add a member of the organization' }), 'sam');
    await user.click(await screen.findByRole('option', { name: 'Sam Student (sam@demo.test)' }, { timeout: 2000 }));
    await user.click(add);
    expect(await screen.findByText('Sam Student added to Cohort A')).toBeInTheDocument();
    expect(api.callsTo('PATCH', `/api/users/extension/groups/${GROUP_ID}/members`).map((call) => call.body)).toEqual([
      ['user-3'],
    ]);
  });
});
