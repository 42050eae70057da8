import { ProvisioningDescriptionSchema } from '@patientsim/domain/account/provisioning.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api-client';

export type ProvisioningDescription = z.infer<typeof ProvisioningDescriptionSchema>;

/** The person a choose-password link was made for (decision 15); 400 when the link is not usable. */
export function getProvisioning(token: string): Promise<ProvisioningDescription> {
  return apiFetch('/api/users/integrations/provisioning', { query: { token }, schema: ProvisioningDescriptionSchema });
}

export const provisioningQueryOptions = (token: string) =>
  queryOptions({
    queryKey: ['auth', 'provisioning', token],
    queryFn: () => getProvisioning(token),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });

export function useProvisioning(token: string) {
  return useQuery(provisioningQueryOptions(token));
}
