import { type TwoFactorRequirement, TwoFactorRequirementSchema } from '@patientsim/domain/auth/two-factor.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { twoFactorRequirementKey } from './get-two-factor-requirement';

/** Sets the roles of an organisation that must use a second factor; members without one set it up at their next sign-in. */
export function updateTwoFactorRequirement({
  orgId,
  requirement,
}: {
  orgId: string;
  requirement: TwoFactorRequirement;
}): Promise<TwoFactorRequirement> {
  return apiFetch(`/api/users/extension/groups/${encodeURIComponent(orgId)}/two-factor-requirement`, {
    method: 'PUT',
    body: requirement,
    schema: TwoFactorRequirementSchema,
  });
}

export function useUpdateTwoFactorRequirement() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['groups', 'update-two-factor-requirement'],
    mutationFn: updateTwoFactorRequirement,
    onSuccess: (saved, { orgId }) => queryClient.setQueryData(twoFactorRequirementKey(orgId), saved),
  });
}
