import { OkSchema } from '@patientsim/domain/common/api.schemas';
import { mutationOptions, useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { renewSession } from '../../../lib/id-token';

/** Leaves an organisation (the body is the user's own id), then renews the token without it. */
export async function leaveOrganisation({ orgId, userId }: { orgId: string; userId: string }): Promise<void> {
  await apiFetch(`/api/users/extension/groups/${encodeURIComponent(orgId)}/members`, {
    method: 'DELETE',
    body: [userId],
    schema: OkSchema,
  });
  await renewSession();
}

export const leaveOrganisationMutationOptions = () =>
  mutationOptions({ mutationKey: ['account', 'leave-organisation'], mutationFn: leaveOrganisation });

export function useLeaveOrganisation() {
  return useMutation(leaveOrganisationMutationOptions());
}
