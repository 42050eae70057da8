import { GroupSchema, type Group } from '@patientsim/domain/groups/group.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/** An organisation with its metadata (seats, member count, product type, status, key owner). */
export function getOrganisation(orgId: string): Promise<Group> {
  return apiFetch(`/api/users/extension/groups/${encodeURIComponent(orgId)}`, { schema: GroupSchema });
}

export const organisationQueryOptions = (orgId: string) =>
  queryOptions({ queryKey: ['groups', orgId], queryFn: () => getOrganisation(orgId) });

export function useOrganisation(orgId: string) {
  return useQuery(organisationQueryOptions(orgId));
}
