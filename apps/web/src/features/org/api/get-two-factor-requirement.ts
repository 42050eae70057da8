import { type TwoFactorRequirement, TwoFactorRequirementSchema } from '@patientsim/domain/auth/two-factor.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/** The roles of an organisation that must use a second factor (decision 0066). */
export function getTwoFactorRequirement(orgId: string): Promise<TwoFactorRequirement> {
  return apiFetch(`/api/users/extension/groups/${encodeURIComponent(orgId)}/two-factor-requirement`, {
    schema: TwoFactorRequirementSchema,
  });
}

export const twoFactorRequirementKey = (orgId: string) => ['groups', orgId, 'two-factor-requirement'] as const;

export const twoFactorRequirementQueryOptions = (orgId: string) =>
  queryOptions({ queryKey: twoFactorRequirementKey(orgId), queryFn: () => getTwoFactorRequirement(orgId) });

export function useTwoFactorRequirement(orgId: string) {
  return useQuery(twoFactorRequirementQueryOptions(orgId));
}
