import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './api-client';

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
