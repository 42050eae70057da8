import { type SupportContact, SupportContactSchema } from '@patientsim/domain/account/account.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/** Where people reach the provider (the deployment's support address). */
export function getSupportContact(): Promise<SupportContact> {
  return apiFetch('/api/users/support-contact', { schema: SupportContactSchema });
}

export const supportContactQueryOptions = () =>
  // The address is the deployment's configuration: it does not change while the app runs.
  queryOptions({ queryKey: ['support-contact'], queryFn: getSupportContact, staleTime: Number.POSITIVE_INFINITY });

export function useSupportContact() {
  return useQuery(supportContactQueryOptions());
}
