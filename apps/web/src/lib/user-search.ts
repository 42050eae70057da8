import { type FoundUser, FoundUserListSchema } from '@patientsim/domain/users/users.schemas';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from './api-client';

/**
 * People whose e-mail or name contains `term` (GET /search/users): of the organisation `orgId`, or
 * of every organisation (the provider's directory) without it.
 */
export async function searchUsers(term: string, orgId: string | null): Promise<FoundUser[]> {
  const response = await apiFetch('/api/users/search/users', {
    query: { term, orgId },
    schema: FoundUserListSchema,
  });
  return response.users;
}

export const userSearchQueryOptions = (term: string, orgId: string | null) =>
  queryOptions({
    queryKey: ['users', 'search', { term, orgId }],
    queryFn: () => searchUsers(term, orgId),
    placeholderData: keepPreviousData,
  });

/** Searches once `term` is set (search fields report only terms of 3 or more characters). */
export function useUserSearch(term: string, orgId: string | null = null, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...userSearchQueryOptions(term, orgId), enabled: enabled && term.length > 0 });
}
