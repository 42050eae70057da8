import { ErrorBodySchema } from '@patientsim/domain/common/api.schemas';

/** The error statuses a route may document. */
type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 422 | 429 | 502 | 503;

/**
 * The error answers of a route schema: each status with the one error body
 * `{statusCode, code, message}` (ARCHITECTURE.md, API conventions).
 */
export function errorResponses<const S extends ErrorStatus>(...statuses: S[]): Record<S, typeof ErrorBodySchema> {
  return Object.fromEntries(statuses.map((status) => [status, ErrorBodySchema])) as Record<S, typeof ErrorBodySchema>;
}
