import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { ERROR_CODES, type ErrorBody } from '@patientsim/domain/errors/error-codes';
import {
  AppError,
  DEPENDENCY_RETRY_AFTER_SECONDS,
  hasPostgresCode,
  isDependencyUnavailable,
  isUniqueViolation,
} from '../../lib/errors.js';

/**
 * PostgreSQL refusing text it cannot store: 22021 (invalid byte sequence: a NUL in text) and 22P05
 * (untranslatable character: \u0000 in jsonb). Raw, or wrapped by drizzle as the cause.
 */
const UNSTORABLE_TEXT_CODES = new Set(['22021', '22P05']);
const isUnstorableText = (error: unknown) => hasPostgresCode(error, UNSTORABLE_TEXT_CODES);

/**
 * Turns every error into `{ statusCode, code, message }`. Below 500 the message passes through;
 * at 500 and above it is generic and the details go to the log.
 */
export type ErrorHandlerOptions = {
  /** Whether the shared Redis (when there is one) is disconnected right now. */
  isRedisDisconnected?: () => boolean;
};

export default fp<ErrorHandlerOptions>(
  async (app, { isRedisDisconnected = () => false }) => {
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
      if (isUnstorableText(error)) {
        // The domain schemas refuse such text; an input they miss is still bad input, not a 500.
        request.log.warn({ err: error }, 'input the database cannot store');
        return reply.status(400).send({
          statusCode: 400,
          code: 'VALIDATION_FAILED',
          message: 'The request contains characters that cannot be stored.',
        } satisfies ErrorBody);
      }
      if (isResponseSerializationError(error)) {
        request.log.error({ err: error }, 'response did not match its schema');
        return reply.status(500).send({ statusCode: 500, code: 'INTERNAL', message: ERROR_CODES.INTERNAL.message });
      }
      const status =
        typeof (error as { statusCode?: unknown }).statusCode === 'number' ? (error as { statusCode: number }).statusCode : 500;
      // PostgreSQL or Redis out of reach for a moment: the client is told to try again shortly. The
      // identity library reports a failed session read as its own error, without the cause, so
      // Redis's connection state counts too.
      if (status >= 500 && (isDependencyUnavailable(error) || isRedisDisconnected())) {
        request.log.error({ err: error }, 'a service the server depends on is unavailable');
        return reply
          .status(503)
          .header('retry-after', String(DEPENDENCY_RETRY_AFTER_SECONDS))
          .send({
            statusCode: 503,
            code: 'SERVICE_UNAVAILABLE',
            message: ERROR_CODES.SERVICE_UNAVAILABLE.message,
          } satisfies ErrorBody);
      }
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
