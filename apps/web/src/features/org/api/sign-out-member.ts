import { OkSchema } from '@patientsim/domain/common/api.schemas';
import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/**
 * Signs a member of the organisation out on every device: each of their browsers is signed out on
 * its next request. Nothing the users table shows changes.
 */
export async function signOutMember({ orgId, userId }: { orgId: string; userId: string }): Promise<void> {
  await apiFetch(`/api/users/extension/groups/${encodeURIComponent(orgId)}/members/${encodeURIComponent(userId)}/sign-out`, {
    method: 'POST',
    schema: OkSchema,
  });
}

export function useSignOutMember() {
  return useMutation({ mutationKey: ['groups', 'sign-out-member'], mutationFn: signOutMember });
}
