import { BillingSessionResponseSchema } from '@patientsim/domain/account/account.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { RUNS_ONCE } from '../../../lib/query-client';
import { ApiError, CLIENT_ERROR_CODES, UNKNOWN_ERROR_MESSAGE, apiFetch } from '../../../lib/api-client';

/** Opens a session of the payment provider's customer portal; answers the URL to send the browser to. */
export async function createBillingPortalSession(): Promise<string> {
  const response = await apiFetch('/api/users/payment/create-billing-portal-session', {
    method: 'POST',
    schema: BillingSessionResponseSchema,
  });
  const { sessionUrl } = response.data;
  // Only a web page may be opened: never a script URL.
  if (!/^https?:\/\//i.test(sessionUrl)) {
    throw new ApiError({ statusCode: 200, code: CLIENT_ERROR_CODES.invalidResponse, message: UNKNOWN_ERROR_MESSAGE });
  }
  return sessionUrl;
}

export const billingPortalSessionQueryOptions = () =>
  queryOptions({
    queryKey: ['payment', 'billing-portal-session'],
    queryFn: createBillingPortalSession,
    // One session per visit of the page: never cached, retried or refetched.
    gcTime: 0,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    meta: RUNS_ONCE,
  });

export function useBillingPortalSession() {
  return useQuery(billingPortalSessionQueryOptions());
}
