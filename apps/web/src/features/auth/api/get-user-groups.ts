import { GroupListSchema } from '@patientsim/domain/groups/group.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/** The groups (organisations and sub-groups) of a user, fetched with the ID token. */
export function getUserGroups(params: { userId: string; idToken: string }) {
  return apiFetch(`/api/users/extension/users/${encodeURIComponent(params.userId)}/groups`, {
    token: params.idToken,
    schema: GroupListSchema,
  });
}

export const userGroupsQueryOptions = (params: { userId: string; idToken: string }) =>
  queryOptions({
    queryKey: ['users', params.userId, 'groups'],
    queryFn: () => getUserGroups(params),
  });

export function useUserGroups(params: { userId: string; idToken: string }) {
  return useQuery(userGroupsQueryOptions(params));
}
