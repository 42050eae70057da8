import { z, type ZodType } from 'zod';
import { ApiError, CLIENT_ERROR_CODES, UNKNOWN_ERROR_MESSAGE, apiFetch } from './api-client';
import { requireIdToken } from './id-token';

/** The case API (spec section 7): GraphQL at POST /api/graphql with the bearer token. */
export const GRAPHQL_PATH = '/api/graphql';

const GraphqlErrorSchema = z.object({
  message: z.string(),
  extensions: z.object({ code: z.string().optional(), statusCode: z.number().int().optional() }).optional(),
});
const GraphqlReplySchema = z.object({
  data: z.unknown().optional(),
  errors: z.array(GraphqlErrorSchema).optional(),
});
export type GraphqlError = z.infer<typeof GraphqlErrorSchema>;

/** The first GraphQL error as the app's ApiError: its message (the product's text), code and status. */
export function graphqlErrorToApiError(errors: readonly GraphqlError[]): ApiError {
  const [first] = errors;
  return new ApiError({
    statusCode: first?.extensions?.statusCode ?? 400,
    code: first?.extensions?.code ?? CLIENT_ERROR_CODES.unknown,
    message: first?.message || UNKNOWN_ERROR_MESSAGE,
    details: errors,
    hasReplyMessage: Boolean(first?.message),
  });
}

export type GraphqlRequest<T> = {
  query: string;
  variables?: Record<string, unknown>;
  /** Validates (and types) the answer's `data`. */
  schema: ZodType<T>;
  signal?: AbortSignal;
};

/**
 * Posts `{ query, variables }` with the stored bearer token through the app's fetch wrapper and
 * answers `data`. Throws ApiError: the reply's own error for a refused request (401 without a
 * valid token), `errors[0]` of a GraphQL answer that has errors, or INVALID_RESPONSE.
 */
export async function graphqlFetch<T>({ query, variables = {}, schema, signal }: GraphqlRequest<T>): Promise<T> {
  const reply = await apiFetch(GRAPHQL_PATH, {
    method: 'POST',
    body: { query, variables },
    token: requireIdToken(),
    schema: GraphqlReplySchema,
    ...(signal ? { signal } : {}),
  });
  if (reply.errors && reply.errors.length > 0) throw graphqlErrorToApiError(reply.errors);
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
