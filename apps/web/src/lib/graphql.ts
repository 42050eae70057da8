import { z, type ZodType } from 'zod';
import { ERROR_CODES } from '@patientsim/domain/errors/error-codes';
import { ApiError, CLIENT_ERROR_CODES, UNKNOWN_ERROR_MESSAGE, apiFetch, graphqlBodyError } from './api-client';
import { readLoginResult } from './session-store';

/** The case API (spec section 7): GraphQL at POST /api/graphql with the bearer token. */
export const GRAPHQL_PATH = '/api/graphql';

const GraphqlReplySchema = z.object({ data: z.unknown().optional(), errors: z.array(z.unknown()).optional() });

export type GraphqlRequest<T> = {
  query: string;
  variables?: Record<string, unknown>;
  /** Validates (and types) the answer's `data`. */
  schema: ZodType<T>;
  signal?: AbortSignal;
};

/**
 * Posts `{ query, variables }` with the stored bearer token through the app's fetch wrapper and
 * answers `data`. Throws ApiError: `errors[0]` of an answer with errors (its message is the
 * product's text, with `extensions.code` and `statusCode`), the reply's own JSON error for a
 * refused request (401 without a valid token), or INVALID_RESPONSE.
 */
export async function graphqlFetch<T>({ query, variables = {}, schema, signal }: GraphqlRequest<T>): Promise<T> {
  // Every operation needs the bearer: signed out, fail like a 401 without calling the server.
  if (!readLoginResult()) {
    throw new ApiError({ statusCode: 401, code: 'UNAUTHENTICATED', message: ERROR_CODES.UNAUTHENTICATED.message });
  }
  const reply = await apiFetch(GRAPHQL_PATH, {
    method: 'POST',
    body: { query, variables },
    schema: GraphqlReplySchema,
    ...(signal ? { signal } : {}),
  });
  // Errors beside partial data come with 200; errors alone come with their status (the fetch
  // wrapper throws those the same way).
  if (reply.errors && reply.errors.length > 0) {
    throw (
      graphqlBodyError(reply, 200) ??
      new ApiError({ statusCode: 200, code: CLIENT_ERROR_CODES.unknown, message: UNKNOWN_ERROR_MESSAGE, details: reply.errors })
    );
  }
  const parsed = schema.safeParse(reply.data);
  if (!parsed.success) {
    throw new ApiError({
      statusCode: 200,
      code: CLIENT_ERROR_CODES.invalidResponse,
      message: `${UNKNOWN_ERROR_MESSAGE} Error code 200`,
      details: parsed.error.issues,
    });
  }
  return parsed.data;
}
