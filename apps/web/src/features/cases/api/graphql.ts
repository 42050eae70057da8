import { z, type ZodType } from 'zod';
import { ApiError, CLIENT_ERROR_CODES, UNKNOWN_ERROR_MESSAGE, apiFetch, firstGraphqlError } from '../../../lib/api-client';
import { requireIdToken } from '../../../lib/id-token';

/**
 * Sends one GraphQL operation to the case API (POST /api/graphql, bearer ID token) and answers its
 * `data`, validated by `schema`. An answer with `errors[]` throws an `ApiError` carrying the first
 * error's message and code (the product's error codes), as every other call of the app does.
 */
export async function graphqlRequest<T>(options: {
  query: string;
  variables?: Record<string, unknown>;
  schema: ZodType<T>;
  signal?: AbortSignal;
}): Promise<T> {
  const body = await apiFetch('/api/graphql', {
    method: 'POST',
    body: { query: options.query, variables: options.variables ?? {} },
    token: requireIdToken(),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const error = firstGraphqlError(body);
  if (error) {
    const message = typeof error.message === 'string' && error.message ? error.message : null;
    throw new ApiError({
      statusCode: typeof error.statusCode === 'number' ? error.statusCode : 200,
      code: typeof error.code === 'string' ? error.code : CLIENT_ERROR_CODES.unknown,
      message: message ?? UNKNOWN_ERROR_MESSAGE,
      hasReplyMessage: message !== null,
    });
  }
  const parsed = z.object({ data: options.schema }).safeParse(body);
  if (!parsed.success) {
    throw new ApiError({
      statusCode: 200,
      code: CLIENT_ERROR_CODES.invalidResponse,
      message: UNKNOWN_ERROR_MESSAGE,
      details: parsed.error.issues,
    });
  }
  return parsed.data.data;
}
