import { GroupSchema, type Group } from '@patientsim/domain/groups/group.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/** One group (organisation or sub-group) with its metadata. */
export function getGroup(groupId: string): Promise<Group> {
  return apiFetch(`/api/users/extension/groups/${encodeURIComponent(groupId)}`, { schema: GroupSchema });
}

export const groupQueryOptions = (groupId: string) =>
  queryOptions({ queryKey: ['groups', groupId], queryFn: () => getGroup(groupId) });

export function useGroup(groupId: string) {
  return useQuery(groupQueryOptions(groupId));
}
