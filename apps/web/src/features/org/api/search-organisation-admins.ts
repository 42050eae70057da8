import { type GroupMember, MemberSearchResultSchema } from '@patientsim/domain/groups/group-management.schemas';
import { KEY_OWNER_ROLE } from '@patientsim/domain/roles/roles';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/** Admins of an organisation whose e-mail or name contains `term`: who may become key owner. */
export async function searchOrganisationAdmins(orgId: string, term: string): Promise<GroupMember[]> {
  const response = await apiFetch(`/api/users/extension/groups/${encodeURIComponent(orgId)}/member-search`, {
    query: { term, role: KEY_OWNER_ROLE },
    schema: MemberSearchResultSchema,
  });
  return response.users;
}

export const organisationAdminsQueryOptions = (orgId: string, term: string) =>
  queryOptions({
    queryKey: ['groups', orgId, 'member-search', { term, role: KEY_OWNER_ROLE }],
    queryFn: () => searchOrganisationAdmins(orgId, term),
    placeholderData: keepPreviousData,
  });

export function useOrganisationAdmins(orgId: string, term: string) {
  return useQuery({ ...organisationAdminsQueryOptions(orgId, term), enabled: term.length > 0 });
}
