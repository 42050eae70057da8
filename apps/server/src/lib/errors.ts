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
