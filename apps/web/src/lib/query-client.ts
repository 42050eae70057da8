import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './api-client';

/**
 * Meta of a query that is really an action run once per visit (sign-in completion, following a
 * link, opening a billing session): never refetched by a blanket invalidation.
 */
export const RUNS_ONCE = { runsOnce: true } as const;

/** Invalidates every cached query except those that run once. */
export function invalidateAllData(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ predicate: (query) => query.meta?.runsOnce !== true });
}

/**
 * Drops every cached query except those that run once, and fetches the shown ones again: after a
 * change of active organisation no screen may keep the previous organisation's data meanwhile.
 */
export function resetAllData(queryClient: QueryClient): Promise<void> {
  return queryClient.resetQueries({ predicate: (query) => query.meta?.runsOnce !== true });
}

/** Retries only what may succeed on a second try: network failures and 5xx, once. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= 1) return false;
  if (!isApiError(error)) return false;
  return error.statusCode === 0 || error.statusCode >= 500;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
}
