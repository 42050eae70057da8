import { OkSchema } from '@patientsim/domain/common/api.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { invalidateOrgMembers } from './invalidate-org-people';

/** Removes a member from the organisation: archived for grading, their sessions end. */
export async function removeOrgUser({ orgId, userId }: { orgId: string; userId: string }): Promise<void> {
  await apiFetch(`/api/users/extension/groups/${encodeURIComponent(orgId)}/members`, {
    method: 'DELETE',
    body: [userId],
    schema: OkSchema,
  });
}

export function useRemoveOrgUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['groups', 'remove-org-user'],
    mutationFn: removeOrgUser,
    // The member moves to the archive and leaves the organisation's groups; a seat opens.
    onSuccess: (_result, { orgId }) => invalidateOrgMembers(queryClient, orgId, { seats: true }),
  });
}
