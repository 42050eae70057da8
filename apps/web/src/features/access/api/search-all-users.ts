import { PAGE_SIZE_USERS } from '@patientsim/domain/common/constants';
import { FoundUserListSchema, type FoundUserList } from '@patientsim/domain/users/users.schemas';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/** `page` is 0-based, of PAGE_SIZE_USERS users. */
export type AllUsersSearch = { term: string; includeDeleted: boolean; page: number };

/**
 * A page of every user whose e-mail or names contain `term`, by name, deleted accounts too on
 * request, with how many match in all (GET /search/users).
 */
export function searchAllUsers({ term, includeDeleted, page }: AllUsersSearch, signal?: AbortSignal): Promise<FoundUserList> {
  return apiFetch('/api/users/search/users', {
    query: {
      term,
      includeDeleted: includeDeleted ? 'true' : undefined,
      offset: page > 0 ? page * PAGE_SIZE_USERS : undefined,
      count: PAGE_SIZE_USERS,
    },
    schema: FoundUserListSchema,
    ...(signal ? { signal } : {}),
  });
}

/** Every search of the provider's user directory lives under this key. */
export const allUsersKey = ['users', 'directory'] as const;

export const allUsersQueryOptions = (search: AllUsersSearch) =>
  queryOptions({
    queryKey: [...allUsersKey, search.term, search.includeDeleted, search.page],
    queryFn: ({ signal }) => searchAllUsers(search, signal),
    placeholderData: keepPreviousData,
  });

/** Searches only with a term (the search box sends 3 characters or more, spec section 5). */
export function useAllUsers(search: AllUsersSearch) {
  return useQuery({ ...allUsersQueryOptions(search), enabled: search.term.length > 0 });
}
