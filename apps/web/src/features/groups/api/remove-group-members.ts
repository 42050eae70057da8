import { OkSchema } from '@patientsim/domain/common/api.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { invalidateGroupMembership } from './invalidate-group-membership';

/** Removes members from a group (they stay in the organisation). */
export async function removeGroupMembers({
  groupId,
  userIds,
}: {
  groupId: string;
  orgId: string;
  userIds: string[];
}): Promise<void> {
  await apiFetch(`/api/users/extension/groups/${encodeURIComponent(groupId)}/members`, {
    method: 'DELETE',
    body: userIds,
    schema: OkSchema,
  });
}

export function useRemoveGroupMembers() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['groups', 'remove-members'],
    mutationFn: removeGroupMembers,
    onSuccess: (_result, { groupId, orgId }) => invalidateGroupMembership(queryClient, { groupId, orgId }),
  });
}
