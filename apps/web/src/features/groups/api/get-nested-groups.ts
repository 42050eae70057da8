import { GroupListSchema, type Group } from '@patientsim/domain/groups/group.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/** The groups of an organisation (admins and super admins, spec section 6). */
export function getNestedGroups(orgId: string): Promise<Group[]> {
  return apiFetch(`/api/users/extension/groups/${encodeURIComponent(orgId)}/nested`, {
    schema: GroupListSchema,
  });
}

export const nestedGroupsQueryOptions = (orgId: string) =>
  queryOptions({ queryKey: ['groups', orgId, 'nested'], queryFn: () => getNestedGroups(orgId) });

export function useNestedGroups(orgId: string, { enabled = true } = {}) {
  return useQuery({ ...nestedGroupsQueryOptions(orgId), enabled });
}
