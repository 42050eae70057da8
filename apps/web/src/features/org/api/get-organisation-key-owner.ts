import { KeyOwnerAnswerSchema, type KeyOwnerSchema } from '@patientsim/domain/account/account.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api-client';

export type OrganisationKeyOwner = z.infer<typeof KeyOwnerSchema>;

/** The key owner of an organisation, or null when it has none. */
export function getOrganisationKeyOwner(orgId: string): Promise<OrganisationKeyOwner | null> {
  return apiFetch(`/api/users/extension/groups/${encodeURIComponent(orgId)}/key-owner`, {
    schema: KeyOwnerAnswerSchema,
  });
}

export const organisationKeyOwnerQueryOptions = (orgId: string) =>
  queryOptions({ queryKey: ['groups', orgId, 'key-owner'], queryFn: () => getOrganisationKeyOwner(orgId) });

export function useOrganisationKeyOwner(orgId: string) {
  return useQuery(organisationKeyOwnerQueryOptions(orgId));
}
