import { QueryClientProvider, type QueryKey } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { createQueryClient } from '../../../lib/query-client';
import { writeLoginResult } from '../../../lib/session-store';
import { buildLoginResult, RIVERSIDE_ID } from '../../../testing/factories';
import { ok, stubApi } from '../../../testing/fake-api';
import { jsonResponse } from '../../../testing/render';
import { useCreateInvitations } from './create-invitations';
import { orgInvitesQueryKey } from './get-org-invites';
import { orgUsersKey } from './get-org-users';
import { useRemoveOrgUser } from './remove-org-user';
import { useResendInvite } from './resend-invite';
import { useRevokeInvite } from './revoke-invite';
import { useUpdateOrgUser } from './update-org-user';

const SUBGROUP_ID = 'group-riverside-cohort';

/** Every cached list that shows an organisation's people, by what it shows. */
const LISTS = {
  users: [...orgUsersKey(RIVERSIDE_ID), 'all', 0, ''],
  subscribedUsers: [...orgUsersKey(RIVERSIDE_ID), 'subscribed', 1, 'sam'],
  invitations: orgInvitesQueryKey(RIVERSIDE_ID),
  organisation: ['groups', RIVERSIDE_ID],
  consoleOrganisations: ['groups', 'organizations'],
  peopleSearch: ['users', 'search', { term: 'sam', orgId: RIVERSIDE_ID }],
  groupMembers: ['groups', SUBGROUP_ID, 'member-search', { term: '', page: 0 }],
} satisfies Record<string, QueryKey>;
type List = keyof typeof LISTS;

function setUp() {
  writeLoginResult(buildLoginResult({ role: 'ADMIN' }));
  stubApi(
    [
      { method: 'POST', path: '/api/users/invitations/invite', respond: () => jsonResponse([]) },
      { method: 'POST', path: `/api/users/invites/org/${RIVERSIDE_ID}/resend`, respond: () => ok() },
      { method: 'DELETE', path: `/api/users/invites/org/${RIVERSIDE_ID}`, respond: () => ok() },
      { method: 'DELETE', path: `/api/users/extension/groups/${RIVERSIDE_ID}/members`, respond: () => ok() },
      { method: 'PATCH', path: '/api/users/users/u-student', respond: () => ok() },
    ],
    { withShell: false },
  );
  const queryClient = createQueryClient();
  for (const key of Object.values(LISTS)) queryClient.setQueryData(key, { cached: true });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  );
  const refreshed = () =>
    (Object.keys(LISTS) as List[]).filter((list) => queryClient.getQueryState(LISTS[list])?.isInvalidated === true).sort();
  return { wrapper, refreshed };
}

/** Each write as a hook giving the call to make. */
const WRITES: Array<{ write: string; useWrite: () => () => Promise<unknown>; lists: List[] }> = [
  {
    // One address (Invite User) and many (Bulk Invite) are the same call: the invitees join the
    // users table as pending rows and take seats.
    write: 'an invitation',
    useWrite: () => {
      const create = useCreateInvitations(RIVERSIDE_ID);
      return () =>
        create.mutateAsync({
          users: [{ email: 'new@example.test', role: 'STUDENT' }],
          org: RIVERSIDE_ID,
          throughSubscription: false,
          groupMembership: [],
        });
    },
    lists: ['consoleOrganisations', 'invitations', 'organisation', 'subscribedUsers', 'users'],
  },
  {
    write: 'a revoked invitation',
    useWrite: () => {
      const revoke = useRevokeInvite(RIVERSIDE_ID);
      return () => revoke.mutateAsync('p@example.test');
    },
    lists: ['consoleOrganisations', 'invitations', 'organisation', 'subscribedUsers', 'users'],
  },
  {
    // A new link in the same invitation: nothing any list shows changes.
    write: 'a resent invitation',
    useWrite: () => {
      const resend = useResendInvite(RIVERSIDE_ID);
      return () => resend.mutateAsync('p@example.test');
    },
    lists: [],
  },
  {
    write: 'a removed member',
    useWrite: () => {
      const remove = useRemoveOrgUser();
      return () => remove.mutateAsync({ orgId: RIVERSIDE_ID, userId: 'u-student' });
    },
    lists: ['consoleOrganisations', 'groupMembers', 'organisation', 'peopleSearch', 'subscribedUsers', 'users'],
  },
  {
    write: "a member's name or role",
    useWrite: () => {
      const update = useUpdateOrgUser();
      return () =>
        update.mutateAsync({ orgId: RIVERSIDE_ID, userId: 'u-student', changes: { given_name: 'Samantha', role: 'USER' } });
    },
    lists: ['groupMembers', 'peopleSearch', 'subscribedUsers', 'users'],
  },
];

describe('writes on the people of an organisation', () => {
  it.each(WRITES)('$write refreshes every list that shows it', async ({ useWrite, lists }) => {
    const { wrapper, refreshed } = setUp();
    const { result } = renderHook(useWrite, { wrapper });
    await act(() => result.current());
    expect(refreshed()).toEqual([...lists].sort());
  });
});
