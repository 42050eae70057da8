import { OkSchema } from '@patientsim/domain/common/api.schemas';
import type { UpdateOrgUserBody } from '@patientsim/domain/users/org-users.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { invalidateOrgMembers } from './invalidate-org-people';

/** An admin's edit of a member: only the changed fields are sent (spec section 5). */
export async function updateOrgUser({
  orgId,
  userId,
  changes,
}: {
  orgId: string;
  userId: string;
  changes: UpdateOrgUserBody;
}): Promise<void> {
  await apiFetch(`/api/users/users/${encodeURIComponent(userId)}`, {
    method: 'PATCH',
    query: { orgId },
    body: changes,
    schema: OkSchema,
  });
}

export function useUpdateOrgUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['groups', 'update-org-user'],
    mutationFn: updateOrgUser,
    // Names, e-mail and role show wherever the member is listed; seats do not change.
    onSuccess: (_result, { orgId }) => invalidateOrgMembers(queryClient, orgId, { seats: false }),
  });
}
