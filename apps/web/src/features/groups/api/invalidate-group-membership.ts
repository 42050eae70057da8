import type { QueryClient } from '@tanstack/react-query';

/**
 * After members join or leave a group: the group (its member count), its member searches and the
 * organisation's group list (counts) change; nothing else does.
 */
export async function invalidateGroupMembership(
  queryClient: QueryClient,
  { groupId, orgId }: { groupId: string; orgId: string },
) {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: ['groups', groupId], exact: true }),
    queryClient.invalidateQueries({ queryKey: ['groups', groupId, 'member-search'] }),
    queryClient.invalidateQueries({ queryKey: ['groups', orgId, 'nested'] }),
  ]);
}
