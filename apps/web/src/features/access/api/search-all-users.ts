import { FoundUserListSchema, type FoundUser } from '@patientsim/domain/users/users.schemas';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { requireIdToken } from '../../../lib/id-token';

export type AllUsersSearch = { term: string; includeDeleted: boolean };

/** Every user whose e-mail or names contain `term`, deleted accounts too on request (GET /search/users). */
export async function searchAllUsers({ term, includeDeleted }: AllUsersSearch, signal?: AbortSignal): Promise<FoundUser[]> {
  const { users } = await apiFetch('/api/users/search/users', {
    query: { term, includeDeleted: includeDeleted ? 'true' : undefined },
    token: requireIdToken(),
    schema: FoundUserListSchema,
    ...(signal ? { signal } : {}),
  });
  return users;
}

/** Every search of the provider's user directory lives under this key. */
export const allUsersKey = ['users', 'directory'] as const;

export const allUsersQueryOptions = (search: AllUsersSearch) =>
  queryOptions({
    queryKey: [...allUsersKey, search.term, search.includeDeleted],
    queryFn: ({ signal }) => searchAllUsers(search, signal),
    placeholderData: keepPreviousData,
  });

/** Searches only with a term (the search box sends 3 characters or more, spec section 5). */
export function useAllUsers(search: AllUsersSearch) {
  return useQuery({ ...allUsersQueryOptions(search), enabled: search.term.length > 0 });
}
