import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiFetch } from '../../../lib/api-client';

const PublicClientSchema = z.object({ client_id: z.string(), client_name: z.string().optional() });

/** The public name of a registered application, as the OpenID provider gives it to a signed-in person. */
export async function getApplicationName(clientId: string, signal?: AbortSignal): Promise<string> {
  const client = await apiFetch('/api/auth/oauth2/public-client', {
    query: { client_id: clientId },
    schema: PublicClientSchema,
    ...(signal ? { signal } : {}),
  });
  return client.client_name ?? client.client_id;
}

export const applicationNameQueryOptions = (clientId: string) =>
  queryOptions({
    queryKey: ['oauth', 'application-name', clientId],
    queryFn: ({ signal }) => getApplicationName(clientId, signal),
  });

export function useApplicationName(clientId: string) {
  return useQuery(applicationNameQueryOptions(clientId));
}
