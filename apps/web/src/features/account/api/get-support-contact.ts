import { type SupportContact, SupportContactSchema } from '@patientsim/domain/account/account.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { requireIdToken } from '../../../lib/id-token';

/** Where people reach the provider (the deployment's support address). */
export function getSupportContact(): Promise<SupportContact> {
  return apiFetch('/api/users/support-contact', { token: requireIdToken(), schema: SupportContactSchema });
}

export const supportContactQueryOptions = () =>
  // The address is the deployment's configuration: it does not change while the app runs.
  queryOptions({ queryKey: ['support-contact'], queryFn: getSupportContact, staleTime: Number.POSITIVE_INFINITY });

export function useSupportContact() {
  return useQuery(supportContactQueryOptions());
}
