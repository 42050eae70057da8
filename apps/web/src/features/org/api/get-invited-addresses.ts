import {
  type InvitedAddressesResponse,
  InvitedAddressesResponseSchema,
} from '@patientsim/domain/invitations/invite-users.schemas';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { orgInvitesQueryKey } from './get-org-invites';

/**
 * What inviting each address into the organisation would do to its seats: already a member, a
 * pending invitation sent again, or new (POST invites/org/{id}/addresses, decision 0046).
 */
export function getInvitedAddresses(orgId: string, emails: readonly string[]): Promise<InvitedAddressesResponse> {
  return apiFetch(`/api/users/invites/org/${encodeURIComponent(orgId)}/addresses`, {
    method: 'POST',
    body: { emails },
    schema: InvitedAddressesResponseSchema,
  });
}

// Under the organisation's invitations key: sending invitations refreshes it.
export const invitedAddressesQueryOptions = (orgId: string, emails: readonly string[]) =>
  queryOptions({
    queryKey: [...orgInvitesQueryKey(orgId), 'addresses', emails] as const,
    queryFn: () => getInvitedAddresses(orgId, emails),
  });

/** The standings of `emails` (none asked while `orgId` is null or the list is empty), the last answer kept while the list changes. */
export function useInvitedAddresses(orgId: string | null, emails: readonly string[]) {
  const sorted = [...new Set(emails)].sort();
  return useQuery({
    ...invitedAddressesQueryOptions(orgId ?? '', sorted),
    enabled: orgId !== null && sorted.length > 0,
    placeholderData: keepPreviousData,
  });
}
