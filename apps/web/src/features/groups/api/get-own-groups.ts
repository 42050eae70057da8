import { type Group, parseGroupMetadata } from '@patientsim/domain/groups/group.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getUserGroups } from '../../../lib/user-groups';

/** The caller's own groups that have a parent (instructors and students, spec section 6). */
export async function getOwnSubgroups(userId: string): Promise<Group[]> {
  const groups = await getUserGroups({ userId });
  return groups.filter((group) => Boolean(parseGroupMetadata(group)?.parent));
}

export const ownSubgroupsQueryOptions = (userId: string) =>
  queryOptions({ queryKey: ['groups', 'user', userId], queryFn: () => getOwnSubgroups(userId) });

export function useOwnSubgroups(userId: string, { enabled = true } = {}) {
  return useQuery({ ...ownSubgroupsQueryOptions(userId), enabled });
}
