import {
  type MemberSearchQuery,
  type MemberSearchResult,
  MemberSearchResultSchema,
} from '@patientsim/domain/groups/group-management.schemas';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/**
 * A page of the members of the group's organisation (see the route), by name, with how many match:
 * its own members with `inGroup: 'true'` and no term, or those matching `term` that are not in it
 * yet with `inGroup: 'false'`.
 */
export function searchGroupMembers(groupId: string, query: MemberSearchQuery): Promise<MemberSearchResult> {
  return apiFetch(`/api/users/extension/groups/${encodeURIComponent(groupId)}/member-search`, {
    query,
    schema: MemberSearchResultSchema,
  });
}

export const groupMembersQueryOptions = (groupId: string, query: MemberSearchQuery) =>
  queryOptions({
    queryKey: ['groups', groupId, 'member-search', query],
    queryFn: () => searchGroupMembers(groupId, query),
    placeholderData: keepPreviousData,
  });

export function useGroupMemberSearch(groupId: string, query: MemberSearchQuery, { enabled = true } = {}) {
  return useQuery({ ...groupMembersQueryOptions(groupId, query), enabled });
}
