import { ERROR_CODES, type ErrorCode } from '@patientsim/domain/errors/error-codes';

/** The one error class of the server: a catalogue code, optionally a message and details. */
export class AppError extends Error {
  readonly statusCode: number;
  constructor(
    readonly code: ErrorCode,
    options: { message?: string; details?: unknown; headers?: Record<string, string> } = {},
  ) {
    super(options.message ?? ERROR_CODES[code].message);
    this.name = 'AppError';
    this.statusCode = ERROR_CODES[code].status;
    this.details = options.details;
    this.headers = options.headers;
  }
  readonly details: unknown;
  readonly headers: Record<string, string> | undefined;
}

export function assert(
  condition: unknown,
  code: ErrorCode,
  options?: { message?: string; details?: unknown },
): asserts condition {
  if (!condition) throw new AppError(code, options);
}

/** Whether PostgreSQL raised one of `codes` (SQLSTATE), raw or wrapped by drizzle as the cause. */
export function hasPostgresCode(error: unknown, codes: ReadonlySet<string>): boolean {
  for (let current = error, depth = 0; current && depth < 3; depth += 1) {
    const { code } = current as { code?: unknown };
    if (typeof code === 'string' && codes.has(code)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

const UNIQUE_VIOLATION = new Set(['23505']);

/** PostgreSQL's unique_violation: two writes raced to create the same thing. */
export function isUniqueViolation(error: unknown): boolean {
  return hasPostgresCode(error, UNIQUE_VIOLATION);
}

/** Connection-level failures of the network (the peer gone, refused, reset or silent). */
const CONNECTION_FAILURES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);

/** What ioredis says of a command that Redis did not answer or could not be sent. */
const REDIS_UNAVAILABLE_MESSAGES = new Set([
  'Connection is closed.',
  'Command timed out',
  "Stream isn't writeable and enableOfflineQueue options is false",
  'Command aborted due to connection close',
]);

/**
 * PostgreSQL shutting down or not accepting connections yet (class 57P), or a broken connection
 * (class 08).
 */
const DATABASE_UNAVAILABLE = /^(57P0[1-3]|08\d{3})$/;

/** How soon a client is asked to try again when PostgreSQL or Redis is out of reach. */
export const DEPENDENCY_RETRY_AFTER_SECONDS = 5;

/**
 * Whether `error` (or what it wraps) says that a service the server depends on, PostgreSQL or
 * Redis, cannot be reached right now: a condition that passes, for which the client should try
 * again shortly, not a fault of the request or of the server's code.
 */
export function isDependencyUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 4; depth += 1) {
    const { code, name, message } = current as { code?: unknown; name?: unknown; message?: unknown };
    if (typeof code === 'string' && (CONNECTION_FAILURES.has(code) || DATABASE_UNAVAILABLE.test(code))) return true;
    // ioredis: a command given up with its broken connection, or left unanswered, or refused while
    // disconnected (lib/redis.ts).
    if (name === 'MaxRetriesPerRequestError' || REDIS_UNAVAILABLE_MESSAGES.has(String(message))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
