import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { ERROR_CODES, type ErrorBody } from '@patientsim/domain/errors/error-codes';
import { AppError } from '../../lib/errors.js';

/** PostgreSQL's unique_violation, raw or wrapped by drizzle as the cause. */
function isUniqueViolation(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 3; depth += 1) {
    if ((current as { code?: unknown }).code === '23505') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Turns every error into `{ statusCode, code, message }`. Below 500 the message passes through;
 * at 500 and above it is generic and the details go to the log.
 */
export default fp(
  async (app) => {
    app.setErrorHandler((error, request, reply) => {
      if (error instanceof AppError) {
        if (error.headers) reply.headers(error.headers);
        const body: ErrorBody = { statusCode: error.statusCode, code: error.code, message: error.message };
        if (error.details !== undefined) body.details = error.details;
        if (error.statusCode >= 500) request.log.error({ err: error }, error.message);
        return reply.status(error.statusCode).send(body);
      }
      if (hasZodFastifySchemaValidationErrors(error)) {
        const issues = error.validation as ReadonlyArray<{ instancePath?: string; message?: string }>;
        const details = issues.map((issue) => ({
          field: String(issue.instancePath ?? '')
            .replace(/^\//, '')
            .replaceAll('/', '.'),
          message: String(issue.message ?? 'Invalid value'),
        }));
        const first = details[0];
        return reply.status(400).send({
          statusCode: 400,
          code: 'VALIDATION_FAILED',
          message: first ? `${first.field ? `${first.field}: ` : ''}${first.message}` : ERROR_CODES.VALIDATION_FAILED.message,
          details,
        } satisfies ErrorBody);
      }
      if (isUniqueViolation(error)) {
        // Two requests raced to create the same thing; the loser gets a conflict, not a 500.
        return reply
          .status(409)
          .send({ statusCode: 409, code: 'CONFLICT', message: ERROR_CODES.CONFLICT.message } satisfies ErrorBody);
      }
      if (isResponseSerializationError(error)) {
        request.log.error({ err: error }, 'response did not match its schema');
        return reply.status(500).send({ statusCode: 500, code: 'INTERNAL', message: ERROR_CODES.INTERNAL.message });
      }
      const status =
        typeof (error as { statusCode?: unknown }).statusCode === 'number' ? (error as { statusCode: number }).statusCode : 500;
      if (status === 429) {
        return reply.status(429).send({ statusCode: 429, code: 'RATE_LIMITED', message: ERROR_CODES.RATE_LIMITED.message });
      }
      if (status >= 400 && status < 500) {
        // Framework errors on bad input: malformed JSON, wrong content type, body too large.
        const code =
          status === 404 ? 'NOT_FOUND' : status === 401 ? 'UNAUTHENTICATED' : status === 403 ? 'FORBIDDEN' : 'VALIDATION_FAILED';
        const message = error instanceof Error ? error.message : ERROR_CODES[code].message;
        return reply.status(status).send({ statusCode: status, code, message } satisfies ErrorBody);
      }
      request.log.error({ err: error }, 'unhandled error');
      return reply.status(500).send({ statusCode: 500, code: 'INTERNAL', message: ERROR_CODES.INTERNAL.message });
    });

    app.setNotFoundHandler((request, reply) => {
      reply
        .status(404)
        .send({ statusCode: 404, code: 'NOT_FOUND', message: `Route ${request.method} ${request.url.split('?')[0]} not found` });
    });
  },
  { name: 'error-handler' },
);
