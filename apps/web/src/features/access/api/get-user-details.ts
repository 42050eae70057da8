import { UserDetailsSchema, type UserDetails } from '@patientsim/domain/users/users.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/** A user's account and every membership (GET /users/{id}). */
export function getUserDetails(userId: string, signal?: AbortSignal): Promise<UserDetails> {
  return apiFetch(`/api/users/users/${encodeURIComponent(userId)}`, {
    schema: UserDetailsSchema,
    ...(signal ? { signal } : {}),
  });
}

export const userDetailsKey = (userId: string) => ['users', 'details', userId] as const;

export const userDetailsQueryOptions = (userId: string) =>
  queryOptions({ queryKey: userDetailsKey(userId), queryFn: ({ signal }) => getUserDetails(userId, signal) });

export function useUserDetails(userId: string) {
  return useQuery(userDetailsQueryOptions(userId));
}
