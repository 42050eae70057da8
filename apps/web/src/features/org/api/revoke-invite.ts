import { OkSchema } from '@patientsim/domain/common/api.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { invalidateOrgInvitations } from './invalidate-org-people';

/** Revokes an organisation's pending invitation to `email`: its link stops working. */
export async function revokeInvite({ orgId, email }: { orgId: string; email: string }): Promise<void> {
  await apiFetch(`/api/users/invites/org/${encodeURIComponent(orgId)}`, {
    method: 'DELETE',
    query: { email },
    schema: OkSchema,
  });
}

export function useRevokeInvite(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['invitations', 'revoke', orgId],
    mutationFn: (email: string) => revokeInvite({ orgId, email }),
    onSuccess: () => invalidateOrgInvitations(queryClient, orgId),
  });
}
