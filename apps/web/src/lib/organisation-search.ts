import { type Group, GroupListSchema } from '@patientsim/domain/groups/group.schemas';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from './api-client';
import { topLevelGroups } from './current-user';

/** Organisations (not sub-groups) whose name matches `term` (GET /search/groups, fuzzy). */
export async function searchOrganisations(term: string): Promise<Group[]> {
  const groups = await apiFetch('/api/users/search/groups', {
    query: { term },
    schema: GroupListSchema,
  });
  return topLevelGroups(groups);
}

export const organisationSearchQueryOptions = (term: string) =>
  queryOptions({
    queryKey: ['groups', 'search', { term }],
    queryFn: () => searchOrganisations(term),
    placeholderData: keepPreviousData,
  });

/** Searches once `term` is set (the field reports only terms of 3 or more characters). */
export function useOrganisationSearch(term: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...organisationSearchQueryOptions(term), enabled: enabled && term.length > 0 });
}
