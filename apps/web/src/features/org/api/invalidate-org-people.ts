import type { Query, QueryClient } from '@tanstack/react-query';
import { orgInvitesQueryKey } from './get-org-invites';
import { orgUsersKey } from './get-org-users';

/** The access area's list of organisations (seats used per organisation). */
const CONSOLE_ORGANISATIONS_KEY = ['groups', 'organizations'] as const;

/** The people searches that show names and roles: the access area's and the organisation's user pickers. */
const PEOPLE_SEARCH_KEY = ['users', 'search'] as const;

/** The inviter's organisation and sub-groups (`['groups', 'user', userId, 'invite-target', orgId]`): its seat figures. */
const isInviteTarget = (orgId: string) => (query: Query) =>
  query.queryKey[0] === 'groups' && query.queryKey[3] === 'invite-target' && query.queryKey[4] === orgId;

/** The member lists of groups (`['groups', id, 'member-search', …]`), whose members are the organisation's. */
const isGroupMemberList = (query: Query) => query.queryKey[0] === 'groups' && query.queryKey[2] === 'member-search';

/**
 * Refreshes the lists that show an organisation's invitations: the users tables (an invitee is a
 * row), its pending invitations and the seat counts of the organisation and of the access area's list.
 */
export function invalidateOrgInvitations(queryClient: QueryClient, orgId: string): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: orgUsersKey(orgId) }),
    queryClient.invalidateQueries({ queryKey: orgInvitesQueryKey(orgId) }),
    queryClient.invalidateQueries({ queryKey: ['groups', orgId], exact: true }),
    queryClient.invalidateQueries({ predicate: isInviteTarget(orgId) }),
    queryClient.invalidateQueries({ queryKey: CONSOLE_ORGANISATIONS_KEY }),
  ]);
}

/**
 * Refreshes the lists that show an organisation's members by name and role: every variant and page
 * of its users tables, its groups' member lists and the people searches; with `seats`, the seat
 * counts too (a member came or went).
 */
export function invalidateOrgMembers(queryClient: QueryClient, orgId: string, { seats }: { seats: boolean }): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: orgUsersKey(orgId) }),
    queryClient.invalidateQueries({ predicate: isGroupMemberList }),
    queryClient.invalidateQueries({ queryKey: PEOPLE_SEARCH_KEY }),
    ...(seats
      ? [
          queryClient.invalidateQueries({ queryKey: ['groups', orgId], exact: true }),
          queryClient.invalidateQueries({ predicate: isInviteTarget(orgId) }),
          queryClient.invalidateQueries({ queryKey: CONSOLE_ORGANISATIONS_KEY }),
        ]
      : []),
  ]);
}
