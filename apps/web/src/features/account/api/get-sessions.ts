import { type AccountSessions, AccountSessionsSchema } from '@patientsim/domain/account/sessions.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/** The signed-in person's live sessions, this browser's first. */
export function getSessions(): Promise<AccountSessions> {
  return apiFetch('/api/users/account/sessions', { schema: AccountSessionsSchema });
}

export const SESSIONS_QUERY_KEY = ['account', 'sessions'] as const;

export const sessionsQueryOptions = () => queryOptions({ queryKey: SESSIONS_QUERY_KEY, queryFn: getSessions });

export function useSessions() {
  return useQuery(sessionsQueryOptions());
}
