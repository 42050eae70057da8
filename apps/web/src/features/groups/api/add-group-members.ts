import { OkSchema } from '@patientsim/domain/common/api.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { invalidateGroupMembership } from './invalidate-group-membership';

/** Adds members of the organisation to one of its groups. */
export async function addGroupMembers({
  groupId,
  userIds,
}: {
  groupId: string;
  orgId: string;
  userIds: string[];
}): Promise<void> {
  await apiFetch(`/api/users/extension/groups/${encodeURIComponent(groupId)}/members`, {
    method: 'PATCH',
    body: userIds,
    schema: OkSchema,
  });
}

export function useAddGroupMembers() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['groups', 'add-members'],
    mutationFn: addGroupMembers,
    onSuccess: (_result, { groupId, orgId }) => invalidateGroupMembership(queryClient, { groupId, orgId }),
  });
}
